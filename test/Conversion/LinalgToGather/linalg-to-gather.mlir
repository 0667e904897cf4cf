// RUN: gather-opt %s --convert-linalg-to-gather --split-input-file | FileCheck %s
// RUN: gather-opt %s --convert-linalg-to-gather=plain-reads=unchecked --split-input-file | FileCheck %s --check-prefix=UNCHECKED
// The split of a body that gathers and computes fuses again.
// RUN: gather-opt %s --pass-pipeline="builtin.module(func.func(convert-linalg-to-gather,gather-fuse-consumers))" --split-input-file | FileCheck %s --check-prefix=FUSED
// The plugin registers the pass in upstream's mlir-opt.
// RUN: %mlir_opt --load-dialect-plugin=%gather_lib/GatherPlugin.so --load-pass-plugin=%gather_lib/GatherPlugin.so %s --pass-pipeline="builtin.module(func.func(convert-linalg-to-gather))" --split-input-file | FileCheck %s

// The forms written after what frontends emit (torch-mlir's TorchToLinalg
// for embedding, index_select and gather; StableHLO's gather lowering as
// IREE's tests show it), each raised to the gather op that expresses it
// with the destination the generic had.

// Embedding (torch-mlir aten.embedding): the indices' map is the leading
// loops, the table read at [index, linalg.index 2]. A plain read: an
// out-of-range index is undefined there, checked here (error) unless asked.
// CHECK-LABEL: func.func @embedding
// CHECK-SAME:    %[[W:[^:]*]]: tensor<50000x768xf32>, %[[IDS:[^:]*]]: tensor<?x?xi64>
// CHECK:         %[[INIT:.*]] = tensor.empty(%{{.*}}, %{{.*}}) : tensor<?x?x768xf32>
// CHECK:         %[[R:.*]] = gather.block %[[W]][%[[IDS]]] axis = 0 negative_indices = out_of_bounds into %[[INIT]] : tensor<50000x768xf32>, tensor<?x?xi64> into tensor<?x?x768xf32>
// CHECK:         return %[[R]]
// CHECK-NOT:     linalg.generic
// UNCHECKED-LABEL: func.func @embedding
// UNCHECKED:       gather.block {{.*}} axis = 0 negative_indices = out_of_bounds out_of_bounds = unchecked into
#map_i = affine_map<(d0, d1, d2) -> (d0, d1)>
#map_o = affine_map<(d0, d1, d2) -> (d0, d1, d2)>
func.func @embedding(%weight: tensor<50000x768xf32>, %ids: tensor<?x?xi64>) -> tensor<?x?x768xf32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %b = tensor.dim %ids, %c0 : tensor<?x?xi64>
  %s = tensor.dim %ids, %c1 : tensor<?x?xi64>
  %init = tensor.empty(%b, %s) : tensor<?x?x768xf32>
  %r = linalg.generic {indexing_maps = [#map_i, #map_o], iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%ids : tensor<?x?xi64>) outs(%init : tensor<?x?x768xf32>) {
  ^bb0(%in: i64, %out: f32):
    %i = arith.index_cast %in : i64 to index
    %j = linalg.index 2 : index
    %v = tensor.extract %weight[%i, %j] : tensor<50000x768xf32>
    linalg.yield %v : f32
  } -> tensor<?x?x768xf32>
  return %r : tensor<?x?x768xf32>
}

// -----

