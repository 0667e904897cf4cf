// RUN: gather-opt %s --split-input-file --verify-diagnostics --pass-pipeline='builtin.module(func.func(gather-parallel-outer-loops))' | FileCheck %s
// RUN: not gather-opt %s --split-input-file --pass-pipeline='builtin.module(func.func(gather-parallel-outer-loops{target-cpu=pentium9}))' 2>&1 | FileCheck %s --check-prefix=CPU
// CPU: error: unknown target CPU 'pentium9'

// The parallel prefix reaches four iterations per core of the target
// description: 16 batches are enough for 2 cores (16 at least), not for 16
// cores (64), which keep 16 x 4096 iterations parallel.

// CHECK-LABEL: func.func @two_cores
// CHECK:         scf.parallel (%{{[^,]*}}) = (%{{.*}}) to (%{{.*}}) step (%{{.*}}) {
// CHECK-NEXT:      scf.for
module attributes {dlti.target_system_spec = #dlti.target_system_spec<"CPU" = #dlti.target_device_spec<"cores" = 2 : i64>>} {
  func.func @two_cores(%out: memref<16x4096x4xf32>, %v: f32) {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c4 = arith.constant 4 : index
    %c16 = arith.constant 16 : index
    %c4096 = arith.constant 4096 : index
    scf.parallel (%b, %r, %k) = (%c0, %c0, %c0) to (%c16, %c4096, %c4) step (%c1, %c1, %c1) {
      memref.store %v, %out[%b, %r, %k] : memref<16x4096x4xf32>
      scf.reduce
    }
    return
  }
}

// -----

// CHECK-LABEL: func.func @sixteen_cores
// CHECK:         scf.parallel (%{{[^,]*}}, %{{[^,]*}}) = (%{{.*}}, %{{.*}}) to (%{{.*}}, %{{.*}}) step (%{{.*}}, %{{.*}}) {
// CHECK-NEXT:      scf.for
module attributes {dlti.target_system_spec = #dlti.target_system_spec<"CPU" = #dlti.target_device_spec<"cores" = 16 : i64>>} {
  func.func @sixteen_cores(%out: memref<16x4096x4xf32>, %v: f32) {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c4 = arith.constant 4 : index
    %c16 = arith.constant 16 : index
    %c4096 = arith.constant 4096 : index
    scf.parallel (%b, %r, %k) = (%c0, %c0, %c0) to (%c16, %c4096, %c4) step (%c1, %c1, %c1) {
      memref.store %v, %out[%b, %r, %k] : memref<16x4096x4xf32>
      scf.reduce
    }
    return
  }
}

// -----

// The cores unknown (no description, no CPU name): 16 iterations.
// CHECK-LABEL: func.func @cores_unknown
// CHECK:         scf.parallel (%{{[^,]*}}) = (%{{.*}}) to (%{{.*}}) step (%{{.*}}) {
func.func @cores_unknown(%out: memref<16x4096x4xf32>, %v: f32) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %c16 = arith.constant 16 : index
  %c4096 = arith.constant 4096 : index
  scf.parallel (%b, %r, %k) = (%c0, %c0, %c0) to (%c16, %c4096, %c4) step (%c1, %c1, %c1) {
    memref.store %v, %out[%b, %r, %k] : memref<16x4096x4xf32>
    scf.reduce
  }
  return
}

// -----

// The description is read where the pass runs (each function).
module attributes {dlti.target_system_spec = #dlti.target_system_spec<"CPU" = #dlti.target_device_spec<"cores" = 0 : i64>>} {
  // expected-error @+1 {{the target description's CPU entry "cores" must be an integer in [1, 1048576], got 0 : i64}}
  func.func @cores_not_positive() {
    return
  }
}
