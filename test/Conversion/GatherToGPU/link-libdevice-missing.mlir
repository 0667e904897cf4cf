// RUN: gather-opt %s --split-input-file --gather-link-libdevice -verify-diagnostics | FileCheck %s

// Without libdevice, a kernel module that calls it is an error that names
// the function (not PTX with an unresolved call that fails when the driver
// loads it); modules that do not call it pass unchanged.
// CHECK-LABEL: gpu.module @plain_only
// CHECK-SAME:    [#nvvm.target<chip = "sm_90">]
module attributes {gpu.container_module} {
  gpu.module @plain_only [#nvvm.target<chip = "sm_90">] {
    llvm.func @k(%x: f32) -> f32 {
      llvm.return %x : f32
    }
  }
}

// -----

module attributes {gpu.container_module} {
  // expected-error @below {{kernel module calls @__nv_expf of CUDA's libdevice, which was not found: give its libdevice.10.bc (the GPU pipeline's libdevice option) or set CUDA_HOME}}
  gpu.module @calls_exp [#nvvm.target<chip = "sm_90">] {
    llvm.func @__nv_expf(f32) -> f32
  }
}
