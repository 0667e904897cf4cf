// RUN: gather-opt %s --gather-gpu-pipeline="chip=sm_90 format=isa" | FileCheck %s

// An embedding lookup on the GPU: each thread loads its row index once and
// copies 16 bytes of the row with one 128-bit load and store.
// CHECK: gpu.binary @embedding_kernel {{.*}}assembly = "{{.*}}ld.global.v4.b32{{.*}}st.global.v4.b32
func.func @embedding(%table: tensor<?x768xf32>, %ids: tensor<?xi64>, %init_0: tensor<?x768xf32>) -> tensor<?x768xf32> {
  %0 = gather.block %table[%ids] axis = 0 out_of_bounds = clamp into %init_0 : tensor<?x768xf32>, tensor<?xi64> into tensor<?x768xf32>
  return %0 : tensor<?x768xf32>
}

// Under `fill` a missed row is zeros: the same 128-bit load and store, the
// select applied to the four lanes.
// CHECK: gpu.binary @embedding_fill_kernel {{.*}}assembly = "{{.*}}ld.global.v4.b32{{.*}}selp.f32{{.*}}st.global.v4.b32
func.func @embedding_fill(%table: tensor<?x768xf32>, %ids: tensor<?xi64>, %init_0: tensor<?x768xf32>) -> tensor<?x768xf32> {
  %0 = gather.block %table[%ids] axis = 0 out_of_bounds = fill into %init_0 : tensor<?x768xf32>, tensor<?xi64> into tensor<?x768xf32>
  return %0 : tensor<?x768xf32>
}
