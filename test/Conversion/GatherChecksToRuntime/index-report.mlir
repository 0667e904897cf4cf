// RUN: gather-opt %s --canonicalize --convert-gather-to-linalg --convert-gather-checks-to-runtime --canonicalize --cse | FileCheck %s

// Under out_of_bounds = error the loops only raise a flag; the failing path
// calls the index report: one private function per signature and policy,
// shared by every gather that has them, that scans the indices for the
// first invalid value and passes its details to the hook: value, data
// dimension, size, whether negative values wrap, the rank of the indices
// as written and the position in them. The gather passes its indices (any
// layout), per gathered dimension its size and the dimension to name, the
// sizes of the indices as written (5, not the multiaxis form's 5x1: the
// position is mapped back through the rewrite's reshape) and its site.
// Gathers that differ only in sizes share one report; another policy
// (negative_indices = out_of_bounds) has its own. The scan runs only
// where the call has recorded no error yet (a gather fused into each step
// of a loop reports from every step that read an invalid index).
// CHECK:       func.func private @__gather_index_report_[[WRAP:[0-9a-f]+]](%[[IDX:[^:]*]]: memref<?x?xi64, strided<[?, ?], offset: ?>>, %[[SIZE:[^:]*]]: index, %[[DIM:[^:]*]]: index, %[[WRITTEN:[^:]*]]: index, %[[SITE:[^:]*]]: i64, %[[LINE:[^:]*]]: i64, %[[COL:[^:]*]]: i64)
// CHECK-DAG:     %[[SIX:.*]] = arith.constant 6 : i64
// CHECK-DAG:     %[[ZERO:.*]] = arith.constant 0 : i32
// CHECK:         %[[RECORDED:.*]] = call @__gather_runtime_error_recorded() : () -> i32
// CHECK:         %[[NONE:.*]] = arith.cmpi eq, %[[RECORDED]], %[[ZERO]] : i32
// CHECK:         scf.if %[[NONE]] {
// CHECK:         %[[FIRST:.*]] = scf.while (%{{.*}} = %{{.*}}) : (index) -> index {
// CHECK:           memref.load %[[IDX]]
// CHECK:           scf.condition
// CHECK:         } do {
// CHECK:         arith.cmpi ult, %[[FIRST]]
// CHECK:         %[[POS:.*]] = arith.remui %[[FIRST]], %[[WRITTEN]] : index
// CHECK:         %[[DETAILS:.*]] = memref.alloc() : memref<6xi64>
// CHECK:         %[[SIZE64:.*]] = arith.index_cast %[[SIZE]] : index to i64
// CHECK:         memref.store %[[SIZE64]], %[[DETAILS]]
// CHECK:         %[[POS64:.*]] = arith.index_cast %[[POS]] : index to i64
// CHECK:         memref.store %[[POS64]], %[[DETAILS]]
// CHECK:         func.call @__gather_runtime_error(%[[SITE]], %[[LINE]], %[[COL]], %{{.*}}, %[[SIX]], %{{.*}})
// CHECK:       func.func private @__gather_runtime_error_recorded() -> i32
// CHECK:       func.func private @__gather_index_report_[[OOB:[0-9a-f]+]](
// CHECK:       func.func private @__gather_runtime_error(i64, i64, i64, i64, i64, i64)

// CHECK-LABEL: func.func @block_error_report
// CHECK-DAG:     %[[C8:.*]] = arith.constant 8 : index
// CHECK-DAG:     %[[C5:.*]] = arith.constant 5 : index
// CHECK-DAG:     %[[C0:.*]] = arith.constant 0 : index
// CHECK:         memref.store %{{.*}}, %{{.*}}[] : memref<i8>
// CHECK:         %[[BUF:.*]] = bufferization.to_buffer %{{.*}} read_only : tensor<5x1xi64>
// CHECK:         %[[ANY:.*]] = memref.cast %[[BUF]]
// CHECK:         func.call @__gather_index_report_[[WRAP]](%[[ANY]], %[[C8]], %[[C0]], %[[C5]], %{{.*}}, %{{.*}}, %{{.*}})
// CHECK-NOT:     scf.while
func.func @block_error_report(%d: tensor<8x4xf32>, %i: tensor<5xi64>) -> tensor<5x4xf32> {
  %e = tensor.empty() : tensor<5x4xf32>
  %0 = gather.block %d[%i] axis = 0 into %e : tensor<8x4xf32>, tensor<5xi64> into tensor<5x4xf32>
  return %0 : tensor<5x4xf32>
}

// CHECK-LABEL: func.func @reports_shared
// CHECK:         func.call @__gather_index_report_[[WRAP]](
// CHECK:         func.call @__gather_index_report_[[WRAP]](
// CHECK:         func.call @__gather_index_report_[[OOB]](
func.func @reports_shared(%d: tensor<9x4xf32>, %i: tensor<7xi64>, %j: tensor<6xi64>) -> (tensor<7x4xf32>, tensor<6x4xf32>, tensor<6x4xf32>) {
  %e = tensor.empty() : tensor<7x4xf32>
  %0 = gather.block %d[%i] axis = 0 into %e : tensor<9x4xf32>, tensor<7xi64> into tensor<7x4xf32>
  %f = tensor.empty() : tensor<6x4xf32>
  %1 = gather.block %d[%j] axis = 0 into %f : tensor<9x4xf32>, tensor<6xi64> into tensor<6x4xf32>
  %2 = gather.block %d[%j] axis = 0 negative_indices = out_of_bounds into %f : tensor<9x4xf32>, tensor<6xi64> into tensor<6x4xf32>
  return %0, %1, %2 : tensor<7x4xf32>, tensor<6x4xf32>, tensor<6x4xf32>
}

// Under clamp nothing is reported, so nothing is scanned.
// CHECK-LABEL: func.func @clamp_has_no_report
// CHECK-NOT:     __gather_index_report
// CHECK-NOT:     __gather_runtime_error
// CHECK:         return
func.func @clamp_has_no_report(%d: tensor<8x4xf32>, %i: tensor<5xi64>) -> tensor<5x4xf32> {
  %e = tensor.empty() : tensor<5x4xf32>
  %0 = gather.block %d[%i] axis = 0 out_of_bounds = clamp into %e : tensor<8x4xf32>, tensor<5xi64> into tensor<5x4xf32>
  return %0 : tensor<5x4xf32>
}