// Embedding as torch-mlir emits it today: the body also asserts that the
// index is in range (`slt` the table's size, `sge` 0, each cast again).
// The gather op's `error` reports what the asserts stop on, so they go;
// with plain-reads=unchecked too (the source defines the out-of-range case).
// CHECK-LABEL: func.func @embedding_asserted
// CHECK-SAME:    %[[W:[^:]*]]: tensor<50000x768xf32>, %[[IDS:[^:]*]]: tensor<4x7xi64>
// CHECK:         gather.block %[[W]][%[[IDS]]] axis = 0 negative_indices = out_of_bounds into %{{.*}} : tensor<50000x768xf32>, tensor<4x7xi64> into tensor<4x7x768xf32>
// CHECK-NOT:     cf.assert
// CHECK-NOT:     linalg.generic
// UNCHECKED-LABEL: func.func @embedding_asserted
// UNCHECKED:       gather.block {{.*}} axis = 0 negative_indices = out_of_bounds into
#map_i = affine_map<(d0, d1, d2) -> (d0, d1)>
#map_o = affine_map<(d0, d1, d2) -> (d0, d1, d2)>
func.func @embedding_asserted(%weight: tensor<50000x768xf32>, %ids: tensor<4x7xi64>) -> tensor<4x7x768xf32> {
  %init = tensor.empty() : tensor<4x7x768xf32>
  %r = linalg.generic {indexing_maps = [#map_i, #map_o], iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%ids : tensor<4x7xi64>) outs(%init : tensor<4x7x768xf32>) {
  ^bb0(%in: i64, %out: f32):
    %0 = arith.index_cast %in : i64 to index
    %1 = linalg.index 2 : index
    %2 = arith.index_cast %in : i64 to index
    %c50000 = arith.constant 50000 : index
    %3 = arith.cmpi slt, %2, %c50000 : index
    cf.assert %3, "index must be smaller than dim size"
    %c0_i64 = arith.constant 0 : i64
    %4 = arith.cmpi sge, %in, %c0_i64 : i64
    cf.assert %4, "index must be larger or equal to 0"
    %5 = tensor.extract %weight[%0, %1] : tensor<50000x768xf32>
    linalg.yield %5 : f32
  } -> tensor<4x7x768xf32>
  return %r : tensor<4x7x768xf32>
}

// -----

// torch.gather as torch-mlir emits it, sizes dynamic: the upper bound is
// tensor.dim of the table in the body; bounds written either way round
// (`size sgt x`, `x sgt -1`) and as one `ult` count as well.
// CHECK-LABEL: func.func @torch_gather_asserted_dynamic
// CHECK:         gather.elements %{{.*}}[%{{.*}}] axis = 1 negative_indices = out_of_bounds into %{{.*}} : tensor<?x?xf32>, tensor<?x?xi64> into tensor<?x?xf32>
// CHECK-NOT:     cf.assert
#map = affine_map<(d0, d1) -> (d0, d1)>
func.func @torch_gather_asserted_dynamic(%d: tensor<?x?xf32>, %idx: tensor<?x?xi64>, %e: tensor<?x?xf32>) -> tensor<?x?xf32> {
  %r = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel"]}
      ins(%idx : tensor<?x?xi64>) outs(%e : tensor<?x?xf32>) {
  ^bb0(%in: i64, %out: f32):
    %i0 = linalg.index 0 : index
    %x = arith.index_cast %in : i64 to index
    %c1 = arith.constant 1 : index
    %size = tensor.dim %d, %c1 : tensor<?x?xf32>
    %lt = arith.cmpi sgt, %size, %x : index
    cf.assert %lt, "index must be smaller than dim size"
    %m1 = arith.constant -1 : i64
    %ge = arith.cmpi sgt, %in, %m1 : i64
    cf.assert %ge, "index must be larger or equal to 0"
    %in_range = arith.cmpi ult, %x, %size : index
    cf.assert %in_range, "index in range"
    %v = tensor.extract %d[%i0, %x] : tensor<?x?xf32>
    linalg.yield %v : f32
  } -> tensor<?x?xf32>
  return %r : tensor<?x?xf32>
}

// -----

// An assert that tests anything but a bound of the index read keeps the
// generic: here a bound other than the table's size, a wrapped read
// (asserts and idioms together are no form a frontend writes), and an
// unsigned read (the assert tests the value as signed).
// CHECK-LABEL: func.func @assert_not_a_bound_stays
// CHECK-COUNT-3: cf.assert
// CHECK-NOT:     gather.
#map = affine_map<(d0, d1) -> (d0, d1)>
func.func @assert_not_a_bound_stays(%d: tensor<9x100xf32>, %idx: tensor<9x4xi64>, %u: tensor<9x4xi32>, %e: tensor<9x4xf32>) -> (tensor<9x4xf32>, tensor<9x4xf32>, tensor<9x4xf32>) {
  %r0 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel"]}
      ins(%idx : tensor<9x4xi64>) outs(%e : tensor<9x4xf32>) {
  ^bb0(%in: i64, %out: f32):
    %i0 = linalg.index 0 : index
    %x = arith.index_cast %in : i64 to index
    %c10 = arith.constant 10 : index
    %lt = arith.cmpi slt, %x, %c10 : index
    cf.assert %lt, "index below 10"
    %v = tensor.extract %d[%i0, %x] : tensor<9x100xf32>
    linalg.yield %v : f32
  } -> tensor<9x4xf32>
  %r1 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel"]}
      ins(%idx : tensor<9x4xi64>) outs(%e : tensor<9x4xf32>) {
  ^bb0(%in: i64, %out: f32):
    %i0 = linalg.index 0 : index
    %c0 = arith.constant 0 : i64
    %c100 = arith.constant 100 : i64
    %neg = arith.cmpi slt, %in, %c0 : i64
    %plus = arith.addi %in, %c100 : i64
    %w = arith.select %neg, %plus, %in : i64
    %lt = arith.cmpi slt, %in, %c100 : i64
    cf.assert %lt, "index must be smaller than dim size"
    %x = arith.index_cast %w : i64 to index
    %v = tensor.extract %d[%i0, %x] : tensor<9x100xf32>
    linalg.yield %v : f32
  } -> tensor<9x4xf32>
  %r2 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel"]}
      ins(%u : tensor<9x4xi32>) outs(%e : tensor<9x4xf32>) {
  ^bb0(%in: i32, %out: f32):
    %i0 = linalg.index 0 : index
    %x = arith.index_castui %in : i32 to index
    %c100 = arith.constant 100 : index
    %lt = arith.cmpi slt, %x, %c100 : index
    cf.assert %lt, "index must be smaller than dim size"
    %v = tensor.extract %d[%i0, %x] : tensor<9x100xf32>
    linalg.yield %v : f32
  } -> tensor<9x4xf32>
  return %r0, %r1, %r2 : tensor<9x4xf32>, tensor<9x4xf32>, tensor<9x4xf32>
}

// -----

// index_select along dimension 1 with i32 indices and the negative wrap
// torch emits (x < 0 ? x + size : x, in i32 before the cast): a block
// gather along axis 1 that wraps negative indices.
// CHECK-LABEL: func.func @index_select_wrap
// CHECK-SAME:    %[[T:[^:]*]]: tensor<8x1000x4xf32>, %[[I:[^:]*]]: tensor<500xi32>
// CHECK:         gather.block %[[T]][%[[I]]] axis = 1 into %{{.*}} : tensor<8x1000x4xf32>, tensor<500xi32> into tensor<8x500x4xf32>
// CHECK-NOT:     linalg.generic
#map_i = affine_map<(d0, d1, d2) -> (d1)>
#map_o = affine_map<(d0, d1, d2) -> (d0, d1, d2)>
func.func @index_select_wrap(%t: tensor<8x1000x4xf32>, %idx: tensor<500xi32>) -> tensor<8x500x4xf32> {
  %init = tensor.empty() : tensor<8x500x4xf32>
  %r = linalg.generic {indexing_maps = [#map_i, #map_o], iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%idx : tensor<500xi32>) outs(%init : tensor<8x500x4xf32>) {
  ^bb0(%in: i32, %out: f32):
    %c0_i32 = arith.constant 0 : i32
    %size = arith.constant 1000 : i32
    %neg = arith.cmpi slt, %in, %c0_i32 : i32
    %plus = arith.addi %in, %size : i32
    %w = arith.select %neg, %plus, %in : i32
    %x = arith.index_cast %w : i32 to index
    %i0 = linalg.index 0 : index
    %i2 = linalg.index 2 : index
    %v = tensor.extract %t[%i0, %x, %i2] : tensor<8x1000x4xf32>
    linalg.yield %v : f32
  } -> tensor<8x500x4xf32>
  return %r : tensor<8x500x4xf32>
}

// -----

// torch.gather / take_along_axis (aten.gather): the indices' map is the
// identity, every other table position its own loop: gather.elements; the
// data may be larger than the indices off the axis, as torch allows.
// CHECK-LABEL: func.func @torch_gather
// CHECK-SAME:    %[[D:[^:]*]]: tensor<4096x4096xf32>, %[[I:[^:]*]]: tensor<4096x1024xi64>, %[[E:[^:]*]]: tensor<4096x1024xf32>
// CHECK:         %[[R:.*]] = gather.elements %[[D]][%[[I]]] axis = 1 negative_indices = out_of_bounds into %[[E]]
// CHECK:         return %[[R]]
#map = affine_map<(d0, d1) -> (d0, d1)>
func.func @torch_gather(%d: tensor<4096x4096xf32>, %idx: tensor<4096x1024xi64>, %e: tensor<4096x1024xf32>) -> tensor<4096x1024xf32> {
  %r = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel"]}
      ins(%idx : tensor<4096x1024xi64>) outs(%e : tensor<4096x1024xf32>) {
  ^bb0(%in: i64, %out: f32):
    %i0 = linalg.index 0 : index
    %x = arith.index_cast %in : i64 to index
    %v = tensor.extract %d[%i0, %x] : tensor<4096x4096xf32>
    linalg.yield %v : f32
  } -> tensor<4096x1024xf32>
  return %r : tensor<4096x1024xf32>
}

// -----

// The same with dynamic sizes, i8 indices sign-extended before the cast
// and a wrap on index values: elements along axis 0, wrapping.
// CHECK-LABEL: func.func @take_along_axis_dynamic_i8
// CHECK:         gather.elements %{{.*}}[%{{.*}}] axis = 0 into %{{.*}} : tensor<?x?xf16>, tensor<?x?xi8> into tensor<?x?xf16>
#map = affine_map<(d0, d1) -> (d0, d1)>
func.func @take_along_axis_dynamic_i8(%d: tensor<?x?xf16>, %idx: tensor<?x?xi8>, %e: tensor<?x?xf16>) -> tensor<?x?xf16> {
  %c0 = arith.constant 0 : index
  %n = tensor.dim %d, %c0 : tensor<?x?xf16>
  %r = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel"]}
      ins(%idx : tensor<?x?xi8>) outs(%e : tensor<?x?xf16>) {
  ^bb0(%in: i8, %out: f16):
    %wide = arith.extsi %in : i8 to i64
    %x = arith.index_cast %wide : i64 to index
    %zero = arith.constant 0 : index
    %neg = arith.cmpi slt, %x, %zero : index
    %plus = arith.addi %x, %n : index
    %w = arith.select %neg, %plus, %x : index
    %i1 = linalg.index 1 : index
    %v = tensor.extract %d[%w, %i1] : tensor<?x?xf16>
    linalg.yield %v : f16
  } -> tensor<?x?xf16>
  return %r : tensor<?x?xf16>
}

// -----

// StableHLO's gather lowering (collapsed_slice_dims = [0, 1],
// start_index_map = [0, 1], index_vector_dim = 2, offset_dims = [2]): no
// input, the coordinates read from the trailing index dimension in the
// body, each clamped to [0, size - 1]: gather.nd with `clamp`.
// CHECK-LABEL: func.func @stablehlo_gather
// CHECK-SAME:    %[[OP:[^:]*]]: tensor<1x4x8xi32>, %[[SI:[^:]*]]: tensor<1x8x2xi32>
// CHECK:         %[[INIT:.*]] = tensor.empty() : tensor<1x8x8xi32>
// CHECK:         gather.nd %[[OP]][%[[SI]]] negative_indices = out_of_bounds out_of_bounds = clamp into %[[INIT]] : tensor<1x4x8xi32>, tensor<1x8x2xi32> into tensor<1x8x8xi32>
#map = affine_map<(d0, d1, d2) -> (d0, d1, d2)>
func.func @stablehlo_gather(%operand: tensor<1x4x8xi32>, %start_indices: tensor<1x8x2xi32>) -> tensor<1x8x8xi32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c3 = arith.constant 3 : index
  %init = tensor.empty() : tensor<1x8x8xi32>
  %r = linalg.generic {indexing_maps = [#map], iterator_types = ["parallel", "parallel", "parallel"]}
      outs(%init : tensor<1x8x8xi32>) {
  ^bb0(%out: i32):
    %i0 = linalg.index 0 : index
    %i1 = linalg.index 1 : index
    %i2 = linalg.index 2 : index
    %s0i = tensor.extract %start_indices[%i0, %i1, %c0] : tensor<1x8x2xi32>
    %s0 = arith.index_cast %s0i : i32 to index
    %s1i = tensor.extract %start_indices[%i0, %i1, %c1] : tensor<1x8x2xi32>
    %s1 = arith.index_cast %s1i : i32 to index
    %lo0 = arith.maxsi %s0, %c0 : index
    %in0 = arith.minsi %lo0, %c0 : index
    %lo1 = arith.maxsi %s1, %c0 : index
    %in1 = arith.minsi %lo1, %c3 : index
    %y = tensor.extract %operand[%in0, %in1, %i2] : tensor<1x4x8xi32>
    linalg.yield %y : i32
  } -> tensor<1x8x8xi32>
  return %r : tensor<1x8x8xi32>
}

// -----

// The StableHLO gather above as it is after canonicalization, which folds
// `linalg.index` of a loop of size 1 to 0: the batch of one is read at 0 in
// the indices, and the table's dimension of size 1 at 0 too (clamped to
// [0, 0]). Positions 0 on loops of size 1 follow those loops.
// CHECK-LABEL: func.func @stablehlo_gather_canonicalized
// CHECK:         gather.nd %{{.*}}[%{{.*}}] negative_indices = out_of_bounds out_of_bounds = clamp into %{{.*}} : tensor<1x4x8xi32>, tensor<1x8x2xi32> into tensor<1x8x8xi32>
// CHECK-NOT:     linalg.generic
#map = affine_map<(d0, d1, d2) -> (d0, d1, d2)>
func.func @stablehlo_gather_canonicalized(%operand: tensor<1x4x8xi32>, %start_indices: tensor<1x8x2xi32>) -> tensor<1x8x8xi32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c3 = arith.constant 3 : index
  %init = tensor.empty() : tensor<1x8x8xi32>
  %r = linalg.generic {indexing_maps = [#map], iterator_types = ["parallel", "parallel", "parallel"]}
      outs(%init : tensor<1x8x8xi32>) {
  ^bb0(%out: i32):
    %i1 = linalg.index 1 : index
    %i2 = linalg.index 2 : index
    %s0i = tensor.extract %start_indices[%c0, %i1, %c0] : tensor<1x8x2xi32>
    %s0 = arith.index_cast %s0i : i32 to index
    %s1i = tensor.extract %start_indices[%c0, %i1, %c1] : tensor<1x8x2xi32>
    %s1 = arith.index_cast %s1i : i32 to index
    %lo0 = arith.maxsi %s0, %c0 : index
    %in0 = arith.minsi %lo0, %c0 : index
    %lo1 = arith.maxsi %s1, %c0 : index
    %in1 = arith.minsi %lo1, %c3 : index
    %y = tensor.extract %operand[%in0, %in1, %i2] : tensor<1x4x8xi32>
    linalg.yield %y : i32
  } -> tensor<1x8x8xi32>
  return %r : tensor<1x8x8xi32>
}

// -----

// index_select on a batch of one after canonicalization: the table's
// dimension 0 is read at 0, its loop of size 1 known from the output (the
// table, larger there, is cut to the row read); a block gather. In the
// second generic the loop of size 1 is known from the bias operand only
// (the output's size is dynamic).
// CHECK-LABEL: func.func @index_select_batch_of_one
// CHECK-SAME:    %[[T:[^:]*]]: tensor<3x1000x256xf32>
// CHECK:         %[[ROW:.*]] = tensor.extract_slice %[[T]][0, 0, 0] [1, 1000, 256] [1, 1, 1] : tensor<3x1000x256xf32> to tensor<1x1000x256xf32>
// CHECK:         gather.block %[[ROW]][%{{.*}}] axis = 1 negative_indices = out_of_bounds into %{{.*}} : tensor<1x1000x256xf32>, tensor<500xi64> into tensor<1x500x256xf32>
// CHECK:         gather.block %{{.*}}[%{{.*}}] axis = 1 negative_indices = out_of_bounds into %{{.*}} : tensor<?x1000x256xf32>, tensor<500xi64> into tensor<?x500x256xf32>
// CHECK-NOT:     tensor.extract %
#map_i = affine_map<(d0, d1, d2) -> (d1)>
#map_b = affine_map<(d0, d1, d2) -> (d0)>
#map_o = affine_map<(d0, d1, d2) -> (d0, d1, d2)>
func.func @index_select_batch_of_one(%t: tensor<3x1000x256xf32>, %u: tensor<?x1000x256xf32>, %idx: tensor<500xi64>, %bias: tensor<1xf32>, %n: index) -> (tensor<1x500x256xf32>, tensor<?x500x256xf32>) {
  %c0 = arith.constant 0 : index
  %init = tensor.empty() : tensor<1x500x256xf32>
  %r = linalg.generic {indexing_maps = [#map_i, #map_o], iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%idx : tensor<500xi64>) outs(%init : tensor<1x500x256xf32>) {
  ^bb0(%in: i64, %out: f32):
    %x = arith.index_cast %in : i64 to index
    %i2 = linalg.index 2 : index
    %v = tensor.extract %t[%c0, %x, %i2] : tensor<3x1000x256xf32>
    linalg.yield %v : f32
  } -> tensor<1x500x256xf32>
  %init2 = tensor.empty(%n) : tensor<?x500x256xf32>
  %r2 = linalg.generic {indexing_maps = [#map_i, #map_b, #map_o], iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%idx, %bias : tensor<500xi64>, tensor<1xf32>) outs(%init2 : tensor<?x500x256xf32>) {
  ^bb0(%in: i64, %b: f32, %out: f32):
    %x = arith.index_cast %in : i64 to index
    %i2 = linalg.index 2 : index
    %v = tensor.extract %u[%c0, %x, %i2] : tensor<?x1000x256xf32>
    %s = arith.addf %v, %b : f32
    linalg.yield %s : f32
  } -> tensor<?x500x256xf32>
  return %r, %r2 : tensor<1x500x256xf32>, tensor<?x500x256xf32>
}

// -----

// A table read at 0 along a loop that is not of size 1 is a fixed row, no
// gather form: it stays.
// CHECK-LABEL: func.func @row_zero_stays
// CHECK:         linalg.generic
// CHECK-NOT:     gather.
#map_i = affine_map<(d0, d1) -> (d1)>
#map_o = affine_map<(d0, d1) -> (d0, d1)>
func.func @row_zero_stays(%t: tensor<4x100xf32>, %idx: tensor<6xi64>) -> tensor<4x6xf32> {
  %c0 = arith.constant 0 : index
  %init = tensor.empty() : tensor<4x6xf32>
  %r = linalg.generic {indexing_maps = [#map_i, #map_o], iterator_types = ["parallel", "parallel"]}
      ins(%idx : tensor<6xi64>) outs(%init : tensor<4x6xf32>) {
  ^bb0(%in: i64, %out: f32):
    %x = arith.index_cast %in : i64 to index
    %v = tensor.extract %t[%c0, %x] : tensor<4x100xf32>
    linalg.yield %v : f32
  } -> tensor<4x6xf32>
  return %r : tensor<4x6xf32>
}

// -----

// A dynamic StableHLO gather of one coordinate per row (index_vector_dim 1,
// start_index_map [0], the rows whole): the clamp's bound is the run-time
// size minus 1.
// CHECK-LABEL: func.func @stablehlo_gather_dynamic
// CHECK:         gather.nd %{{.*}}[%{{.*}}] negative_indices = out_of_bounds out_of_bounds = clamp into %{{.*}} : tensor<?x?xf32>, tensor<?x1xi64> into tensor<?x?xf32>
#map = affine_map<(d0, d1) -> (d0, d1)>
func.func @stablehlo_gather_dynamic(%operand: tensor<?x?xf32>, %start_indices: tensor<?x1xi64>, %init: tensor<?x?xf32>) -> tensor<?x?xf32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %r = linalg.generic {indexing_maps = [#map], iterator_types = ["parallel", "parallel"]}
      outs(%init : tensor<?x?xf32>) {
  ^bb0(%out: f32):
    %i0 = linalg.index 0 : index
    %i1 = linalg.index 1 : index
    %si = tensor.extract %start_indices[%i0, %c0] : tensor<?x1xi64>
    %s = arith.index_cast %si : i64 to index
    %d0 = tensor.dim %operand, %c0 : tensor<?x?xf32>
    %last = arith.subi %d0, %c1 : index
    %lo = arith.maxsi %s, %c0 : index
    %in0 = arith.minsi %lo, %last : index
    %y = tensor.extract %operand[%in0, %i1] : tensor<?x?xf32>
    linalg.yield %y : f32
  } -> tensor<?x?xf32>
  return %r : tensor<?x?xf32>
}

// -----

// A select of zero for an invalid index (the safe read at 0 meanwhile):
// `fill`; a dynamic table whose followed dimension the frontend sized from
// the table itself needs no slice.
// CHECK-LABEL: func.func @fill_invalid
// CHECK-SAME:    %[[T:[^:]*]]: tensor<?x?xf32>
// CHECK-NOT:     tensor.extract_slice
// CHECK:         gather.block %[[T]][%{{.*}}] axis = 0 negative_indices = out_of_bounds out_of_bounds = fill into
#map_i = affine_map<(d0, d1) -> (d0)>
#map_o = affine_map<(d0, d1) -> (d0, d1)>
func.func @fill_invalid(%t: tensor<?x?xf32>, %idx: tensor<?xi64>) -> tensor<?x?xf32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %n = tensor.dim %idx, %c0 : tensor<?xi64>
  %rows = tensor.dim %t, %c0 : tensor<?x?xf32>
  %width = tensor.dim %t, %c1 : tensor<?x?xf32>
  %init = tensor.empty(%n, %width) : tensor<?x?xf32>
  %r = linalg.generic {indexing_maps = [#map_i, #map_o], iterator_types = ["parallel", "parallel"]}
      ins(%idx : tensor<?xi64>) outs(%init : tensor<?x?xf32>) {
  ^bb0(%in: i64, %out: f32):
    %x = arith.index_cast %in : i64 to index
    %ok = arith.cmpi ult, %x, %rows : index
    %safe = arith.select %ok, %x, %c0 : index
    %j = linalg.index 1 : index
    %v = tensor.extract %t[%safe, %j] : tensor<?x?xf32>
    %zero = arith.constant 0.0 : f32
    %y = arith.select %ok, %v, %zero : f32
    linalg.yield %y : f32
  } -> tensor<?x?xf32>
  return %r : tensor<?x?xf32>
}

// -----

// Indices broadcast along a loop their map leaves out: out[i, j, k] =
// t[i, j, idx[i, k]] is gather.multiaxis with indices [i, 1, k]; the table
// is read only up to the output's sizes off the axis (a slice).
// CHECK-LABEL: func.func @broadcast_indices
// CHECK-SAME:    %[[T:[^:]*]]: tensor<4x9x10xf32>, %[[I:[^:]*]]: tensor<4x5xi32>
// CHECK:         %[[EXP:.*]] = tensor.expand_shape %[[I]] {{\[\[}}0, 1], [2]] output_shape [4, 1, 5] : tensor<4x5xi32> into tensor<4x1x5xi32>
// CHECK:         %[[S:.*]] = tensor.extract_slice %[[T]][0, 0, 0] [4, 6, 10] [1, 1, 1]
// CHECK:         gather.multiaxis %[[S]][%[[EXP]]] axes = [2] negative_indices = out_of_bounds into %{{.*}} : tensor<4x6x10xf32>, tensor<4x1x5xi32> into tensor<4x6x5xf32>
#map_i = affine_map<(d0, d1, d2) -> (d0, d2)>
#map_o = affine_map<(d0, d1, d2) -> (d0, d1, d2)>
func.func @broadcast_indices(%t: tensor<4x9x10xf32>, %idx: tensor<4x5xi32>) -> tensor<4x6x5xf32> {
  %init = tensor.empty() : tensor<4x6x5xf32>
  %r = linalg.generic {indexing_maps = [#map_i, #map_o], iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%idx : tensor<4x5xi32>) outs(%init : tensor<4x6x5xf32>) {
  ^bb0(%in: i32, %out: f32):
    %x = arith.index_cast %in : i32 to index
    %i0 = linalg.index 0 : index
    %i1 = linalg.index 1 : index
    %v = tensor.extract %t[%i0, %i1, %x] : tensor<4x9x10xf32>
    linalg.yield %v : f32
  } -> tensor<4x6x5xf32>
  return %r : tensor<4x6x5xf32>
}

// -----

// More than a gather in the body: an embedding cast to f32, scaled and
// biased by another operand. The gather goes into a tensor of its own; the
// rest is an elementwise generic over it and the bias into the original
// destination (the CPU pipeline fuses them again).
// CHECK-LABEL: func.func @gather_then_compute
// CHECK-SAME:    %[[T:[^:]*]]: tensor<1000x64xf16>, %[[I:[^:]*]]: tensor<32xi64>, %[[BIAS:[^:]*]]: tensor<64xf32>
// CHECK:         %[[INIT:.*]] = tensor.empty() : tensor<32x64xf32>
// CHECK:         %[[TMP:.*]] = tensor.empty() : tensor<32x64xf16>
// CHECK:         %[[G:.*]] = gather.block %[[T]][%[[I]]] axis = 0 negative_indices = out_of_bounds into %[[TMP]]
// CHECK:         %[[R:.*]] = linalg.generic {{.*}} ins(%[[G]], %[[BIAS]] : tensor<32x64xf16>, tensor<64xf32>) outs(%[[INIT]] : tensor<32x64xf32>)
// CHECK:         ^bb0(%[[V:.*]]: f16, %[[B:.*]]: f32, %{{.*}}: f32):
// CHECK:           %[[F:.*]] = arith.extf %[[V]] : f16 to f32
// CHECK:           %[[S:.*]] = arith.mulf %[[F]], %{{.*}} : f32
// CHECK:           %[[Y:.*]] = arith.addf %[[S]], %[[B]] : f32
// CHECK:           linalg.yield %[[Y]]
// CHECK-NOT:       tensor.extract
// CHECK:         return %[[R]]
// FUSED-LABEL: func.func @gather_then_compute
// FUSED:         scf.forall
// FUSED:           %[[G:.*]] = gather.block
// FUSED:           linalg.generic {{.*}} ins(%[[G]], %{{.*}} : tensor<?x64xf16>, tensor<64xf32>)
// FUSED:             arith.extf
// FUSED:           tensor.parallel_insert_slice
// FUSED:         return
#map_i = affine_map<(d0, d1) -> (d0)>
#map_b = affine_map<(d0, d1) -> (d1)>
#map_o = affine_map<(d0, d1) -> (d0, d1)>
func.func @gather_then_compute(%t: tensor<1000x64xf16>, %idx: tensor<32xi64>, %bias: tensor<64xf32>) -> tensor<32x64xf32> {
  %init = tensor.empty() : tensor<32x64xf32>
  %r = linalg.generic {indexing_maps = [#map_i, #map_b, #map_o], iterator_types = ["parallel", "parallel"]}
      ins(%idx, %bias : tensor<32xi64>, tensor<64xf32>) outs(%init : tensor<32x64xf32>) {
  ^bb0(%in: i64, %b: f32, %out: f32):
    %x = arith.index_cast %in : i64 to index
    %j = linalg.index 1 : index
    %v = tensor.extract %t[%x, %j] : tensor<1000x64xf16>
    %f = arith.extf %v : f16 to f32
    %scale = arith.constant 8.0 : f32
    %s = arith.mulf %f, %scale : f32
    %y = arith.addf %s, %b : f32
    linalg.yield %y : f32
  } -> tensor<32x64xf32>
  return %r : tensor<32x64xf32>
}

// -----

// Unsigned index values narrower than 64 bits (index_castui) are widened
// with a zero extension first: the gather ops read signed values.
// CHECK-LABEL: func.func @unsigned_indices
// CHECK:         %[[WIDE:.*]] = linalg.map { arith.extui } ins(%{{.*}} : tensor<16xi32>) outs(%{{.*}} : tensor<16xi64>)
// CHECK:         gather.block %{{.*}}[%[[WIDE]]] axis = 0 negative_indices = out_of_bounds into %{{.*}} : tensor<100x8xf32>, tensor<16xi64>
#map_i = affine_map<(d0, d1) -> (d0)>
#map_o = affine_map<(d0, d1) -> (d0, d1)>
func.func @unsigned_indices(%t: tensor<100x8xf32>, %idx: tensor<16xi32>) -> tensor<16x8xf32> {
  %init = tensor.empty() : tensor<16x8xf32>
  %r = linalg.generic {indexing_maps = [#map_i, #map_o], iterator_types = ["parallel", "parallel"]}
      ins(%idx : tensor<16xi32>) outs(%init : tensor<16x8xf32>) {
  ^bb0(%in: i32, %out: f32):
    %x = arith.index_castui %in : i32 to index
    %j = linalg.index 1 : index
    %v = tensor.extract %t[%x, %j] : tensor<100x8xf32>
    linalg.yield %v : f32
  } -> tensor<16x8xf32>
  return %r : tensor<16x8xf32>
}

// -----

// Left alone: a reduction over the gathered values (a bag sum).
// CHECK-LABEL: func.func @reduction_stays
// CHECK:         linalg.generic
// CHECK-NOT:     gather.
#map_i = affine_map<(d0, d1) -> (d1)>
#map_o = affine_map<(d0, d1) -> (d0)>
func.func @reduction_stays(%t: tensor<100x8xf32>, %idx: tensor<16xi64>, %init: tensor<8xf32>) -> tensor<8xf32> {
  %r = linalg.generic {indexing_maps = [#map_i, #map_o], iterator_types = ["parallel", "reduction"]}
      ins(%idx : tensor<16xi64>) outs(%init : tensor<8xf32>) {
  ^bb0(%in: i64, %acc: f32):
    %x = arith.index_cast %in : i64 to index
    %j = linalg.index 0 : index
    %v = tensor.extract %t[%x, %j] : tensor<100x8xf32>
    %s = arith.addf %acc, %v : f32
    linalg.yield %s : f32
  } -> tensor<8xf32>
  return %r : tensor<8xf32>
}

// -----

// Left alone: a position that is no index value (an index plus one), two
// tables read at data-dependent positions, a window (StableHLO with a
// slice size of 2: the clamped start plus a loop), a truncated index.
// CHECK-LABEL: func.func @not_gathers
// CHECK-COUNT-4: linalg.generic
// CHECK-NOT:     gather.
#map_i = affine_map<(d0, d1) -> (d0)>
#map_o = affine_map<(d0, d1) -> (d0, d1)>
func.func @not_gathers(%t: tensor<100x8xf32>, %u: tensor<100x8xf32>, %idx: tensor<16xi64>, %init: tensor<16x8xf32>, %w: tensor<16x2xf32>) -> (tensor<16x8xf32>, tensor<16x8xf32>, tensor<16x2xf32>, tensor<16x8xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c6 = arith.constant 6 : index
  %r0 = linalg.generic {indexing_maps = [#map_i, #map_o], iterator_types = ["parallel", "parallel"]}
      ins(%idx : tensor<16xi64>) outs(%init : tensor<16x8xf32>) {
  ^bb0(%in: i64, %out: f32):
    %x = arith.index_cast %in : i64 to index
    %x1 = arith.addi %x, %c1 : index
    %j = linalg.index 1 : index
    %v = tensor.extract %t[%x1, %j] : tensor<100x8xf32>
    linalg.yield %v : f32
  } -> tensor<16x8xf32>
  %r1 = linalg.generic {indexing_maps = [#map_i, #map_o], iterator_types = ["parallel", "parallel"]}
      ins(%idx : tensor<16xi64>) outs(%init : tensor<16x8xf32>) {
  ^bb0(%in: i64, %out: f32):
    %x = arith.index_cast %in : i64 to index
    %j = linalg.index 1 : index
    %v = tensor.extract %t[%x, %j] : tensor<100x8xf32>
    %y = tensor.extract %u[%x, %j] : tensor<100x8xf32>
    %s = arith.addf %v, %y : f32
    linalg.yield %s : f32
  } -> tensor<16x8xf32>
  %r2 = linalg.generic {indexing_maps = [#map_i, #map_o], iterator_types = ["parallel", "parallel"]}
      ins(%idx : tensor<16xi64>) outs(%w : tensor<16x2xf32>) {
  ^bb0(%in: i64, %out: f32):
    %x = arith.index_cast %in : i64 to index
    %lo = arith.maxsi %x, %c0 : index
    %start = arith.minsi %lo, %c6 : index
    %j = linalg.index 1 : index
    %pos = arith.addi %start, %j : index
    %v = tensor.extract %t[%c0, %pos] : tensor<100x8xf32>
    linalg.yield %v : f32
  } -> tensor<16x2xf32>
  %r3 = linalg.generic {indexing_maps = [#map_i, #map_o], iterator_types = ["parallel", "parallel"]}
      ins(%idx : tensor<16xi64>) outs(%init : tensor<16x8xf32>) {
  ^bb0(%in: i64, %out: f32):
    %n = arith.trunci %in : i64 to i32
    %x = arith.index_cast %n : i32 to index
    %j = linalg.index 1 : index
    %v = tensor.extract %t[%x, %j] : tensor<100x8xf32>
    linalg.yield %v : f32
  } -> tensor<16x8xf32>
  return %r0, %r1, %r2, %r3 : tensor<16x8xf32>, tensor<16x8xf32>, tensor<16x2xf32>, tensor<16x8xf32>
}

// -----

// Indices constant along the gathered loop: the read repeats one element
// along the output's gathered dimension, a broadcast along the axis that
// no gather op expresses.
// CHECK-LABEL: func.func @index_constant_along_axis
// CHECK:         linalg.generic
// CHECK-NOT:     gather.
#map_i = affine_map<(d0, d1, d2) -> (d0, d1)>
#map_o = affine_map<(d0, d1, d2) -> (d0, d1, d2)>
func.func @index_constant_along_axis(%t: tensor<4x6x10xf32>, %idx: tensor<4x6xi32>) -> tensor<4x6x5xf32> {
  %init = tensor.empty() : tensor<4x6x5xf32>
  %r = linalg.generic {indexing_maps = [#map_i, #map_o], iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%idx : tensor<4x6xi32>) outs(%init : tensor<4x6x5xf32>) {
  ^bb0(%in: i32, %out: f32):
    %x = arith.index_cast %in : i32 to index
    %i0 = linalg.index 0 : index
    %i1 = linalg.index 1 : index
    %v = tensor.extract %t[%i0, %i1, %x] : tensor<4x6x10xf32>
    linalg.yield %v : f32
  } -> tensor<4x6x5xf32>
  return %r : tensor<4x6x5xf32>
}

// -----

// torch-mlir's aten.index.Tensor with one index tensor, x[:, idx]: the
// index made positive in i64 against the dimension's size cast from
// tensor.dim (negative_indices = wrap); an index dimension of size 1 is
// pinned to 0 in the map.
// CHECK-LABEL: func.func @aten_index_tensor
// CHECK-SAME:    %[[X:[^:]*]]: tensor<4x?x3xf32>, %[[I:[^:]*]]: tensor<1x5xi64>
// CHECK:         gather.block %[[X]][%[[I]]] axis = 1 into %{{.*}} : tensor<4x?x3xf32>, tensor<1x5xi64> into tensor<4x1x5x3xf32>
// CHECK-NOT:     linalg.generic
#map_i = affine_map<(d0, d1, d2, d3) -> (0, d2)>
#map_o = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>
func.func @aten_index_tensor(%x: tensor<4x?x3xf32>, %idx: tensor<1x5xi64>) -> tensor<4x1x5x3xf32> {
  %init = tensor.empty() : tensor<4x1x5x3xf32>
  %c1 = arith.constant 1 : index
  %r = linalg.generic {indexing_maps = [#map_i, #map_o], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%idx : tensor<1x5xi64>) outs(%init : tensor<4x1x5x3xf32>) {
  ^bb0(%in: i64, %out: f32):
    %i0 = linalg.index 0 : index
    %zero = arith.constant 0 : i64
    %neg = arith.cmpi slt, %in, %zero : i64
    %dim = tensor.dim %x, %c1 : tensor<4x?x3xf32>
    %size = arith.index_cast %dim : index to i64
    %plus = arith.addi %in, %size : i64
    %pos = arith.select %neg, %plus, %in : i64
    %p = arith.index_cast %pos : i64 to index
    %i3 = linalg.index 3 : index
    %v = tensor.extract %x[%i0, %p, %i3] : tensor<4x?x3xf32>
    linalg.yield %v : f32
  } -> tensor<4x1x5x3xf32>
  return %r : tensor<4x1x5x3xf32>
}

// -----

// torch's x[torch.arange(n), idx] as torch-mlir writes it: arange is a
// generic that yields its loop's index (cast to i64), and aten.index.Tensor
// reads the table at both operands, each wrapped. The arange operand counts
// along the loop: table dimension 0 follows it, and dimension 1 is
// gathered with no output dimension of its own: gather.elements with a
// unit dimension at the axis (indices and output expanded, the result
// collapsed), the arange left dead.
// CHECK-LABEL: func.func @index_tensor_arange_rows
// CHECK-SAME:    %[[X:[^:]*]]: tensor<4x10xf32>, %[[I:[^:]*]]: tensor<4xi64>
// CHECK:         %[[INIT:.*]] = tensor.empty() : tensor<4xf32>
// CHECK-DAG:     %[[I1:.*]] = tensor.expand_shape %[[I]] {{\[\[}}0, 1]] output_shape [4, 1] : tensor<4xi64> into tensor<4x1xi64>
// CHECK-DAG:     %[[INIT1:.*]] = tensor.expand_shape %[[INIT]] {{\[\[}}0, 1]] output_shape [4, 1] : tensor<4xf32> into tensor<4x1xf32>
// CHECK:         %[[G:.*]] = gather.elements %[[X]][%[[I1]]] axis = 1 into %[[INIT1]] : tensor<4x10xf32>, tensor<4x1xi64> into tensor<4x1xf32>
// CHECK:         %[[R:.*]] = tensor.collapse_shape %[[G]] {{\[\[}}0, 1]] : tensor<4x1xf32> into tensor<4xf32>
// CHECK:         return %[[R]]
// CHECK-NOT:     linalg.generic
#id = affine_map<(d0) -> (d0)>
func.func @index_tensor_arange_rows(%x: tensor<4x10xf32>, %idx: tensor<4xi64>) -> tensor<4xf32> {
  %e = tensor.empty() : tensor<4xi64>
  %ar = linalg.generic {indexing_maps = [#id], iterator_types = ["parallel"]} outs(%e : tensor<4xi64>) {
  ^bb0(%o: i64):
    %i = linalg.index 0 : index
    %c = arith.index_cast %i : index to i64
    linalg.yield %c : i64
  } -> tensor<4xi64>
  %init = tensor.empty() : tensor<4xf32>
  %r = linalg.generic {indexing_maps = [#id, #id, #id], iterator_types = ["parallel"]}
      ins(%ar, %idx : tensor<4xi64>, tensor<4xi64>) outs(%init : tensor<4xf32>) {
  ^bb0(%a: i64, %b: i64, %out: f32):
    %zero = arith.constant 0 : i64
    %c4 = arith.constant 4 : i64
    %c10 = arith.constant 10 : i64
    %na = arith.cmpi slt, %a, %zero : i64
    %pa = arith.addi %a, %c4 : i64
    %wa = arith.select %na, %pa, %a : i64
    %p = arith.index_cast %wa : i64 to index
    %nb = arith.cmpi slt, %b, %zero : i64
    %pb = arith.addi %b, %c10 : i64
    %wb = arith.select %nb, %pb, %b : i64
    %q = arith.index_cast %wb : i64 to index
    %v = tensor.extract %x[%p, %q] : tensor<4x10xf32>
    linalg.yield %v : f32
  } -> tensor<4xf32>
  return %r : tensor<4xf32>
}

// -----

// An operand that does not count along a loop (twice the index) is an
// index value: two index operands, which stay. A loop longer than the
// table dimension it follows (8 rows read from 4) stays too: the source
// reads past the table, and no gather op of those sizes verifies.
// CHECK-LABEL: func.func @not_counting_or_too_long_stays
// CHECK-COUNT-3: linalg.generic
// CHECK-NOT:     gather.
#id = affine_map<(d0) -> (d0)>
#map = affine_map<(d0, d1) -> (d0, d1)>
func.func @not_counting_or_too_long_stays(%x: tensor<4x10xf32>, %idx: tensor<4xi64>, %d: tensor<4x10xf32>, %i2: tensor<8x3xi64>, %e2: tensor<8x3xf32>) -> (tensor<4xf32>, tensor<8x3xf32>) {
  %e = tensor.empty() : tensor<4xi64>
  %twice = linalg.generic {indexing_maps = [#id], iterator_types = ["parallel"]} outs(%e : tensor<4xi64>) {
  ^bb0(%o: i64):
    %i = linalg.index 0 : index
    %c2 = arith.constant 2 : index
    %m = arith.muli %i, %c2 : index
    %c = arith.index_cast %m : index to i64
    linalg.yield %c : i64
  } -> tensor<4xi64>
  %init = tensor.empty() : tensor<4xf32>
  %r = linalg.generic {indexing_maps = [#id, #id, #id], iterator_types = ["parallel"]}
      ins(%twice, %idx : tensor<4xi64>, tensor<4xi64>) outs(%init : tensor<4xf32>) {
  ^bb0(%a: i64, %b: i64, %out: f32):
    %p = arith.index_cast %a : i64 to index
    %q = arith.index_cast %b : i64 to index
    %v = tensor.extract %x[%p, %q] : tensor<4x10xf32>
    linalg.yield %v : f32
  } -> tensor<4xf32>
  %r2 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel"]}
      ins(%i2 : tensor<8x3xi64>) outs(%e2 : tensor<8x3xf32>) {
  ^bb0(%in: i64, %out: f32):
    %i0 = linalg.index 0 : index
    %x2 = arith.index_cast %in : i64 to index
    %v = tensor.extract %d[%i0, %x2] : tensor<4x10xf32>
    linalg.yield %v : f32
  } -> tensor<8x3xf32>
  return %r, %r2 : tensor<4xf32>, tensor<8x3xf32>
}

// -----

// An arange of i8 counts along its loop only up to 127: 200 rows wrap (the
// first generic stays: two index operands), 100 rows do not (raised).
// CHECK-LABEL: func.func @narrow_count
// CHECK:         linalg.generic
// CHECK:         linalg.generic
// CHECK-SAME:      ins(%{{.*}}, %{{.*}} : tensor<200xi8>, tensor<200xi64>)
// CHECK-NOT:     linalg.generic
// CHECK:         gather.elements %{{.*}}[%{{.*}}] axis = 1 negative_indices = out_of_bounds into %{{.*}} : tensor<100x10xf32>, tensor<100x1xi64> into tensor<100x1xf32>
#id = affine_map<(d0) -> (d0)>
func.func @narrow_count(%x: tensor<200x10xf32>, %idx: tensor<200xi64>, %y: tensor<100x10xf32>, %idy: tensor<100xi64>) -> (tensor<200xf32>, tensor<100xf32>) {
  %e = tensor.empty() : tensor<200xi8>
  %ar = linalg.generic {indexing_maps = [#id], iterator_types = ["parallel"]} outs(%e : tensor<200xi8>) {
  ^bb0(%o: i8):
    %i = linalg.index 0 : index
    %c = arith.index_cast %i : index to i8
    linalg.yield %c : i8
  } -> tensor<200xi8>
  %init = tensor.empty() : tensor<200xf32>
  %r = linalg.generic {indexing_maps = [#id, #id, #id], iterator_types = ["parallel"]}
      ins(%ar, %idx : tensor<200xi8>, tensor<200xi64>) outs(%init : tensor<200xf32>) {
  ^bb0(%a: i8, %b: i64, %out: f32):
    %p = arith.index_cast %a : i8 to index
    %q = arith.index_cast %b : i64 to index
    %v = tensor.extract %x[%p, %q] : tensor<200x10xf32>
    linalg.yield %v : f32
  } -> tensor<200xf32>
  %e2 = tensor.empty() : tensor<100xi8>
  %ar2 = linalg.generic {indexing_maps = [#id], iterator_types = ["parallel"]} outs(%e2 : tensor<100xi8>) {
  ^bb0(%o: i8):
    %i = linalg.index 0 : index
    %c = arith.index_cast %i : index to i8
    linalg.yield %c : i8
  } -> tensor<100xi8>
  %init2 = tensor.empty() : tensor<100xf32>
  %r2 = linalg.generic {indexing_maps = [#id, #id, #id], iterator_types = ["parallel"]}
      ins(%ar2, %idy : tensor<100xi8>, tensor<100xi64>) outs(%init2 : tensor<100xf32>) {
  ^bb0(%a: i8, %b: i64, %out: f32):
    %p = arith.index_cast %a : i8 to index
    %q = arith.index_cast %b : i64 to index
    %v = tensor.extract %y[%p, %q] : tensor<100x10xf32>
    linalg.yield %v : f32
  } -> tensor<100xf32>
  return %r, %r2 : tensor<200xf32>, tensor<100xf32>
}

// -----

// aten.index.Tensor with two index tensors, x[i, j]: each index operand one
// coordinate. No gather op takes its coordinates from two tensors (the
// multiaxis form would need them interleaved into one first): it stays.
// CHECK-LABEL: func.func @two_index_operands_stay
// CHECK:         linalg.generic
// CHECK-NOT:     gather.
#map_i = affine_map<(d0) -> (d0)>
func.func @two_index_operands_stay(%x: tensor<9x7xf32>, %i: tensor<6xi64>, %j: tensor<6xi64>) -> tensor<6xf32> {
  %init = tensor.empty() : tensor<6xf32>
  %r = linalg.generic {indexing_maps = [#map_i, #map_i, #map_i], iterator_types = ["parallel"]}
      ins(%i, %j : tensor<6xi64>, tensor<6xi64>) outs(%init : tensor<6xf32>) {
  ^bb0(%a: i64, %b: i64, %out: f32):
    %p = arith.index_cast %a : i64 to index
    %q = arith.index_cast %b : i64 to index
    %v = tensor.extract %x[%p, %q] : tensor<9x7xf32>
    linalg.yield %v : f32
  } -> tensor<6xf32>
  return %r : tensor<6xf32>
}

// -----

// A body with a side effect (a store besides the read) stays as it is.
// CHECK-LABEL: func.func @side_effect_stays
// CHECK:         linalg.generic
// CHECK:           memref.store
// CHECK-NOT:     gather.
#map_i = affine_map<(d0, d1) -> (d0)>
#map_o = affine_map<(d0, d1) -> (d0, d1)>
func.func @side_effect_stays(%t: tensor<100x8xf32>, %idx: tensor<16xi64>, %log: memref<1xindex>) -> tensor<16x8xf32> {
  %init = tensor.empty() : tensor<16x8xf32>
  %c0 = arith.constant 0 : index
  %r = linalg.generic {indexing_maps = [#map_i, #map_o], iterator_types = ["parallel", "parallel"]}
      ins(%idx : tensor<16xi64>) outs(%init : tensor<16x8xf32>) {
  ^bb0(%in: i64, %out: f32):
    %x = arith.index_cast %in : i64 to index
    memref.store %x, %log[%c0] : memref<1xindex>
    %j = linalg.index 1 : index
    %v = tensor.extract %t[%x, %j] : tensor<100x8xf32>
    linalg.yield %v : f32
  } -> tensor<16x8xf32>
  return %r : tensor<16x8xf32>
}
