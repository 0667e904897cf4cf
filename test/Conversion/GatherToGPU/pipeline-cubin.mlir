// REQUIRES: ptxas
// RUN: gather-opt %s --gather-gpu-pipeline="chip=sm_90 format=bin" | FileCheck %s

// With ptxas and format=bin the binary is a cubin (an ELF image).
// The object has no properties: the compile times gpu-module-to-binary
// records there are dropped (gather-drop-object-times).
// CHECK: gpu.binary @{{.*}} [#gpu.object<#nvvm.target<O = 3, chip = "sm_90", features = "+ptx80">, bin = "\7FELF
func.func @elements(%d: tensor<4x?xf16>, %i: tensor<4x3xi32>) -> tensor<4x3xf16> {
  %init_0 = tensor.empty() : tensor<4x3xf16>
  %0 = gather.elements %d[%i] axis = 1 out_of_bounds = clamp into %init_0 : tensor<4x?xf16>, tensor<4x3xi32> into tensor<4x3xf16>
  return %0 : tensor<4x3xf16>
}
