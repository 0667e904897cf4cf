// RUN: gather-opt %s --gather-link-libdevice="path=/cuda/libdevice.10.bc" | FileCheck %s

// A kernel module that calls libdevice links it; one that does not keeps
// its target as it was.
// CHECK-LABEL: gpu.module @calls_tanh
// CHECK-SAME:    #nvvm.target<chip = "sm_90", link = ["/cuda/libdevice.10.bc"]>
// CHECK-LABEL: gpu.module @plain
// CHECK-SAME:    [#nvvm.target<chip = "sm_90">]
module attributes {gpu.container_module} {
  gpu.module @calls_tanh [#nvvm.target<chip = "sm_90">] {
    llvm.func @__nv_tanhf(f32) -> f32
    llvm.func @k(%x: f32) -> f32 {
      %y = llvm.call @__nv_tanhf(%x) : (f32) -> f32
      llvm.return %y : f32
    }
  }
  gpu.module @plain [#nvvm.target<chip = "sm_90">] {
    llvm.func @k(%x: f32) -> f32 {
      llvm.return %x : f32
    }
  }
}
