// RUN: gather-opt %s --split-input-file --gather-gpu-reduction-loops --cse | FileCheck %s
// (cse merges the constants the pass makes where it needs them, as the
// pipeline's canonicalize and cse do after gather-map-to-gpu.)

// An embedding bag's fused sum (parallel, reduction, parallel): one
// iteration of the scf.parallel per sum, over both parallel dimensions in
// their order (the row's last: consecutive threads, consecutive elements),
// the rows added in an scf.for that carries the sum from the filled output
// and stores it once; the body reads the index at (bag, row, 0) and the
// loop position where it asked for it.
// CHECK-LABEL: func.func @bag_sum
// CHECK-SAME:      %[[TABLE:[^:]*]]: memref<40x16xf32>, %[[IDS:[^:]*]]: memref<8x3x1xi64>, %[[SUMS:[^:]*]]: memref<8x16xf32>
// CHECK-DAG:     %[[C0:.*]] = arith.constant 0 : index
// CHECK-DAG:     %[[C1:.*]] = arith.constant 1 : index
// CHECK-DAG:     %[[C3:.*]] = arith.constant 3 : index
// CHECK-DAG:     %[[C8:.*]] = arith.constant 8 : index
// CHECK-DAG:     %[[C16:.*]] = arith.constant 16 : index
// CHECK:         scf.parallel (%[[B:.*]], %[[D:.*]]) = (%[[C0]], %[[C0]]) to (%[[C8]], %[[C16]]) step (%[[C1]], %[[C1]]) {
// CHECK:           %[[START:.*]] = memref.load %[[SUMS]][%[[B]], %[[D]]] : memref<8x16xf32>
// CHECK:           %[[SUM:.*]] = scf.for %[[L:.*]] = %[[C0]] to %[[C3]] step %[[C1]] iter_args(%[[ACC:.*]] = %[[START]]) -> (f32) {
// CHECK:             %[[INDEX:.*]] = memref.load %[[IDS]][%[[B]], %[[L]], %[[C0]]] : memref<8x3x1xi64>
// CHECK:             %[[ROW:.*]] = arith.index_cast %[[INDEX]] : i64 to index
// CHECK:             %[[X:.*]] = memref.load %[[TABLE]][%[[ROW]], %[[D]]] : memref<40x16xf32>
// CHECK:             %[[NEXT:.*]] = arith.addf %[[X]], %[[ACC]] : f32
// CHECK:             scf.yield %[[NEXT]] : f32
// CHECK:           }
// CHECK:           memref.store %[[SUM]], %[[SUMS]][%[[B]], %[[D]]] : memref<8x16xf32>
// CHECK-NOT:     linalg.generic
func.func @bag_sum(%table: memref<40x16xf32>, %ids: memref<8x3x1xi64>, %sums: memref<8x16xf32>) {
  linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, 0)>, affine_map<(d0, d1, d2) -> (d0, d2)>], iterator_types = ["parallel", "reduction", "parallel"]} ins(%ids : memref<8x3x1xi64>) outs(%sums : memref<8x16xf32>) {
  ^bb0(%index: i64, %acc: f32):
    %d = linalg.index 2 : index
    %row = arith.index_cast %index : i64 to index
    %x = memref.load %table[%row, %d] : memref<40x16xf32>
    %s = arith.addf %x, %acc : f32
    linalg.yield %s : f32
  }
  return
}

// -----

