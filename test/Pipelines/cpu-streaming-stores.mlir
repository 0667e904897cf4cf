// Rows of an output over half the L3 (here the description's 64 KiB) reach
// LLVM IR with two copies of the loop over a row's chunks (of eight 8-lane
// registers, for a row of 768 f32): one of aligned non-temporal stores
// (vmovntps), taken where the output is aligned at run time (the condition
// computed before the rows' loop), and the plain one; sfence after the
// rows' loop where the condition held. (40 rows are too few for threads:
// the loop is serial.)
// Offset-table rows (an NHWC lookup, 32 KiB of output) write their
// elements a register at a time, so they stream the same way.
// RUN: gather-opt %s --gather-cpu-pipeline="target-cpu=x86-64-v3 parallel" | mlir-translate --mlir-to-llvmir | FileCheck %s

// CHECK-LABEL: define {{.*}} @rows
// CHECK:         icmp slt i64 %{{.*}}, 768
// CHECK-COUNT-8: store <8 x float> %{{.*}}, ptr %{{.*}}, align 32, !nontemporal
// CHECK-NOT:     !nontemporal
// CHECK:         icmp slt i64 %{{.*}}, 768
// CHECK-COUNT-8: store <8 x float> %{{.*}}, ptr %{{.*}}, align 4{{$}}
// CHECK-NOT:     store <8 x float>
// CHECK:         call void @llvm.x86.sse.sfence()
// CHECK-NOT:     store <8 x float>
// CHECK:         ret
// CHECK-LABEL: define {{.*}} @offset_table_rows
// CHECK:         store <8 x float> %{{.*}}, ptr %{{.*}}, align 32, !nontemporal
// CHECK-NOT:     store float
// CHECK:         store <8 x float> %{{.*}}, ptr %{{.*}}, align 4{{$}}
// CHECK-NOT:     store float
// CHECK:         call void @llvm.x86.sse.sfence()
// CHECK:         ret
module attributes {dlti.target_system_spec = #dlti.target_system_spec<"CPU" = #dlti.target_device_spec<"L3_cache_size_in_bytes" = 65536 : i64>>} {
  func.func @rows(%d: tensor<300x768xf32>, %i: tensor<40xi64>) -> tensor<40x768xf32> {
    %e = tensor.empty() : tensor<40x768xf32>
    %r = gather.block %d[%i] axis = 0 into %e : tensor<300x768xf32>, tensor<40xi64> into tensor<40x768xf32>
    return %r : tensor<40x768xf32>
  }
  func.func @offset_table_rows(%d: tensor<4x8x8x64xf32>, %i: tensor<8x1x1x32xi64>) -> tensor<8x8x8x16xf32> {
    %e = tensor.empty() : tensor<8x8x8x16xf32>
    %r = gather.multiaxis %d[%i] axes = [0, 3] into %e : tensor<4x8x8x64xf32>, tensor<8x1x1x32xi64> into tensor<8x8x8x16xf32>
    return %r : tensor<8x8x8x16xf32>
  }
}
