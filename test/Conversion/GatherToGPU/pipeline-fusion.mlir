// RUN: gather-opt %s --gather-gpu-pipeline=format=isa | FileCheck %s --check-prefix=FUSED
// RUN: gather-opt %s --gather-gpu-pipeline="format=isa fuse-consumers=0" | FileCheck %s --check-prefix=UNFUSED

// The GPU pipeline fuses an embedding lookup, its bias add and tanh into
// one kernel (gather-fuse-device-consumers); without fusion they are two.
// FUSED-LABEL:   llvm.func @embedding_bias_tanh
// FUSED-COUNT-1:   gpu.launch_func
// FUSED-NOT:       gpu.launch_func
// FUSED:         gpu.binary
// UNFUSED-LABEL: llvm.func @embedding_bias_tanh
// UNFUSED-COUNT-2: gpu.launch_func
// UNFUSED-NOT:     gpu.launch_func
// UNFUSED:       gpu.binary
func.func @embedding_bias_tanh(%table: tensor<1000x64xf32>, %ids: tensor<256xi64>, %bias: tensor<64xf32>) -> tensor<256x64xf32> {
  %i = tensor.empty() : tensor<256x64xf32>
  %g = gather.block %table[%ids] axis = 0 into %i : tensor<1000x64xf32>, tensor<256xi64> into tensor<256x64xf32>
  %e = tensor.empty() : tensor<256x64xf32>
  %y = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%g, %bias : tensor<256x64xf32>, tensor<64xf32>) outs(%e : tensor<256x64xf32>) {
  ^bb0(%a: f32, %b: f32, %o: f32):
    %s = arith.addf %a, %b : f32
    %t = math.tanh %s : f32
    linalg.yield %t : f32
  } -> tensor<256x64xf32>
  return %y : tensor<256x64xf32>
}
