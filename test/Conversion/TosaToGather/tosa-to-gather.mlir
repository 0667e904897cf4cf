// RUN: gather-opt %s --convert-tosa-gather-to-gather --split-input-file | FileCheck %s

// values [N, K, C], indices [N, W]: the indices get a unit last dimension,
// axis 1 is gathered, N pairs element-wise, C is copied. TOSA requires
// 0 <= index < K: negative indices do not wrap and out-of-range ones are an
// error (the default policy, not printed).
// CHECK-LABEL: func.func @tosa_gather
// CHECK-SAME:    %[[V:[^:]*]]: tensor<2x5x3xf32>, %[[I:[^:]*]]: tensor<2x4xi32>
// CHECK:         %[[IDX:.*]] = tensor.expand_shape %[[I]] {{\[\[}}0], [1, 2]] output_shape [2, 4, 1] : tensor<2x4xi32> into tensor<2x4x1xi32>
// CHECK:         %[[G:.*]] = gather.multiaxis %[[V]][%[[IDX]]] axes = [1] negative_indices = out_of_bounds into %{{.*}} : tensor<2x5x3xf32>, tensor<2x4x1xi32> into tensor<2x4x3xf32>
// CHECK-NOT:     out_of_bounds =
// CHECK-NOT:     tosa.gather
// CHECK:         return %[[G]]
func.func @tosa_gather(%v: tensor<2x5x3xf32>, %i: tensor<2x4xi32>) -> tensor<2x4x3xf32> {
  %0 = tosa.gather %v, %i : (tensor<2x5x3xf32>, tensor<2x4xi32>) -> tensor<2x4x3xf32>
  return %0 : tensor<2x4x3xf32>
}

// -----

// CHECK-LABEL: func.func @tosa_gather_dynamic
// CHECK:         gather.multiaxis %{{.*}}[%{{.*}}] axes = [1] negative_indices = out_of_bounds into %{{.*}} : tensor<?x?x8xi8>, tensor<?x?x1xi32> into tensor<?x?x8xi8>
func.func @tosa_gather_dynamic(%v: tensor<?x?x8xi8>, %i: tensor<?x?xi32>) -> tensor<?x?x8xi8> {
  %0 = tosa.gather %v, %i : (tensor<?x?x8xi8>, tensor<?x?xi32>) -> tensor<?x?x8xi8>
  return %0 : tensor<?x?x8xi8>
}

