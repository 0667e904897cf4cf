// RUN: gather-opt %s --convert-linalg-to-gather --split-input-file | FileCheck %s
// RUN: gather-opt %s --convert-linalg-to-gather=plain-reads=unchecked --split-input-file | FileCheck %s --check-prefix=UNCHECKED
// RUN: gather-opt %s --convert-linalg-to-gather --split-input-file --mlir-print-op-generic | FileCheck %s --check-prefix=GENERIC
// RUN: gather-opt %s --convert-linalg-to-gather=segment-sums=false --split-input-file | FileCheck %s --check-prefix=OFF
// RUN: gather-opt %s --convert-linalg-to-gather=segment-sums-of-gathered-rows --split-input-file | FileCheck %s --check-prefix=GPUFORM
// The plugin registers the pattern with the pass in upstream's mlir-opt.
// RUN: %mlir_opt --load-dialect-plugin=%gather_lib/GatherPlugin.so --load-pass-plugin=%gather_lib/GatherPlugin.so %s --pass-pipeline="builtin.module(func.func(convert-linalg-to-gather))" --split-input-file | FileCheck %s

// Embedding bags with offsets as torch-mlir's TorchToLinalg writes
// aten.embedding_bag (mode sum): one generic over (bags, every index, row)
// adding row indices[j] of the table into bag b where
// offsets[b] <= j < next(b), next(b) = b + 1 == bags ? size(indices) :
// offsets[b + 1]. Each becomes a loop over the bags, each gathering the
// rows of its range [lo, hi) of the indices (lo = min(max(offsets[b], 0), n),
// hi = max(min(next(b), n), lo)) and summing them into its row. The
// destination's fill (torch-mlir's zeros) fills each bag's row in the loop,
// where every row is a bag, the loop's destination being the fill's.

