// RUN: gather-opt %s --convert-gather-to-tensor=assume-in-bounds | FileCheck %s

// With assume-in-bounds the policy is dropped: the caller promises every
// index is in range and non-negative.
// CHECK-LABEL: func.func @default_policy
// CHECK:         tensor.gather %{{.*}}[%{{.*}}] gather_dims([0]) : (tensor<4x3xf32>, tensor<2x1xi64>) -> tensor<2x1x3xf32>
// CHECK-NOT:     gather.
func.func @default_policy(%d: tensor<4x3xf32>, %i: tensor<2xi64>) -> tensor<2x3xf32> {
  %init_0 = tensor.empty() : tensor<2x3xf32>
  %0 = gather.block %d[%i] axis = 0 into %init_0 : tensor<4x3xf32>, tensor<2xi64> into tensor<2x3xf32>
  return %0 : tensor<2x3xf32>
}
