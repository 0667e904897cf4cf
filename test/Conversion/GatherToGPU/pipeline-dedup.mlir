// RUN: gather-opt %s --gather-gpu-pipeline="chip=sm_90 format=isa" | FileCheck %s

// The GPU pipeline keeps one kernel per distinct gather
// (gather-dedup-gpu-kernels after outlining): the two identical block
// gathers launch one kernel, compiled once; the clamped one and the
// elements gather have their own.
// CHECK-LABEL: llvm.func @three
// CHECK:         gpu.launch_func {{.*}} @[[BLOCK:[a-z_0-9]+]]::@three_kernel
// CHECK:         gpu.launch_func {{.*}} @[[BLOCK]]::@three_kernel
// CHECK:         gpu.launch_func {{.*}} @[[CLAMP:[a-z_0-9]+]]::@three_kernel
// CHECK:         gpu.launch_func {{.*}} @[[ELEMENTS:[a-z_0-9]+]]::@three_kernel
// CHECK-COUNT-3: gpu.binary
// CHECK-NOT:     gpu.binary
func.func @three(%d: tensor<16x8xf32>, %i: tensor<4xi64>, %e: tensor<16x8xi64>) -> (tensor<4x8xf32>, tensor<4x8xf32>, tensor<4x8xf32>, tensor<16x8xf32>) {
  %i0 = tensor.empty() : tensor<4x8xf32>
  %0 = gather.block %d[%i] axis = 0 into %i0 : tensor<16x8xf32>, tensor<4xi64> into tensor<4x8xf32>
  %1 = gather.block %d[%i] axis = 0 into %i0 : tensor<16x8xf32>, tensor<4xi64> into tensor<4x8xf32>
  %2 = gather.block %d[%i] axis = 0 out_of_bounds = clamp into %i0 : tensor<16x8xf32>, tensor<4xi64> into tensor<4x8xf32>
  %i1 = tensor.empty() : tensor<16x8xf32>
  %3 = gather.elements %d[%e] axis = 1 into %i1 : tensor<16x8xf32>, tensor<16x8xi64> into tensor<16x8xf32>
  return %0, %1, %2, %3 : tensor<4x8xf32>, tensor<4x8xf32>, tensor<4x8xf32>, tensor<16x8xf32>
}