// CHECK-LABEL: func.func @embedding_bag_sum
// CHECK-SAME:      %[[W:[^:]*]]: tensor<1000x64xf32>, %[[IDS:[^:]*]]: tensor<200xi64>, %[[OFFS:[^:]*]]: tensor<16xi64>
// CHECK-DAG:     %[[C0:.*]] = arith.constant 0 : index
// CHECK-DAG:     %[[C1:.*]] = arith.constant 1 : index
// CHECK-DAG:     %[[C16:.*]] = arith.constant 16 : index
// CHECK-DAG:     %[[N:.*]] = arith.constant 200 : index
// CHECK-DAG:     %[[ZERO:.*]] = arith.constant 0.000000e+00 : f32
// CHECK:         %[[EMPTY:.*]] = tensor.empty() : tensor<16x64xf32>
// CHECK:         %[[R:.*]] = scf.forall (%[[B:.*]]) in (16) shared_outs(%[[OUT:.*]] = %[[EMPTY]]) -> (tensor<16x64xf32>)
// CHECK:           %[[START:.*]] = arith.index_cast %{{.*}} : i64 to index
// CHECK:           %[[NEXTBAG:.*]] = arith.addi %[[B]], %[[C1]]
// CHECK:           %[[LAST:.*]] = arith.cmpi eq, %[[NEXTBAG]], %[[C16]]
// CHECK:           %[[READ:.*]] = arith.minui %[[NEXTBAG]], %{{.*}}
// CHECK:           tensor.extract %[[OFFS]][%[[READ]]]
// CHECK:           %[[NEXT:.*]] = arith.select %[[LAST]], %[[N]], %{{.*}} : index
// CHECK:           %[[LO0:.*]] = arith.maxsi %[[START]], %[[C0]]
// CHECK:           %[[LO:.*]] = arith.minsi %[[LO0]], %[[N]]
// CHECK:           %[[HI0:.*]] = arith.minsi %[[NEXT]], %[[N]]
// CHECK:           %[[HI:.*]] = arith.maxsi %[[HI0]], %[[LO]]
// CHECK:           %[[LEN:.*]] = arith.subi %[[HI]], %[[LO]]
// CHECK:           %[[BAG:.*]] = tensor.extract_slice %[[IDS]][%[[LO]]] [%[[LEN]]] [1] : tensor<200xi64> to tensor<?xi64>
// CHECK:           %[[ROWS:.*]] = tensor.empty(%[[LEN]]) : tensor<?x64xf32>
// CHECK:           %[[G:.*]] = gather.block %[[W]][%[[BAG]]] axis = 0 negative_indices = out_of_bounds whole_indices(%[[IDS]] : tensor<200xi64>) into %[[ROWS]]
// CHECK:           %[[ROW0:.*]] = tensor.extract_slice %[[OUT]][%[[B]], 0] [1, 64] [1, 1] : tensor<16x64xf32> to tensor<64xf32>
// CHECK:           %[[ROW:.*]] = linalg.fill ins(%[[ZERO]] : f32) outs(%[[ROW0]] : tensor<64xf32>)
// CHECK:           %[[SUM:.*]] = linalg.reduce ins(%[[G]] : tensor<?x64xf32>) outs(%[[ROW]] : tensor<64xf32>) dimensions = [0]
// CHECK:             arith.addf %[[X:.*]], %[[ACC:.*]] : f32
// CHECK:           scf.forall.in_parallel
// CHECK:             tensor.parallel_insert_slice %[[SUM]] into %[[OUT]][%[[B]], 0] [1, 64] [1, 1]
// CHECK-NOT:     linalg.generic
// CHECK:         return %[[R]]
// UNCHECKED-LABEL: func.func @embedding_bag_sum
// UNCHECKED:       gather.block {{.*}} negative_indices = out_of_bounds out_of_bounds = unchecked whole_indices
// OFF-LABEL: func.func @embedding_bag_sum
// OFF-NOT:     scf.forall
// OFF:         linalg.generic
// The GPU's form (segment-sums-of-gathered-rows; its lowering takes no
// gather inside a loop): the rows of all the indices gathered, then one
// loop nest over (bag, column), each iteration summing its bag's range
// [lo, hi) of those rows into the fill's value.
// GPUFORM-LABEL: func.func @embedding_bag_sum
// GPUFORM-SAME:      %[[W:[^:]*]]: tensor<1000x64xf32>, %[[IDS:[^:]*]]: tensor<200xi64>, %[[OFFS:[^:]*]]: tensor<16xi64>
// GPUFORM-DAG:     %[[C0:.*]] = arith.constant 0 : index
// GPUFORM-DAG:     %[[C1:.*]] = arith.constant 1 : index
// GPUFORM-DAG:     %[[N:.*]] = arith.constant 200 : index
// GPUFORM:         %[[INIT:.*]] = linalg.fill
// GPUFORM:         %[[ROWS:.*]] = tensor.empty() : tensor<200x64xf32>
// GPUFORM:         %[[G:.*]] = gather.block %[[W]][%[[IDS]]] axis = 0 negative_indices = out_of_bounds into %[[ROWS]] : tensor<1000x64xf32>, tensor<200xi64> into tensor<200x64xf32>
// GPUFORM:         %[[R:.*]] = linalg.generic
// GPUFORM-SAME:      iterator_types = ["parallel", "parallel"]
// GPUFORM-SAME:      outs(%[[INIT]] : tensor<16x64xf32>)
// GPUFORM:         ^bb0(%[[OUT:.*]]: f32):
// GPUFORM:           %[[B:.*]] = linalg.index 0
// GPUFORM:           %[[K:.*]] = linalg.index 1
// GPUFORM:           tensor.extract %[[OFFS]][%[[B]]]
// GPUFORM:           %[[LO0:.*]] = arith.maxsi %{{.*}}, %[[C0]]
// GPUFORM:           %[[LO:.*]] = arith.minsi %[[LO0]], %[[N]]
// GPUFORM:           %[[HI0:.*]] = arith.minsi %{{.*}}, %[[N]]
// GPUFORM:           %[[HI:.*]] = arith.maxsi %[[HI0]], %[[LO]]
// GPUFORM:           %[[SUM:.*]] = scf.for %[[J:.*]] = %[[LO]] to %[[HI]] step %[[C1]] iter_args(%[[ACC:.*]] = %[[OUT]]) -> (f32)
// GPUFORM:             %[[X:.*]] = tensor.extract %[[G]][%[[J]], %[[K]]] : tensor<200x64xf32>
// GPUFORM:             %[[ADD:.*]] = arith.addf %[[X]], %[[ACC]] : f32
// GPUFORM:             scf.yield %[[ADD]]
// GPUFORM:           linalg.yield %[[SUM]]
// GPUFORM:         return %[[R]]
#map_i = affine_map<(d0, d1, d2) -> (d1)>
#map_o = affine_map<(d0, d1, d2) -> (d0)>
#map_out = affine_map<(d0, d1, d2) -> (d0, d2)>
func.func @embedding_bag_sum(%weight: tensor<1000x64xf32>, %indices: tensor<200xi64>, %offsets: tensor<16xi64>) -> tensor<16x64xf32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %zero = arith.constant 0.0 : f32
  %nb = tensor.dim %offsets, %c0 : tensor<16xi64>
  %nn = tensor.dim %indices, %c0 : tensor<200xi64>
  %nd = tensor.dim %weight, %c1 : tensor<1000x64xf32>
  %e = tensor.empty() : tensor<16x64xf32>
  %init = linalg.fill ins(%zero : f32) outs(%e : tensor<16x64xf32>) -> tensor<16x64xf32>
  %r = linalg.generic {indexing_maps = [#map_i, #map_o, #map_out], iterator_types = ["parallel", "reduction", "parallel"]}
      ins(%indices, %offsets : tensor<200xi64>, tensor<16xi64>) outs(%init : tensor<16x64xf32>) {
  ^bb0(%idx: i64, %off: i64, %acc: f32):
    %i = linalg.index 0 : index
    %i64 = arith.index_cast %i : index to i64
    %one = arith.constant 1 : i64
    %ip1 = arith.addi %i64, %one : i64
    %ip1x = arith.index_cast %ip1 : i64 to index
    %len64 = arith.index_cast %nb : index to i64
    %last = arith.cmpi eq, %len64, %ip1 : i64
    %n64 = arith.index_cast %nn : index to i64
    %nxt = tensor.extract %offsets[%ip1x] : tensor<16xi64>
    %next = arith.select %last, %n64, %nxt : i64
    %j = linalg.index 1 : index
    %j64 = arith.index_cast %j : index to i64
    %lt = arith.cmpi slt, %off, %j64 : i64
    %eq = arith.cmpi eq, %off, %j64 : i64
    %le = arith.ori %lt, %eq : i1
    %below = arith.cmpi slt, %j64, %next : i64
    %in = arith.andi %le, %below : i1
    %row = arith.index_cast %idx : i64 to index
    %k = linalg.index 2 : index
    %w = tensor.extract %weight[%row, %k] : tensor<1000x64xf32>
    %add = arith.addf %w, %acc : f32
    %sel = arith.select %in, %add, %acc : f32
    linalg.yield %sel : f32
  } -> tensor<16x64xf32>
  return %r : tensor<16x64xf32>
}

// -----

// Dynamic sizes, read with tensor.dim as torch-mlir's getDimOp does. The
// bags are the fewer of the offsets and the destination's rows (a valid
// generic has them alike; where they disagree, nothing is read or written
// past either). Rows no bag visits keep the fill's value: the whole
// destination is filled before the loop.
// CHECK-LABEL: func.func @embedding_bag_sum_dynamic
// CHECK-SAME:      %[[W:[^:]*]]: tensor<?x?xf32>, %[[IDS:[^:]*]]: tensor<?xi64>, %[[OFFS:[^:]*]]: tensor<?xi64>
// CHECK:         %[[INIT:.*]] = linalg.fill
// CHECK:         %[[BAGS:.*]] = arith.minui %{{.*}}, %{{.*}} : index
// CHECK:         scf.forall (%{{.*}}) in (%[[BAGS]]) shared_outs(%{{.*}} = %[[INIT]])
// CHECK-NOT:       linalg.fill
// CHECK:           %[[BAG:.*]] = tensor.extract_slice %[[IDS]]
// CHECK:           %[[COLS:.*]] = tensor.extract_slice %[[W]][0, 0] [%{{.*}}, %{{.*}}] [1, 1]
// CHECK:           gather.block %[[COLS]][%[[BAG]]] axis = 0
// CHECK:           linalg.reduce ins(%{{.*}} : tensor<?x?xf32>) outs(%{{.*}} : tensor<?xf32>)
// CHECK-NOT:     linalg.generic
// With dynamic sizes every row is a bag where value bounds prove the
// destination's rows and the offsets alike (here the destination's size is
// read from the offsets).
// GPUFORM-LABEL: func.func @embedding_bag_sum_dynamic
// GPUFORM:         %[[COLS:.*]] = tensor.extract_slice %{{.*}}[0, 0] [%{{.*}}, %{{.*}}] [1, 1]
// GPUFORM:         %[[G:.*]] = gather.block %[[COLS]][%{{.*}}] axis = 0
// GPUFORM:         linalg.generic
// GPUFORM:           scf.for
// GPUFORM:             tensor.extract %[[G]]
#map_i = affine_map<(d0, d1, d2) -> (d1)>
#map_o = affine_map<(d0, d1, d2) -> (d0)>
#map_out = affine_map<(d0, d1, d2) -> (d0, d2)>
func.func @embedding_bag_sum_dynamic(%weight: tensor<?x?xf32>, %indices: tensor<?xi64>, %offsets: tensor<?xi64>) -> tensor<?x?xf32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %zero = arith.constant 0.0 : f32
  %nb = tensor.dim %offsets, %c0 : tensor<?xi64>
  %nn = tensor.dim %indices, %c0 : tensor<?xi64>
  %nd = tensor.dim %weight, %c1 : tensor<?x?xf32>
  %e = tensor.empty(%nb, %nd) : tensor<?x?xf32>
  %init = linalg.fill ins(%zero : f32) outs(%e : tensor<?x?xf32>) -> tensor<?x?xf32>
  %r = linalg.generic {indexing_maps = [#map_i, #map_o, #map_out], iterator_types = ["parallel", "reduction", "parallel"]}
      ins(%indices, %offsets : tensor<?xi64>, tensor<?xi64>) outs(%init : tensor<?x?xf32>) {
  ^bb0(%idx: i64, %off: i64, %acc: f32):
    %i = linalg.index 0 : index
    %i64 = arith.index_cast %i : index to i64
    %one = arith.constant 1 : i64
    %ip1 = arith.addi %i64, %one : i64
    %ip1x = arith.index_cast %ip1 : i64 to index
    %len64 = arith.index_cast %nb : index to i64
    %last = arith.cmpi eq, %len64, %ip1 : i64
    %n64 = arith.index_cast %nn : index to i64
    %nxt = tensor.extract %offsets[%ip1x] : tensor<?xi64>
    %next = arith.select %last, %n64, %nxt : i64
    %j = linalg.index 1 : index
    %j64 = arith.index_cast %j : index to i64
    %lt = arith.cmpi slt, %off, %j64 : i64
    %eq = arith.cmpi eq, %off, %j64 : i64
    %le = arith.ori %lt, %eq : i1
    %below = arith.cmpi slt, %j64, %next : i64
    %in = arith.andi %le, %below : i1
    %row = arith.index_cast %idx : i64 to index
    %k = linalg.index 2 : index
    %w = tensor.extract %weight[%row, %k] : tensor<?x?xf32>
    %add = arith.addf %w, %acc : f32
    %sel = arith.select %in, %add, %acc : f32
    linalg.yield %sel : f32
  } -> tensor<?x?xf32>
  return %r : tensor<?x?xf32>
}

// -----

// A table wider than the rows the generic reads: its first 64 columns.
// CHECK-LABEL: func.func @embedding_bag_narrow_rows
// CHECK:         %[[COLS:.*]] = tensor.extract_slice %{{.*}}[0, 0] [1000, 64] [1, 1] : tensor<1000x80xf32> to tensor<1000x64xf32>
// CHECK:         gather.block %[[COLS]]
#map_i = affine_map<(d0, d1, d2) -> (d1)>
#map_o = affine_map<(d0, d1, d2) -> (d0)>
#map_out = affine_map<(d0, d1, d2) -> (d0, d2)>
func.func @embedding_bag_narrow_rows(%weight: tensor<1000x80xf32>, %indices: tensor<200xi64>, %offsets: tensor<16xi64>) -> tensor<16x64xf32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %zero = arith.constant 0.0 : f32
  %nb = tensor.dim %offsets, %c0 : tensor<16xi64>
  %nn = tensor.dim %indices, %c0 : tensor<200xi64>
  %nd = tensor.dim %weight, %c1 : tensor<1000x80xf32>
  %e = tensor.empty() : tensor<16x64xf32>
  %init = linalg.fill ins(%zero : f32) outs(%e : tensor<16x64xf32>) -> tensor<16x64xf32>
  %r = linalg.generic {indexing_maps = [#map_i, #map_o, #map_out], iterator_types = ["parallel", "reduction", "parallel"]}
      ins(%indices, %offsets : tensor<200xi64>, tensor<16xi64>) outs(%init : tensor<16x64xf32>) {
  ^bb0(%idx: i64, %off: i64, %acc: f32):
    %i = linalg.index 0 : index
    %i64 = arith.index_cast %i : index to i64
    %one = arith.constant 1 : i64
    %ip1 = arith.addi %i64, %one : i64
    %ip1x = arith.index_cast %ip1 : i64 to index
    %len64 = arith.index_cast %nb : index to i64
    %last = arith.cmpi eq, %len64, %ip1 : i64
    %n64 = arith.index_cast %nn : index to i64
    %nxt = tensor.extract %offsets[%ip1x] : tensor<16xi64>
    %next = arith.select %last, %n64, %nxt : i64
    %j = linalg.index 1 : index
    %j64 = arith.index_cast %j : index to i64
    %lt = arith.cmpi slt, %off, %j64 : i64
    %eq = arith.cmpi eq, %off, %j64 : i64
    %le = arith.ori %lt, %eq : i1
    %below = arith.cmpi slt, %j64, %next : i64
    %in = arith.andi %le, %below : i1
    %row = arith.index_cast %idx : i64 to index
    %k = linalg.index 2 : index
    %w = tensor.extract %weight[%row, %k] : tensor<1000x80xf32>
    %add = arith.addf %w, %acc : f32
    %sel = arith.select %in, %add, %acc : f32
    linalg.yield %sel : f32
  } -> tensor<16x64xf32>
  return %r : tensor<16x64xf32>
}

// -----

// Integer tables add with arith.addi.
// CHECK-LABEL: func.func @embedding_bag_sum_i32
// CHECK:         scf.forall
// CHECK:           linalg.reduce
// CHECK:             arith.addi
// CHECK-NOT:     linalg.generic
#map_i = affine_map<(d0, d1, d2) -> (d1)>
#map_o = affine_map<(d0, d1, d2) -> (d0)>
#map_out = affine_map<(d0, d1, d2) -> (d0, d2)>
func.func @embedding_bag_sum_i32(%weight: tensor<1000x64xi32>, %indices: tensor<200xi64>, %offsets: tensor<16xi64>) -> tensor<16x64xi32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %zero = arith.constant 0 : i32
  %nb = tensor.dim %offsets, %c0 : tensor<16xi64>
  %nn = tensor.dim %indices, %c0 : tensor<200xi64>
  %nd = tensor.dim %weight, %c1 : tensor<1000x64xi32>
  %e = tensor.empty() : tensor<16x64xi32>
  %init = linalg.fill ins(%zero : i32) outs(%e : tensor<16x64xi32>) -> tensor<16x64xi32>
  %r = linalg.generic {indexing_maps = [#map_i, #map_o, #map_out], iterator_types = ["parallel", "reduction", "parallel"]}
      ins(%indices, %offsets : tensor<200xi64>, tensor<16xi64>) outs(%init : tensor<16x64xi32>) {
  ^bb0(%idx: i64, %off: i64, %acc: i32):
    %i = linalg.index 0 : index
    %i64 = arith.index_cast %i : index to i64
    %one = arith.constant 1 : i64
    %ip1 = arith.addi %i64, %one : i64
    %ip1x = arith.index_cast %ip1 : i64 to index
    %len64 = arith.index_cast %nb : index to i64
    %last = arith.cmpi eq, %len64, %ip1 : i64
    %n64 = arith.index_cast %nn : index to i64
    %nxt = tensor.extract %offsets[%ip1x] : tensor<16xi64>
    %next = arith.select %last, %n64, %nxt : i64
    %j = linalg.index 1 : index
    %j64 = arith.index_cast %j : index to i64
    %lt = arith.cmpi slt, %off, %j64 : i64
    %eq = arith.cmpi eq, %off, %j64 : i64
    %le = arith.ori %lt, %eq : i1
    %below = arith.cmpi slt, %j64, %next : i64
    %in = arith.andi %le, %below : i1
    %row = arith.index_cast %idx : i64 to index
    %k = linalg.index 2 : index
    %w = tensor.extract %weight[%row, %k] : tensor<1000x64xi32>
    %add = arith.addi %w, %acc : i32
    %sel = arith.select %in, %add, %acc : i32
    linalg.yield %sel : i32
  } -> tensor<16x64xi32>
  return %r : tensor<16x64xi32>
}

// -----

// The lower bound as one `sge` and the sum as the add's first operand: the
// reduction adds in the generic's operand order.
// CHECK-LABEL: func.func @embedding_bag_sum_sge
// CHECK:         linalg.reduce
// GENERIC:       sym_name = "embedding_bag_sum_sge"
// GENERIC:       "linalg.reduce"
// GENERIC-NEXT:    ^bb0(%[[X:.*]]: f32, %[[ACC:.*]]: f32):
// GENERIC-NEXT:      "arith.addf"(%[[ACC]], %[[X]])
#map_i = affine_map<(d0, d1, d2) -> (d1)>
#map_o = affine_map<(d0, d1, d2) -> (d0)>
#map_out = affine_map<(d0, d1, d2) -> (d0, d2)>
func.func @embedding_bag_sum_sge(%weight: tensor<1000x64xf32>, %indices: tensor<200xi64>, %offsets: tensor<16xi64>) -> tensor<16x64xf32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %zero = arith.constant 0.0 : f32
  %nb = tensor.dim %offsets, %c0 : tensor<16xi64>
  %nn = tensor.dim %indices, %c0 : tensor<200xi64>
  %nd = tensor.dim %weight, %c1 : tensor<1000x64xf32>
  %e = tensor.empty() : tensor<16x64xf32>
  %init = linalg.fill ins(%zero : f32) outs(%e : tensor<16x64xf32>) -> tensor<16x64xf32>
  %r = linalg.generic {indexing_maps = [#map_i, #map_o, #map_out], iterator_types = ["parallel", "reduction", "parallel"]}
      ins(%indices, %offsets : tensor<200xi64>, tensor<16xi64>) outs(%init : tensor<16x64xf32>) {
  ^bb0(%idx: i64, %off: i64, %acc: f32):
    %i = linalg.index 0 : index
    %i64 = arith.index_cast %i : index to i64
    %one = arith.constant 1 : i64
    %ip1 = arith.addi %i64, %one : i64
    %ip1x = arith.index_cast %ip1 : i64 to index
    %len64 = arith.index_cast %nb : index to i64
    %last = arith.cmpi eq, %len64, %ip1 : i64
    %n64 = arith.index_cast %nn : index to i64
    %nxt = tensor.extract %offsets[%ip1x] : tensor<16xi64>
    %next = arith.select %last, %n64, %nxt : i64
    %j = linalg.index 1 : index
    %j64 = arith.index_cast %j : index to i64
    %le = arith.cmpi sge, %j64, %off : i64
    %below = arith.cmpi slt, %j64, %next : i64
    %in = arith.andi %le, %below : i1
    %row = arith.index_cast %idx : i64 to index
    %k = linalg.index 2 : index
    %w = tensor.extract %weight[%row, %k] : tensor<1000x64xf32>
    %add = arith.addf %acc, %w : f32
    %sel = arith.select %in, %add, %acc : f32
    linalg.yield %sel : f32
  } -> tensor<16x64xf32>
  return %r : tensor<16x64xf32>
}

// -----

// The bag's first index left out (offsets[b] < j): not a bag.
// CHECK-LABEL: func.func @bag_lower_bound_strict_stays
// CHECK-NOT:     scf.forall
// CHECK:         linalg.generic
#map_i = affine_map<(d0, d1, d2) -> (d1)>
#map_o = affine_map<(d0, d1, d2) -> (d0)>
#map_out = affine_map<(d0, d1, d2) -> (d0, d2)>
func.func @bag_lower_bound_strict_stays(%weight: tensor<1000x64xf32>, %indices: tensor<200xi64>, %offsets: tensor<16xi64>) -> tensor<16x64xf32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %zero = arith.constant 0.0 : f32
  %nb = tensor.dim %offsets, %c0 : tensor<16xi64>
  %nn = tensor.dim %indices, %c0 : tensor<200xi64>
  %nd = tensor.dim %weight, %c1 : tensor<1000x64xf32>
  %e = tensor.empty() : tensor<16x64xf32>
  %init = linalg.fill ins(%zero : f32) outs(%e : tensor<16x64xf32>) -> tensor<16x64xf32>
  %r = linalg.generic {indexing_maps = [#map_i, #map_o, #map_out], iterator_types = ["parallel", "reduction", "parallel"]}
      ins(%indices, %offsets : tensor<200xi64>, tensor<16xi64>) outs(%init : tensor<16x64xf32>) {
  ^bb0(%idx: i64, %off: i64, %acc: f32):
    %i = linalg.index 0 : index
    %i64 = arith.index_cast %i : index to i64
    %one = arith.constant 1 : i64
    %ip1 = arith.addi %i64, %one : i64
    %ip1x = arith.index_cast %ip1 : i64 to index
    %len64 = arith.index_cast %nb : index to i64
    %last = arith.cmpi eq, %len64, %ip1 : i64
    %n64 = arith.index_cast %nn : index to i64
    %nxt = tensor.extract %offsets[%ip1x] : tensor<16xi64>
    %next = arith.select %last, %n64, %nxt : i64
    %j = linalg.index 1 : index
    %j64 = arith.index_cast %j : index to i64
    %le = arith.cmpi slt, %off, %j64 : i64
    %below = arith.cmpi slt, %j64, %next : i64
    %in = arith.andi %le, %below : i1
    %row = arith.index_cast %idx : i64 to index
    %k = linalg.index 2 : index
    %w = tensor.extract %weight[%row, %k] : tensor<1000x64xf32>
    %add = arith.addf %w, %acc : f32
    %sel = arith.select %in, %add, %acc : f32
    linalg.yield %sel : f32
  } -> tensor<16x64xf32>
  return %r : tensor<16x64xf32>
}

// -----

// The last bag's end read past the offsets (no select of the number of
// indices): undefined in the source, kept.
// CHECK-LABEL: func.func @bag_next_without_last_stays
// CHECK-NOT:     scf.forall
// CHECK:         linalg.generic
#map_i = affine_map<(d0, d1, d2) -> (d1)>
#map_o = affine_map<(d0, d1, d2) -> (d0)>
#map_out = affine_map<(d0, d1, d2) -> (d0, d2)>
func.func @bag_next_without_last_stays(%weight: tensor<1000x64xf32>, %indices: tensor<200xi64>, %offsets: tensor<16xi64>) -> tensor<16x64xf32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %zero = arith.constant 0.0 : f32
  %nb = tensor.dim %offsets, %c0 : tensor<16xi64>
  %nn = tensor.dim %indices, %c0 : tensor<200xi64>
  %nd = tensor.dim %weight, %c1 : tensor<1000x64xf32>
  %e = tensor.empty() : tensor<16x64xf32>
  %init = linalg.fill ins(%zero : f32) outs(%e : tensor<16x64xf32>) -> tensor<16x64xf32>
  %r = linalg.generic {indexing_maps = [#map_i, #map_o, #map_out], iterator_types = ["parallel", "reduction", "parallel"]}
      ins(%indices, %offsets : tensor<200xi64>, tensor<16xi64>) outs(%init : tensor<16x64xf32>) {
  ^bb0(%idx: i64, %off: i64, %acc: f32):
    %i = linalg.index 0 : index
    %i64 = arith.index_cast %i : index to i64
    %one = arith.constant 1 : i64
    %ip1 = arith.addi %i64, %one : i64
    %ip1x = arith.index_cast %ip1 : i64 to index
    %next = tensor.extract %offsets[%ip1x] : tensor<16xi64>
    %j = linalg.index 1 : index
    %j64 = arith.index_cast %j : index to i64
    %lt = arith.cmpi slt, %off, %j64 : i64
    %eq = arith.cmpi eq, %off, %j64 : i64
    %le = arith.ori %lt, %eq : i1
    %below = arith.cmpi slt, %j64, %next : i64
    %in = arith.andi %le, %below : i1
    %row = arith.index_cast %idx : i64 to index
    %k = linalg.index 2 : index
    %w = tensor.extract %weight[%row, %k] : tensor<1000x64xf32>
    %add = arith.addf %w, %acc : f32
    %sel = arith.select %in, %add, %acc : f32
    linalg.yield %sel : f32
  } -> tensor<16x64xf32>
  return %r : tensor<16x64xf32>
}

// -----

// 32-bit offsets, compared with a position cast to 32 bits (which would
// wrap past 2^31 indices): kept.
// CHECK-LABEL: func.func @bag_i32_offsets_stays
// CHECK-NOT:     scf.forall
// CHECK:         linalg.generic
#map_i = affine_map<(d0, d1, d2) -> (d1)>
#map_o = affine_map<(d0, d1, d2) -> (d0)>
#map_out = affine_map<(d0, d1, d2) -> (d0, d2)>
func.func @bag_i32_offsets_stays(%weight: tensor<1000x64xf32>, %indices: tensor<200xi64>, %offsets: tensor<16xi32>) -> tensor<16x64xf32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %zero = arith.constant 0.0 : f32
  %nb = tensor.dim %offsets, %c0 : tensor<16xi32>
  %nn = tensor.dim %indices, %c0 : tensor<200xi64>
  %nd = tensor.dim %weight, %c1 : tensor<1000x64xf32>
  %e = tensor.empty() : tensor<16x64xf32>
  %init = linalg.fill ins(%zero : f32) outs(%e : tensor<16x64xf32>) -> tensor<16x64xf32>
  %r = linalg.generic {indexing_maps = [#map_i, #map_o, #map_out], iterator_types = ["parallel", "reduction", "parallel"]}
      ins(%indices, %offsets : tensor<200xi64>, tensor<16xi32>) outs(%init : tensor<16x64xf32>) {
  ^bb0(%idx: i64, %off: i32, %acc: f32):
    %i = linalg.index 0 : index
    %i64 = arith.index_cast %i : index to i32
    %one = arith.constant 1 : i32
    %ip1 = arith.addi %i64, %one : i32
    %ip1x = arith.index_cast %ip1 : i32 to index
    %len64 = arith.index_cast %nb : index to i32
    %last = arith.cmpi eq, %len64, %ip1 : i32
    %n64 = arith.index_cast %nn : index to i32
    %nxt = tensor.extract %offsets[%ip1x] : tensor<16xi32>
    %next = arith.select %last, %n64, %nxt : i32
    %j = linalg.index 1 : index
    %j64 = arith.index_cast %j : index to i32
    %lt = arith.cmpi slt, %off, %j64 : i32
    %eq = arith.cmpi eq, %off, %j64 : i32
    %le = arith.ori %lt, %eq : i1
    %below = arith.cmpi slt, %j64, %next : i32
    %in = arith.andi %le, %below : i1
    %row = arith.index_cast %idx : i64 to index
    %k = linalg.index 2 : index
    %w = tensor.extract %weight[%row, %k] : tensor<1000x64xf32>
    %add = arith.addf %w, %acc : f32
    %sel = arith.select %in, %add, %acc : f32
    linalg.yield %sel : f32
  } -> tensor<16x64xf32>
  return %r : tensor<16x64xf32>
}

// -----

// A product, not a sum: kept.
// CHECK-LABEL: func.func @bag_product_stays
// CHECK-NOT:     scf.forall
// CHECK:         linalg.generic
#map_i = affine_map<(d0, d1, d2) -> (d1)>
#map_o = affine_map<(d0, d1, d2) -> (d0)>
#map_out = affine_map<(d0, d1, d2) -> (d0, d2)>
func.func @bag_product_stays(%weight: tensor<1000x64xf32>, %indices: tensor<200xi64>, %offsets: tensor<16xi64>) -> tensor<16x64xf32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %zero = arith.constant 0.0 : f32
  %nb = tensor.dim %offsets, %c0 : tensor<16xi64>
  %nn = tensor.dim %indices, %c0 : tensor<200xi64>
  %nd = tensor.dim %weight, %c1 : tensor<1000x64xf32>
  %e = tensor.empty() : tensor<16x64xf32>
  %init = linalg.fill ins(%zero : f32) outs(%e : tensor<16x64xf32>) -> tensor<16x64xf32>
  %r = linalg.generic {indexing_maps = [#map_i, #map_o, #map_out], iterator_types = ["parallel", "reduction", "parallel"]}
      ins(%indices, %offsets : tensor<200xi64>, tensor<16xi64>) outs(%init : tensor<16x64xf32>) {
  ^bb0(%idx: i64, %off: i64, %acc: f32):
    %i = linalg.index 0 : index
    %i64 = arith.index_cast %i : index to i64
    %one = arith.constant 1 : i64
    %ip1 = arith.addi %i64, %one : i64
    %ip1x = arith.index_cast %ip1 : i64 to index
    %len64 = arith.index_cast %nb : index to i64
    %last = arith.cmpi eq, %len64, %ip1 : i64
    %n64 = arith.index_cast %nn : index to i64
    %nxt = tensor.extract %offsets[%ip1x] : tensor<16xi64>
    %next = arith.select %last, %n64, %nxt : i64
    %j = linalg.index 1 : index
    %j64 = arith.index_cast %j : index to i64
    %lt = arith.cmpi slt, %off, %j64 : i64
    %eq = arith.cmpi eq, %off, %j64 : i64
    %le = arith.ori %lt, %eq : i1
    %below = arith.cmpi slt, %j64, %next : i64
    %in = arith.andi %le, %below : i1
    %row = arith.index_cast %idx : i64 to index
    %k = linalg.index 2 : index
    %w = tensor.extract %weight[%row, %k] : tensor<1000x64xf32>
    %add = arith.mulf %w, %acc : f32
    %sel = arith.select %in, %add, %acc : f32
    linalg.yield %sel : f32
  } -> tensor<16x64xf32>
  return %r : tensor<16x64xf32>
}

// -----

// The sum taken where the index is outside the bag: kept.
// CHECK-LABEL: func.func @bag_select_of_the_sum_stays
// CHECK-NOT:     scf.forall
// CHECK:         linalg.generic
#map_i = affine_map<(d0, d1, d2) -> (d1)>
#map_o = affine_map<(d0, d1, d2) -> (d0)>
#map_out = affine_map<(d0, d1, d2) -> (d0, d2)>
func.func @bag_select_of_the_sum_stays(%weight: tensor<1000x64xf32>, %indices: tensor<200xi64>, %offsets: tensor<16xi64>) -> tensor<16x64xf32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %zero = arith.constant 0.0 : f32
  %nb = tensor.dim %offsets, %c0 : tensor<16xi64>
  %nn = tensor.dim %indices, %c0 : tensor<200xi64>
  %nd = tensor.dim %weight, %c1 : tensor<1000x64xf32>
  %e = tensor.empty() : tensor<16x64xf32>
  %init = linalg.fill ins(%zero : f32) outs(%e : tensor<16x64xf32>) -> tensor<16x64xf32>
  %r = linalg.generic {indexing_maps = [#map_i, #map_o, #map_out], iterator_types = ["parallel", "reduction", "parallel"]}
      ins(%indices, %offsets : tensor<200xi64>, tensor<16xi64>) outs(%init : tensor<16x64xf32>) {
  ^bb0(%idx: i64, %off: i64, %acc: f32):
    %i = linalg.index 0 : index
    %i64 = arith.index_cast %i : index to i64
    %one = arith.constant 1 : i64
    %ip1 = arith.addi %i64, %one : i64
    %ip1x = arith.index_cast %ip1 : i64 to index
    %len64 = arith.index_cast %nb : index to i64
    %last = arith.cmpi eq, %len64, %ip1 : i64
    %n64 = arith.index_cast %nn : index to i64
    %nxt = tensor.extract %offsets[%ip1x] : tensor<16xi64>
    %next = arith.select %last, %n64, %nxt : i64
    %j = linalg.index 1 : index
    %j64 = arith.index_cast %j : index to i64
    %lt = arith.cmpi slt, %off, %j64 : i64
    %eq = arith.cmpi eq, %off, %j64 : i64
    %le = arith.ori %lt, %eq : i1
    %below = arith.cmpi slt, %j64, %next : i64
    %in = arith.andi %le, %below : i1
    %row = arith.index_cast %idx : i64 to index
    %k = linalg.index 2 : index
    %w = tensor.extract %weight[%row, %k] : tensor<1000x64xf32>
    %add = arith.addf %w, %acc : f32
    %sel = arith.select %in, %acc, %add : f32
    linalg.yield %sel : f32
  } -> tensor<16x64xf32>
  return %r : tensor<16x64xf32>
}

// -----

// The position cast as unsigned: kept.
// CHECK-LABEL: func.func @bag_unsigned_position_stays
// CHECK-NOT:     scf.forall
// CHECK:         linalg.generic
#map_i = affine_map<(d0, d1, d2) -> (d1)>
#map_o = affine_map<(d0, d1, d2) -> (d0)>
#map_out = affine_map<(d0, d1, d2) -> (d0, d2)>
func.func @bag_unsigned_position_stays(%weight: tensor<1000x64xf32>, %indices: tensor<200xi64>, %offsets: tensor<16xi64>) -> tensor<16x64xf32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %zero = arith.constant 0.0 : f32
  %nb = tensor.dim %offsets, %c0 : tensor<16xi64>
  %nn = tensor.dim %indices, %c0 : tensor<200xi64>
  %nd = tensor.dim %weight, %c1 : tensor<1000x64xf32>
  %e = tensor.empty() : tensor<16x64xf32>
  %init = linalg.fill ins(%zero : f32) outs(%e : tensor<16x64xf32>) -> tensor<16x64xf32>
  %r = linalg.generic {indexing_maps = [#map_i, #map_o, #map_out], iterator_types = ["parallel", "reduction", "parallel"]}
      ins(%indices, %offsets : tensor<200xi64>, tensor<16xi64>) outs(%init : tensor<16x64xf32>) {
  ^bb0(%idx: i64, %off: i64, %acc: f32):
    %i = linalg.index 0 : index
    %i64 = arith.index_cast %i : index to i64
    %one = arith.constant 1 : i64
    %ip1 = arith.addi %i64, %one : i64
    %ip1x = arith.index_cast %ip1 : i64 to index
    %len64 = arith.index_cast %nb : index to i64
    %last = arith.cmpi eq, %len64, %ip1 : i64
    %n64 = arith.index_cast %nn : index to i64
    %nxt = tensor.extract %offsets[%ip1x] : tensor<16xi64>
    %next = arith.select %last, %n64, %nxt : i64
    %j = linalg.index 1 : index
    %j64 = arith.index_castui %j : index to i64
    %lt = arith.cmpi slt, %off, %j64 : i64
    %eq = arith.cmpi eq, %off, %j64 : i64
    %le = arith.ori %lt, %eq : i1
    %below = arith.cmpi slt, %j64, %next : i64
    %in = arith.andi %le, %below : i1
    %row = arith.index_cast %idx : i64 to index
    %k = linalg.index 2 : index
    %w = tensor.extract %weight[%row, %k] : tensor<1000x64xf32>
    %add = arith.addf %w, %acc : f32
    %sel = arith.select %in, %add, %acc : f32
    linalg.yield %sel : f32
  } -> tensor<16x64xf32>
  return %r : tensor<16x64xf32>
}

// -----

// One bag, canonicalized as a frontend's output is: its index is 0 and the
// select of the next offset folded to the number of indices (the one bag is
// the last).
// CHECK-LABEL: func.func @one_bag_canonicalized
// CHECK:         scf.forall (%{{.*}}) in (1)
// CHECK:           gather.block
// CHECK:           linalg.reduce
// CHECK-NOT:     linalg.generic
#map_i = affine_map<(d0, d1, d2) -> (d1)>
#map_o = affine_map<(d0, d1, d2) -> (d0)>
#map_out = affine_map<(d0, d1, d2) -> (d0, d2)>
func.func @one_bag_canonicalized(%weight: tensor<1000x64xf32>, %indices: tensor<35xi64>, %offsets: tensor<1xi64>) -> tensor<1x64xf32> {
  %c35 = arith.constant 35 : i64
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<1x64xf32>
  %init = linalg.fill ins(%zero : f32) outs(%e : tensor<1x64xf32>) -> tensor<1x64xf32>
  %r = linalg.generic {indexing_maps = [#map_i, #map_o, #map_out], iterator_types = ["parallel", "reduction", "parallel"]}
      ins(%indices, %offsets : tensor<35xi64>, tensor<1xi64>) outs(%init : tensor<1x64xf32>) {
  ^bb0(%idx: i64, %off: i64, %acc: f32):
    %j = linalg.index 1 : index
    %j64 = arith.index_cast %j : index to i64
    %le = arith.cmpi sge, %j64, %off : i64
    %below = arith.cmpi slt, %j64, %c35 : i64
    %in = arith.andi %below, %le : i1
    %row = arith.index_cast %idx : i64 to index
    %k = linalg.index 2 : index
    %w = tensor.extract %weight[%row, %k] : tensor<1000x64xf32>
    %add = arith.addf %w, %acc : f32
    %sel = arith.select %in, %add, %acc : f32
    linalg.yield %sel : f32
  } -> tensor<1x64xf32>
  return %r : tensor<1x64xf32>
}

// -----

// One index, canonicalized: its position is 0 and the bags' index plus 1 is
// still read.
// CHECK-LABEL: func.func @one_index_canonicalized
// CHECK:         scf.forall (%{{.*}}) in (7)
// CHECK:           gather.block
// CHECK-NOT:     linalg.generic
#map_i = affine_map<(d0, d1, d2) -> (d1)>
#map_o = affine_map<(d0, d1, d2) -> (d0)>
#map_out = affine_map<(d0, d1, d2) -> (d0, d2)>
func.func @one_index_canonicalized(%weight: tensor<2x39xf32>, %indices: tensor<1xi64>, %offsets: tensor<7xi64>) -> tensor<7x39xf32> {
  %c0 = arith.constant 0 : i64
  %c1 = arith.constant 1 : i64
  %c7 = arith.constant 7 : i64
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<7x39xf32>
  %init = linalg.fill ins(%zero : f32) outs(%e : tensor<7x39xf32>) -> tensor<7x39xf32>
  %r = linalg.generic {indexing_maps = [#map_i, #map_o, #map_out], iterator_types = ["parallel", "reduction", "parallel"]}
      ins(%indices, %offsets : tensor<1xi64>, tensor<7xi64>) outs(%init : tensor<7x39xf32>) {
  ^bb0(%idx: i64, %off: i64, %acc: f32):
    %i = linalg.index 0 : index
    %i64 = arith.index_cast %i : index to i64
    %ip1 = arith.addi %i64, %c1 : i64
    %ip1x = arith.index_cast %ip1 : i64 to index
    %last = arith.cmpi eq, %ip1, %c7 : i64
    %nxt = tensor.extract %offsets[%ip1x] : tensor<7xi64>
    %next = arith.select %last, %c1, %nxt : i64
    %lt = arith.cmpi slt, %off, %c0 : i64
    %eq = arith.cmpi eq, %off, %c0 : i64
    %le = arith.ori %lt, %eq : i1
    %below = arith.cmpi sgt, %next, %c0 : i64
    %in = arith.andi %le, %below : i1
    %row = arith.index_cast %idx : i64 to index
    %k = linalg.index 2 : index
    %w = tensor.extract %weight[%row, %k] : tensor<2x39xf32>
    %add = arith.addf %w, %acc : f32
    %sel = arith.select %in, %add, %acc : f32
    linalg.yield %sel : f32
  } -> tensor<7x39xf32>
  return %r : tensor<7x39xf32>
}

// -----

// A destination whose rows are not proved to be the bags (its size from
// another argument): the CPU's loop takes the fewer; the GPU's form, whose
// loop nest runs over the destination's rows, leaves the generic.
// CHECK-LABEL: func.func @bag_rows_not_proved_bags_stay_in_rows_form
// CHECK:         arith.minui
// CHECK:         scf.forall
// GPUFORM-LABEL: func.func @bag_rows_not_proved_bags_stay_in_rows_form
// GPUFORM-NOT:     gather.block
// GPUFORM:         linalg.generic
// GPUFORM-SAME:      iterator_types = ["parallel", "reduction", "parallel"]
#map_i = affine_map<(d0, d1, d2) -> (d1)>
#map_o = affine_map<(d0, d1, d2) -> (d0)>
#map_out = affine_map<(d0, d1, d2) -> (d0, d2)>
func.func @bag_rows_not_proved_bags_stay_in_rows_form(%weight: tensor<?x?xf32>, %indices: tensor<?xi64>, %offsets: tensor<?xi64>, %rows: index) -> tensor<?x?xf32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %zero = arith.constant 0.0 : f32
  %nb = tensor.dim %offsets, %c0 : tensor<?xi64>
  %nn = tensor.dim %indices, %c0 : tensor<?xi64>
  %nd = tensor.dim %weight, %c1 : tensor<?x?xf32>
  %e = tensor.empty(%rows, %nd) : tensor<?x?xf32>
  %init = linalg.fill ins(%zero : f32) outs(%e : tensor<?x?xf32>) -> tensor<?x?xf32>
  %r = linalg.generic {indexing_maps = [#map_i, #map_o, #map_out], iterator_types = ["parallel", "reduction", "parallel"]}
      ins(%indices, %offsets : tensor<?xi64>, tensor<?xi64>) outs(%init : tensor<?x?xf32>) {
  ^bb0(%idx: i64, %off: i64, %acc: f32):
    %i = linalg.index 0 : index
    %i64 = arith.index_cast %i : index to i64
    %one = arith.constant 1 : i64
    %ip1 = arith.addi %i64, %one : i64
    %ip1x = arith.index_cast %ip1 : i64 to index
    %len64 = arith.index_cast %nb : index to i64
    %last = arith.cmpi eq, %len64, %ip1 : i64
    %n64 = arith.index_cast %nn : index to i64
    %nxt = tensor.extract %offsets[%ip1x] : tensor<?xi64>
    %next = arith.select %last, %n64, %nxt : i64
    %j = linalg.index 1 : index
    %j64 = arith.index_cast %j : index to i64
    %lt = arith.cmpi slt, %off, %j64 : i64
    %eq = arith.cmpi eq, %off, %j64 : i64
    %le = arith.ori %lt, %eq : i1
    %below = arith.cmpi slt, %j64, %next : i64
    %in = arith.andi %le, %below : i1
    %row = arith.index_cast %idx : i64 to index
    %k = linalg.index 2 : index
    %w = tensor.extract %weight[%row, %k] : tensor<?x?xf32>
    %add = arith.addf %w, %acc : f32
    %sel = arith.select %in, %add, %acc : f32
    linalg.yield %sel : f32
  } -> tensor<?x?xf32>
  return %r : tensor<?x?xf32>
}
