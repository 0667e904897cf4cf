// RUN: gather-opt %s --convert-gather-to-gpu -split-input-file -verify-diagnostics
// RUN: gather-opt %s --gather-gpu-pipeline -split-input-file -verify-diagnostics

// The GPU lowering makes kernels from loops on tensors; a gather already on
// host buffers is rejected by name instead of left behind.
func.func @nd_on_buffers(%data: memref<4x3xf32>, %indices: memref<2x1xi64>, %init: memref<2x3xf32>) {
  // expected-error @+1 {{'gather.nd' op on buffers cannot be lowered to GPU kernels: lower gathers on tensors, before bufferization}}
  gather.nd %data[%indices] batch_dims = 0 into %init : memref<4x3xf32>, memref<2x1xi64> into memref<2x3xf32>
  return
}

// -----

func.func @block_on_buffers(%data: memref<4x?xi8>, %indices: memref<?xi32>, %init: memref<?x?xi8>) {
  // expected-error @+1 {{'gather.block' op on buffers cannot be lowered to GPU kernels: lower gathers on tensors, before bufferization}}
  gather.block %data[%indices] axis = 0 out_of_bounds = clamp into %init : memref<4x?xi8>, memref<?xi32> into memref<?x?xi8>
  return
}
