// RUN: gather-opt %s --gather-gpu-pipeline=format=isa | FileCheck %s

// Two chained gathers under `error`: one stream for the call, the kernels
// and the copies of both error flags queued on it, the buffers freed on it,
// and one synchronization before the host reads the flags. Only the
// failing paths (the copy of the indices for a report) wait again.
// CHECK-LABEL: llvm.func @two
// CHECK:         llvm.call @mgpuStreamCreate
// CHECK-NOT:     llvm.call @mgpuStreamSynchronize
// CHECK:         gpu.launch_func
// CHECK-NOT:     llvm.call @mgpuStreamSynchronize
// CHECK:         gpu.launch_func
// CHECK-NOT:     llvm.call @mgpuStreamSynchronize
// CHECK-COUNT-2: llvm.call @mgpuMemcpy
// CHECK-NOT:     llvm.call @mgpuStreamSynchronize
// CHECK-COUNT-3: llvm.call @mgpuMemFree
// CHECK-NEXT:    llvm.call @mgpuStreamSynchronize
// CHECK-NEXT:    llvm.call @mgpuStreamDestroy
// CHECK-NEXT:    llvm.load
// CHECK:         llvm.cond_br
// CHECK:         llvm.call @mgpuStreamCreate
// CHECK-NEXT:    llvm.call @mgpuMemcpy
// CHECK-NEXT:    llvm.call @mgpuStreamSynchronize
// CHECK:         llvm.call @__gather_index_report_
func.func @two(%table: tensor<40x16xf32>, %ids: tensor<8xi64>, %ids2: tensor<8xi64>) -> tensor<8x16xf32> {
  %i = tensor.empty() : tensor<8x16xf32>
  %g = gather.block %table[%ids] axis = 0 into %i : tensor<40x16xf32>, tensor<8xi64> into tensor<8x16xf32>
  %i2 = tensor.empty() : tensor<8x16xf32>
  %h = gather.block %g[%ids2] axis = 0 into %i2 : tensor<8x16xf32>, tensor<8xi64> into tensor<8x16xf32>
  return %h : tensor<8x16xf32>
}
