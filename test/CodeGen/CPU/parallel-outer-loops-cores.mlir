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

// The serial threshold from the description (parallel_min_bytes): 96 rows
// of 768 f16 (144 KiB) run serially under the default 160 KiB, in parallel
// with 64 KiB; 16 x 4096 x 4 f32 (1 MiB) in parallel by default, serially
// with 2 MiB.
// CHECK-LABEL: func.func @f16_rows_threshold_lowered
// CHECK:         scf.parallel
// CHECK:           memref.copy
module attributes {dlti.target_system_spec = #dlti.target_system_spec<"CPU" = #dlti.target_device_spec<"parallel_min_bytes" = 65536 : i64>>} {
  func.func @f16_rows_threshold_lowered(%table: memref<30000x768xf16>, %ids: memref<96xindex>, %out: memref<96x768xf16>) {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c96 = arith.constant 96 : index
    scf.parallel (%r) = (%c0) to (%c96) step (%c1) {
      %id = memref.load %ids[%r] : memref<96xindex>
      %row = memref.subview %table[%id, 0] [1, 768] [1, 1] : memref<30000x768xf16> to memref<1x768xf16, strided<[768, 1], offset: ?>>
      %dst = memref.subview %out[%r, 0] [1, 768] [1, 1] : memref<96x768xf16> to memref<1x768xf16, strided<[768, 1], offset: ?>>
      memref.copy %row, %dst : memref<1x768xf16, strided<[768, 1], offset: ?>> to memref<1x768xf16, strided<[768, 1], offset: ?>>
      scf.reduce
    }
    return
  }
}

// -----

// CHECK-LABEL: func.func @stores_threshold_raised
// CHECK-NOT:     scf.parallel
// CHECK:         scf.for
module attributes {dlti.target_system_spec = #dlti.target_system_spec<"CPU" = #dlti.target_device_spec<"parallel_min_bytes" = 2097152 : i64>>} {
  func.func @stores_threshold_raised(%out: memref<16x4096x4xf32>, %v: f32) {
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

module attributes {dlti.target_system_spec = #dlti.target_system_spec<"CPU" = #dlti.target_device_spec<"parallel_min_bytes" = -1 : i64>>} {
  // expected-error @+1 {{the target description's CPU entry "parallel_min_bytes" must be an integer in [0, 1099511627776], got -1 : i64}}
  func.func @parallel_min_bytes_negative() {
    return
  }
}

// -----

// The description is read where the pass runs (each function).
module attributes {dlti.target_system_spec = #dlti.target_system_spec<"CPU" = #dlti.target_device_spec<"cores" = 0 : i64>>} {
  // expected-error @+1 {{the target description's CPU entry "cores" must be an integer in [1, 1048576], got 0 : i64}}
  func.func @cores_not_positive() {
    return
  }
}
