// RUN: gather-opt %s --canonicalize --convert-gather-to-linalg | FileCheck %s

// Under out_of_bounds = error the loops only raise a flag; the failing path
// scans the indices for the first invalid value and passes its details to
// the hook: value, data dimension 0, size 8, negative values wrap (1), the
// rank of the indices as written (1, not the multiaxis form's 2) and the
// position, mapped back through the unit-dimension reshape of the rewrite.
// CHECK-LABEL: func.func @block_error_report
// CHECK-DAG:     %[[SIZE:.*]] = arith.constant 8 : i64
// CHECK-DAG:     %[[SIX:.*]] = arith.constant 6 : i64
// CHECK:         memref.store %{{.*}}, %{{.*}}[] : memref<i8>
// CHECK:         %[[FIRST:.*]] = scf.while (%[[P:.*]] = %{{.*}}) : (index) -> index {
// CHECK:           tensor.extract %{{.*}} : tensor<5x1xi64>
// CHECK:           scf.condition
// CHECK:         } do {
// CHECK:         arith.cmpi ult, %[[FIRST]]
// CHECK:         %[[DETAILS:.*]] = memref.alloc() : memref<6xi64>
// CHECK:         memref.store %[[SIZE]], %[[DETAILS]]
// CHECK:         func.call @__gather_runtime_error({{.*}}, %[[SIX]], %{{.*}})
func.func @block_error_report(%d: tensor<8x4xf32>, %i: tensor<5xi64>) -> tensor<5x4xf32> {
  %e = tensor.empty() : tensor<5x4xf32>
  %0 = gather.block %d[%i] axis = 0 into %e : tensor<8x4xf32>, tensor<5xi64> into tensor<5x4xf32>
  return %0 : tensor<5x4xf32>
}

// Under clamp nothing is reported, so nothing is scanned.
// CHECK-LABEL: func.func @clamp_has_no_report
// CHECK-NOT:     scf.while
// CHECK-NOT:     __gather_runtime_error
// CHECK:         return
func.func @clamp_has_no_report(%d: tensor<8x4xf32>, %i: tensor<5xi64>) -> tensor<5x4xf32> {
  %e = tensor.empty() : tensor<5x4xf32>
  %0 = gather.block %d[%i] axis = 0 out_of_bounds = clamp into %e : tensor<8x4xf32>, tensor<5xi64> into tensor<5x4xf32>
  return %0 : tensor<5x4xf32>
}