// Two results over two reduction dimensions, the first and the last, with
// the results' dimensions transposed against the loops and an input read
// through a broadcast; dynamic sizes from the operands.
// CHECK-LABEL: func.func @two_results_two_reductions
// CHECK-SAME:      %[[X:[^:]*]]: memref<?x?x?xf32>, %[[V:[^:]*]]: memref<?xf32>, %[[S:[^:]*]]: memref<?xf32>, %[[M:[^:]*]]: memref<?xf32>
// CHECK-DAG:     %[[C0:.*]] = arith.constant 0 : index
// CHECK-DAG:     %[[C1:.*]] = arith.constant 1 : index
// CHECK-DAG:     %[[C2:.*]] = arith.constant 2 : index
// CHECK-DAG:     %[[N0:.*]] = memref.dim %[[X]], %[[C0]]
// CHECK-DAG:     %[[N1:.*]] = memref.dim %[[X]], %[[C1]]
// CHECK-DAG:     %[[N2:.*]] = memref.dim %[[X]], %[[C2]]
// CHECK:         scf.parallel (%[[J:.*]]) = (%[[C0]]) to (%[[N1]]) step (%[[C1]]) {
// CHECK:           %[[S0:.*]] = memref.load %[[S]][%[[J]]]
// CHECK:           %[[M0:.*]] = memref.load %[[M]][%[[J]]]
// CHECK:           %[[OUTER:.*]]:2 = scf.for %[[I:.*]] = %[[C0]] to %[[N0]] step %[[C1]] iter_args(%[[SA:.*]] = %[[S0]], %[[MA:.*]] = %[[M0]]) -> (f32, f32) {
// CHECK:             %[[INNER:.*]]:2 = scf.for %[[K:.*]] = %[[C0]] to %[[N2]] step %[[C1]] iter_args(%[[SB:.*]] = %[[SA]], %[[MB:.*]] = %[[MA]]) -> (f32, f32) {
// CHECK:               %[[A:.*]] = memref.load %[[X]][%[[I]], %[[J]], %[[K]]]
// CHECK:               %[[B:.*]] = memref.load %[[V]][%[[K]]]
// CHECK:               %[[T:.*]] = arith.mulf %[[A]], %[[B]] : f32
// CHECK:               %[[SN:.*]] = arith.addf %[[T]], %[[SB]] : f32
// CHECK:               %[[MN:.*]] = arith.maximumf %[[T]], %[[MB]] : f32
// CHECK:               scf.yield %[[SN]], %[[MN]] : f32, f32
// CHECK:             scf.yield %[[INNER]]#0, %[[INNER]]#1 : f32, f32
// CHECK:           memref.store %[[OUTER]]#0, %[[S]][%[[J]]]
// CHECK:           memref.store %[[OUTER]]#1, %[[M]][%[[J]]]
func.func @two_results_two_reductions(%x: memref<?x?x?xf32>, %v: memref<?xf32>, %s: memref<?xf32>, %m: memref<?xf32>) {
  linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d2)>, affine_map<(d0, d1, d2) -> (d1)>, affine_map<(d0, d1, d2) -> (d1)>], iterator_types = ["reduction", "parallel", "reduction"]} ins(%x, %v : memref<?x?x?xf32>, memref<?xf32>) outs(%s, %m : memref<?xf32>, memref<?xf32>) {
  ^bb0(%a: f32, %b: f32, %so: f32, %mo: f32):
    %t = arith.mulf %a, %b : f32
    %sn = arith.addf %t, %so : f32
    %mn = arith.maximumf %t, %mo : f32
    linalg.yield %sn, %mn : f32, f32
  }
  return
}

// -----

// Results written at a permutation of the parallel dimensions: the
// scf.parallel keeps the loops' order, the store the result's.
// CHECK-LABEL: func.func @transposed_result
// CHECK:         scf.parallel (%[[I:.*]], %[[J:.*]]) =
// CHECK:           memref.load %{{.*}}[%[[J]], %[[I]]] : memref<5x4xf32>
// CHECK:           scf.for
// CHECK:           memref.store %{{.*}}, %{{.*}}[%[[J]], %[[I]]] : memref<5x4xf32>
func.func @transposed_result(%x: memref<4x5x6xf32>, %r: memref<5x4xf32>) {
  linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d1, d0)>], iterator_types = ["parallel", "parallel", "reduction"]} ins(%x : memref<4x5x6xf32>) outs(%r : memref<5x4xf32>) {
  ^bb0(%a: f32, %o: f32):
    %s = arith.addf %a, %o : f32
    linalg.yield %s : f32
  }
  return
}

// -----

// A reduction to one value: one iteration, which adds every element.
// CHECK-LABEL: func.func @reduction_to_one_value
// CHECK-SAME:      %[[X:[^:]*]]: memref<4x6xf32>, %[[S:[^:]*]]: memref<f32>
// CHECK-DAG:     %[[C0:.*]] = arith.constant 0 : index
// CHECK-DAG:     %[[C1:.*]] = arith.constant 1 : index
// CHECK-DAG:     %[[C4:.*]] = arith.constant 4 : index
// CHECK-DAG:     %[[C6:.*]] = arith.constant 6 : index
// CHECK:         scf.parallel (%{{.*}}) = (%[[C0]]) to (%[[C1]]) step (%[[C1]]) {
// CHECK:           %[[START:.*]] = memref.load %[[S]][] : memref<f32>
// CHECK:           %[[SUM:.*]] = scf.for %[[I:.*]] = %[[C0]] to %[[C4]] step %[[C1]] iter_args(%[[A:.*]] = %[[START]]) -> (f32) {
// CHECK:             scf.for %[[J:.*]] = %[[C0]] to %[[C6]] step %[[C1]] iter_args(%{{.*}} = %[[A]]) -> (f32) {
// CHECK:               memref.load %[[X]][%[[I]], %[[J]]]
// CHECK:           memref.store %[[SUM]], %[[S]][] : memref<f32>
func.func @reduction_to_one_value(%x: memref<4x6xf32>, %scalar: memref<f32>) {
  linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> ()>], iterator_types = ["reduction", "reduction"]} ins(%x : memref<4x6xf32>) outs(%scalar : memref<f32>) {
  ^bb0(%a: f32, %o: f32):
    %s = arith.addf %a, %o : f32
    linalg.yield %s : f32
  }
  return
}

