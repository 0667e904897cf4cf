// RUN: gather-opt %s --convert-gather-to-tensor --split-input-file --verify-diagnostics | FileCheck %s

// Block gather on a middle axis: the index dimension is not leading in
// the multiaxis output, so tensor.gather's [3, 4, 1, 6] loses its unit dim
// and is transposed to [4, 3, 6].
// CHECK-LABEL: func.func @block_middle_axis
// CHECK-SAME:    %[[D:[^:]*]]: tensor<4x5x6xf32>
// CHECK:         %[[IDX:.*]] = tensor.collapse_shape %{{.*}} : tensor<1x3x1x1xi64> into tensor<3x1xi64>
// CHECK:         %[[G:.*]] = tensor.gather %[[D]][%[[IDX]]] gather_dims([1]) : (tensor<4x5x6xf32>, tensor<3x1xi64>) -> tensor<3x4x1x6xf32>
// CHECK:         %[[C:.*]] = tensor.collapse_shape %[[G]] {{\[\[}}0], [1], [2, 3]] : tensor<3x4x1x6xf32> into tensor<3x4x6xf32>
// CHECK:         %[[T:.*]] = linalg.transpose ins(%[[C]] : tensor<3x4x6xf32>) outs(%{{.*}} : tensor<4x3x6xf32>) permutation = [1, 0, 2]
// CHECK-NOT:     gather.
// CHECK:         return %[[T]]
func.func @block_middle_axis(%d: tensor<4x5x6xf32>, %i: tensor<3xi64>) -> tensor<4x3x6xf32> {
  %init_0 = tensor.empty() : tensor<4x3x6xf32>
  %0 = gather.block %d[%i] axis = 1 negative_indices = out_of_bounds out_of_bounds = unchecked into %init_0 : tensor<4x5x6xf32>, tensor<3xi64> into tensor<4x3x6xf32>
  return %0 : tensor<4x3x6xf32>
}

// -----

// GatherND: coordinates over two leading dims, a dynamic number of rows.
// CHECK-LABEL: func.func @nd_rows
// CHECK:         tensor.gather %{{.*}}[%{{.*}}] gather_dims([0, 1]) : (tensor<4x5x6xf32>, tensor<?x2xi32>) -> tensor<?x1x1x6xf32>
// CHECK-NOT:     linalg.transpose
// CHECK-NOT:     gather.
func.func @nd_rows(%d: tensor<4x5x6xf32>, %i: tensor<?x2xi32>, %init_0: tensor<?x6xf32>) -> tensor<?x6xf32> {
  %0 = gather.nd %d[%i] batch_dims = 0 negative_indices = out_of_bounds out_of_bounds = unchecked into %init_0 : tensor<4x5x6xf32>, tensor<?x2xi32> into tensor<?x6xf32>
  return %0 : tensor<?x6xf32>
}

// -----

// The default policy (wrap, error) has no tensor.gather form
// (gather-to-tensor-assume.mlir: unless assume-in-bounds).
func.func @default_policy(%d: tensor<4x3xf32>, %i: tensor<2xi64>) -> tensor<2x3xf32> {
  %init_0 = tensor.empty() : tensor<2x3xf32>
  // expected-error @+1 {{'gather.multiaxis' op has an index policy (negative_indices = wrap, out_of_bounds = error) that tensor.gather cannot express; only unchecked gathers without negative wrap convert (or pass assume-in-bounds)}}
  %0 = gather.block %d[%i] axis = 0 into %init_0 : tensor<4x3xf32>, tensor<2xi64> into tensor<2x3xf32>
  return %0 : tensor<2x3xf32>
}

// -----

// GatherElements pairs data and indices element-wise along dimension 0.
func.func @elements_pairs_dims(%d: tensor<4x3xf32>, %i: tensor<4x2xi64>) -> tensor<4x2xf32> {
  %init_0 = tensor.empty() : tensor<4x2xf32>
  // expected-error @+1 {{'gather.multiaxis' op dimension 0 pairs input and indices element-wise (input size 4, indices size 4), which tensor.gather cannot express}}
  %0 = gather.elements %d[%i] axis = 1 negative_indices = out_of_bounds out_of_bounds = unchecked into %init_0 : tensor<4x3xf32>, tensor<4x2xi64> into tensor<4x2xf32>
  return %0 : tensor<4x2xf32>
}

// -----

func.func @axes_not_increasing(%d: tensor<4x3xf32>, %i: tensor<5x1x2xi64>) -> tensor<5x1xf32> {
  %e = tensor.expand_shape %d [[0, 1], [2]] output_shape [1, 4, 3] : tensor<4x3xf32> into tensor<1x4x3xf32>
  %init_0 = tensor.empty() : tensor<5x1x1xf32>
  // expected-error @+1 {{'gather.multiaxis' op axes must be increasing to become tensor.gather gather_dims, got axis 1 after 2}}
  %0 = gather.multiaxis %e[%i] axes = [2, 1] negative_indices = out_of_bounds out_of_bounds = unchecked into %init_0 : tensor<1x4x3xf32>, tensor<5x1x2xi64> into tensor<5x1x1xf32>
  %c = tensor.collapse_shape %0 [[0], [1, 2]] : tensor<5x1x1xf32> into tensor<5x1xf32>
  return %c : tensor<5x1xf32>
}

// -----

func.func @elements_dynamic(%d: tensor<?x?xf32>, %i: tensor<?x?xi64>, %init_0: tensor<?x?xf32>) -> tensor<?x?xf32> {
  // expected-error @+1 {{'gather.elements' op has dynamic sizes that must be checked at run time; it has no tensor.gather form}}
  %0 = gather.elements %d[%i] axis = 1 negative_indices = out_of_bounds out_of_bounds = unchecked into %init_0 : tensor<?x?xf32>, tensor<?x?xi64> into tensor<?x?xf32>
  return %0 : tensor<?x?xf32>
}

// -----

// No axes (a broadcast decided at run time) is no gather at all for
// tensor.gather.
func.func @no_axes(%d: tensor<?x3xf32>, %i: tensor<?x1xi64>, %init_0: tensor<?x3xf32>) -> tensor<?x3xf32> {
  // expected-error @+1 {{'gather.multiaxis' op has no axes; tensor.gather needs at least one gather dimension}}
  %0 = gather.multiaxis %d[%i] axes = [] negative_indices = out_of_bounds out_of_bounds = unchecked into %init_0 : tensor<?x3xf32>, tensor<?x1xi64> into tensor<?x3xf32>
  return %0 : tensor<?x3xf32>
}
