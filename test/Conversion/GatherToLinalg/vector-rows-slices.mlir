// Element gathers along input rows are vectorized on slices of their input
// too, where the rows keep a unit stride: gather.elements with dynamic
// sizes reads a slice of its data (its indices may be smaller), and so may
// a producer's slice. A slice of another innermost stride, and the
// linear-offset forms (an axis that is not the innermost, which collapse
// the input to one dimension), keep the scalar form.
// RUN: gather-opt %s --convert-gather-to-linalg --convert-gather-checks-to-runtime --split-input-file | FileCheck %s

// CHECK-LABEL: func.func @dynamic_elements_along_rows
// CHECK-SAME:      %[[D:[^:]*]]: tensor<?x?xf32>
// CHECK:         %[[VIEW:.*]] = tensor.extract_slice %[[D]][0, 0] [%{{.*}}, %{{.*}}] [1, 1]
// CHECK:         scf.forall
// CHECK:           vector.gather %[[VIEW]]
// CHECK-NOT:     {{^ *(%[^ ]* = )?gather\.}}
func.func @dynamic_elements_along_rows(%d: tensor<?x?xf32>, %i: tensor<?x?xi64>, %e: tensor<?x?xf32>) -> tensor<?x?xf32> {
  %r = gather.elements %d[%i] axis = 1 into %e : tensor<?x?xf32>, tensor<?x?xi64> into tensor<?x?xf32>
  return %r : tensor<?x?xf32>
}

// -----

// CHECK-LABEL: func.func @unit_stride_slice_along_rows
// CHECK:         %[[VIEW:.*]] = tensor.extract_slice %{{.*}}[0, 3] [64, 32] [1, 1]
// CHECK:         vector.gather %[[VIEW]]
func.func @unit_stride_slice_along_rows(%d: tensor<64x64xf32>, %i: tensor<64x8xi64>) -> tensor<64x8xf32> {
  %s = tensor.extract_slice %d[0, 3] [64, 32] [1, 1] : tensor<64x64xf32> to tensor<64x32xf32>
  %e = tensor.empty() : tensor<64x8xf32>
  %r = gather.elements %s[%i] axis = 1 into %e : tensor<64x32xf32>, tensor<64x8xi64> into tensor<64x8xf32>
  return %r : tensor<64x8xf32>
}

// -----

// CHECK-LABEL: func.func @strided_slice_scalar
// CHECK-NOT:     vector.gather
// CHECK:         linalg.generic
func.func @strided_slice_scalar(%d: tensor<64x64xf32>, %i: tensor<64x8xi64>) -> tensor<64x8xf32> {
  %s = tensor.extract_slice %d[0, 0] [64, 32] [1, 2] : tensor<64x64xf32> to tensor<64x32xf32>
  %e = tensor.empty() : tensor<64x8xf32>
  %r = gather.elements %s[%i] axis = 1 into %e : tensor<64x32xf32>, tensor<64x8xi64> into tensor<64x8xf32>
  return %r : tensor<64x8xf32>
}

// -----

// CHECK-LABEL: func.func @dynamic_elements_across_rows_scalar
// CHECK-NOT:     vector.gather
// CHECK:         linalg.generic
func.func @dynamic_elements_across_rows_scalar(%d: tensor<?x?xf32>, %i: tensor<?x?xi64>, %e: tensor<?x?xf32>) -> tensor<?x?xf32> {
  %r = gather.elements %d[%i] axis = 0 into %e : tensor<?x?xf32>, tensor<?x?xi64> into tensor<?x?xf32>
  return %r : tensor<?x?xf32>
}