// -----

// Left as they are: a reduction that reads its result's buffer as an input
// (its reads would see the sums so far), an all-parallel generic, a
// generic on tensors, and a reduction already in a kernel.
// CHECK-LABEL: func.func @left_alone
// CHECK-NOT:     scf.parallel
// CHECK-COUNT-3: linalg.generic
// CHECK:         gpu.launch
// CHECK:           linalg.generic
// CHECK-NOT:     scf.parallel
// CHECK:         return
func.func @left_alone(%x: memref<4x6xf32>, %r: memref<4x4xf32>, %t: tensor<4x6xf32>, %tr: tensor<4xf32>, %p: memref<4x6xf32>, %row: memref<4xf32>) -> tensor<4xf32> {
  linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d1, d0)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "reduction"]} ins(%r : memref<4x4xf32>) outs(%r : memref<4x4xf32>) {
  ^bb0(%a: f32, %o: f32):
    %s = arith.addf %a, %o : f32
    linalg.yield %s : f32
  }
  linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%x : memref<4x6xf32>) outs(%p : memref<4x6xf32>) {
  ^bb0(%a: f32, %o: f32):
    %s = arith.addf %a, %o : f32
    linalg.yield %s : f32
  }
  %y = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>], iterator_types = ["parallel", "reduction"]} ins(%t : tensor<4x6xf32>) outs(%tr : tensor<4xf32>) {
  ^bb0(%a: f32, %o: f32):
    %s = arith.addf %a, %o : f32
    linalg.yield %s : f32
  } -> tensor<4xf32>
  %c1 = arith.constant 1 : index
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1) threads(%tx, %ty, %tz) in (%sx = %c1, %sy = %c1, %sz = %c1) {
    linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>], iterator_types = ["parallel", "reduction"]} ins(%x : memref<4x6xf32>) outs(%row : memref<4xf32>) {
    ^bb0(%a: f32, %o: f32):
      %s = arith.addf %a, %o : f32
      linalg.yield %s : f32
    }
    gpu.terminator
  }
  return %y : tensor<4xf32>
}

// -----

// A named reduction (linalg.reduce, as the pipeline keeps it without
// consumer fusion), through the same interface: its region is the body.
// CHECK-LABEL: func.func @named_reduce
// CHECK-SAME:      %[[X:[^:]*]]: memref<8x3x16xf32>, %[[S:[^:]*]]: memref<8x16xf32>
// CHECK:         scf.parallel (%[[B:.*]], %[[D:.*]]) =
// CHECK:           %[[START:.*]] = memref.load %[[S]][%[[B]], %[[D]]]
// CHECK:           %[[SUM:.*]] = scf.for %[[L:.*]] = {{.*}} iter_args(%[[A:.*]] = %[[START]]) -> (f32) {
// CHECK:             %[[V:.*]] = memref.load %[[X]][%[[B]], %[[L]], %[[D]]]
// CHECK:             %[[M:.*]] = arith.maximumf %[[V]], %[[A]] : f32
// CHECK:             scf.yield %[[M]] : f32
// CHECK:           memref.store %[[SUM]], %[[S]][%[[B]], %[[D]]]
// CHECK-NOT:     linalg.reduce
func.func @named_reduce(%x: memref<8x3x16xf32>, %s: memref<8x16xf32>) {
  linalg.reduce ins(%x : memref<8x3x16xf32>) outs(%s : memref<8x16xf32>) dimensions = [1]
    (%in: f32, %init: f32) {
      %m = arith.maximumf %in, %init : f32
      linalg.yield %m : f32
    }
  return
}
