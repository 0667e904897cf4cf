// RUN: gather-opt %s --gather-gpu-pipeline="chip=sm_90 format=isa" | FileCheck %s
// RUN: gather-opt %s --gather-gpu-pipeline="chip=sm_80 threads-per-block=128 format=isa" | FileCheck %s --check-prefix=SM80
// RUN: gather-opt %s --gather-gpu-pipeline="chip=sm_90 format=isa" | FileCheck %s --check-prefix=NO-TIMES

// No compile times in the objects (gather-drop-object-times): the output
// depends on the input only.
// NO-TIMES-NOT: TimeInMs
// NO-TIMES:     gpu.binary
// NO-TIMES-NOT: TimeInMs

// The whole GPU pipeline: host code in the LLVM dialect that allocates the
// output and a zeroed error flag on the device, launches the gather kernel
// (which raises the flag for an invalid index), copies the flag back and
// reports; kernels as PTX in gpu.binary ops. In the gather kernel the thread
// id's low bit picks the 16-byte chunk of the 8-float row ((x << 2) & 4 is
// its first column): consecutive threads store consecutive 16-byte chunks
// with 128-bit accesses; 5 rows x 2 chunks = 10 threads do the work. The i64
// index is one 64-bit load; the row is read through a safe index, and the
// flag store is only on the failing branch.
// CHECK-LABEL: llvm.func @block
// CHECK:         llvm.call @mgpuMemAlloc
// CHECK:         llvm.call @mgpuMemAlloc
// CHECK:         llvm.call @mgpuMemset32
// CHECK:         gpu.launch_func {{.*}} threads in (%{{.*}}, %{{.*}}, %{{.*}}) : i64
// CHECK:         llvm.call @mgpuMemcpy
// CHECK:         llvm.call @mgpuStreamSynchronize
// CHECK:         llvm.cond_br
// CHECK:         llvm.call @__gather_index_report_
// CHECK-NOT:     gather.
// CHECK:         gpu.binary @{{.*}} [#gpu.object<#nvvm.target<O = 3, chip = "sm_90", features = "+ptx80">, {{.*}}assembly = "{{.*}}.target sm_90{{.*}}mov.u32 {{.*}}%r1, %tid.x;{{.*}}setp.gt.u32 {{.*}}%p1, %r1, 9;{{.*}}shl.b32 {{.*}}[[SHL:%r[0-9]+]], %r1, 2;{{.*}}and.b32 {{.*}}%r{{[0-9]+}}, [[SHL]], 4;{{.*}}ld.global.b64{{.*}}selp.b64{{.*}}ld.global.v4.b32{{.*}}bra{{.*}}st.global.b32 {{.*}}1;{{.*}}st.global.v4.b32
// SM80:          gpu.binary @{{.*}}chip = "sm_80"{{.*}}.target sm_80{{.*}}.maxntid 128, 1, 1
func.func @block(%d: tensor<?x8xf32>, %i: tensor<5xi64>) -> tensor<5x8xf32> {
  %init_0 = tensor.empty() : tensor<5x8xf32>
  %0 = gather.block %d[%i] axis = 0 into %init_0 : tensor<?x8xf32>, tensor<5xi64> into tensor<5x8xf32>
  return %0 : tensor<5x8xf32>
}
