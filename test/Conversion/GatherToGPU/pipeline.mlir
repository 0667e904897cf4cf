// RUN: gather-opt %s --gather-gpu-pipeline="chip=sm_90 format=isa" | FileCheck %s
// RUN: gather-opt %s --gather-gpu-pipeline="chip=sm_80 threads-per-block=128 format=isa" | FileCheck %s --check-prefix=SM80

// The whole GPU pipeline: host code in the LLVM dialect that allocates the
// output on the device, checks the indices with one kernel, copies the flag
// back, and launches the gather kernel; kernels as PTX in gpu.binary ops.
// In the gather kernel the thread id's low bits are the innermost output
// coordinate (x & 7 for 8 columns): consecutive threads store consecutive
// floats.
// CHECK-LABEL: llvm.func @block
// CHECK:         llvm.call @mgpuMemAlloc
// CHECK:         llvm.call @mgpuMemset32
// CHECK:         gpu.launch_func {{.*}} threads in (%{{.*}}, %{{.*}}, %{{.*}}) : i64
// CHECK:         llvm.call @mgpuMemcpy
// CHECK:         llvm.call @mgpuStreamSynchronize
// CHECK:         llvm.cond_br
// CHECK:         gpu.launch_func
// CHECK:         llvm.call @__gather_runtime_error
// CHECK-NOT:     gather.
// CHECK:         gpu.binary @{{.*}} [#gpu.object<#nvvm.target<O = 3, chip = "sm_90", features = "+ptx80">, {{.*}}assembly = "{{.*}}.target sm_90{{.*}}setp.gt.u32 {{.*}}%p1, %r1, 39;{{.*}}and.b32 {{.*}}%r2, %r1, 7;{{.*}}ld.global.b32{{.*}}st.global.b32
// SM80:          gpu.binary @{{.*}}chip = "sm_80"{{.*}}.target sm_80{{.*}}.maxntid 128, 1, 1
func.func @block(%d: tensor<?x8xf32>, %i: tensor<5xi64>) -> tensor<5x8xf32> {
  %0 = gather.block %d[%i] axis = 0 : (tensor<?x8xf32>, tensor<5xi64>) -> tensor<5x8xf32>
  return %0 : tensor<5x8xf32>
}
