// RUN: gather-opt %s --convert-tensor-gather-to-gather --split-input-file | FileCheck %s
// RUN: gather-opt %s --convert-tensor-gather-to-gather=out-of-bounds=clamp --split-input-file | FileCheck %s --check-prefix=CLAMP
// RUN: not gather-opt %s --convert-tensor-gather-to-gather=out-of-bounds=wrap 2>&1 | FileCheck %s --check-prefix=BADPOLICY

// Two gather dims, two index batch dims: the source gets two leading unit
// dims, the coordinate pairs go to the last indices dim, axes shift by 2.
// The default policy: no negative wrap, out-of-range indices are an error.
// CHECK-LABEL: func.func @two_gather_dims
// CHECK-SAME:    %[[S:[^:]*]]: tensor<4x5x6xf32>, %[[I:[^:]*]]: tensor<2x3x2xindex>
// CHECK:         %[[IN:.*]] = tensor.expand_shape %[[S]] {{\[\[}}0, 1, 2], [3], [4]] output_shape [1, 1, 4, 5, 6]
// CHECK:         %[[IDX:.*]] = tensor.expand_shape %[[I]] {{\[\[}}0], [1], [2, 3, 4]] output_shape [2, 3, 1, 1, 2]
// CHECK:         %[[G:.*]] = gather.multiaxis %[[IN]][%[[IDX]]] axes = [2, 4] negative_indices = out_of_bounds into %{{.*}} : tensor<1x1x4x5x6xf32>, tensor<2x3x1x1x2xindex> into tensor<2x3x1x5x1xf32>
// CHECK-NOT:     tensor.gather
// CHECK:         return %[[G]]
// CLAMP-LABEL: func.func @two_gather_dims
// CLAMP:         gather.multiaxis {{.*}} negative_indices = out_of_bounds out_of_bounds = clamp
// BADPOLICY: error: convert-tensor-gather-to-gather: unknown out-of-bounds policy 'wrap' (error, clamp, fill or unchecked)
func.func @two_gather_dims(%s: tensor<4x5x6xf32>, %i: tensor<2x3x2xindex>) -> tensor<2x3x1x5x1xf32> {
  %0 = tensor.gather %s[%i] gather_dims([0, 2]) : (tensor<4x5x6xf32>, tensor<2x3x2xindex>) -> tensor<2x3x1x5x1xf32>
  return %0 : tensor<2x3x1x5x1xf32>
}

// -----

// A rank-reduced result drops the unit gather dimension; dynamic sizes go
// through the reshapes' dynamic forms.
// CHECK-LABEL: func.func @rank_reduced_dynamic
// CHECK-SAME:    %[[S:[^:]*]]: tensor<4x?x6xf32>, %[[I:[^:]*]]: tensor<?x1xi32>
// CHECK:         %[[G:.*]] = gather.multiaxis %{{.*}}[%{{.*}}] axes = [2] negative_indices = out_of_bounds into %{{.*}} : tensor<1x4x?x6xf32>, tensor<?x1x1x1xi32> into tensor<?x4x1x6xf32>
// CHECK:         %[[R:.*]] = tensor.collapse_shape %[[G]] {{\[\[}}0], [1], [2, 3]] : tensor<?x4x1x6xf32> into tensor<?x4x6xf32>
// CHECK:         return %[[R]]
func.func @rank_reduced_dynamic(%s: tensor<4x?x6xf32>, %i: tensor<?x1xi32>) -> tensor<?x4x6xf32> {
  %0 = tensor.gather %s[%i] gather_dims([1]) : (tensor<4x?x6xf32>, tensor<?x1xi32>) -> tensor<?x4x6xf32>
  return %0 : tensor<?x4x6xf32>
}

// -----

// Indices without batch dimensions: no leading unit dims on the source.
// CHECK-LABEL: func.func @single_coordinate
// CHECK:         gather.multiaxis %{{.*}}[%{{.*}}] axes = [0] negative_indices = out_of_bounds into %{{.*}} : tensor<7x3xi8>, tensor<1x1xi64> into tensor<1x3xi8>
func.func @single_coordinate(%s: tensor<7x3xi8>, %i: tensor<1xi64>) -> tensor<1x3xi8> {
  %0 = tensor.gather %s[%i] gather_dims([0]) : (tensor<7x3xi8>, tensor<1xi64>) -> tensor<1x3xi8>
  return %0 : tensor<1x3xi8>
}
