// RUN: gather-opt %s --pass-pipeline='builtin.module(func.func(gather-hoist-static-allocas))' --split-input-file | FileCheck %s

// A row's scratch buffer in an OpenMP loop body (the alloca scope
// convert-scf-to-openmp makes, and a serial loop inside it) goes to the
// start of the omp.parallel region: one buffer per thread.
// CHECK-LABEL: func.func @per_thread
// CHECK:         omp.parallel {
// CHECK-NEXT:      %[[BUF:.*]] = memref.alloca() : memref<512xindex>
// CHECK-NEXT:      omp.wsloop
// CHECK:             memref.alloca_scope
// CHECK:               scf.for
// CHECK-NOT:             memref.alloca
// CHECK:                 memref.store %{{.*}}, %[[BUF]]
func.func @per_thread(%n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  omp.parallel {
    omp.wsloop {
      omp.loop_nest (%i) : index = (%c0) to (%n) step (%c1) {
        memref.alloca_scope {
          scf.for %j = %c0 to %n step %c1 {
            %a = memref.alloca() : memref<512xindex>
            memref.store %j, %a[%i] : memref<512xindex>
          }
        }
        omp.yield
      }
    }
    omp.terminator
  }
  return
}

// -----

// In serial loops (scf.for is an allocation scope that frees nothing per
// iteration once lowered) the buffer goes to the function's entry.
// CHECK-LABEL: func.func @serial_loops
// CHECK-NEXT:    %[[BUF:.*]] = memref.alloca() : memref<64xf32>
// CHECK:         scf.for
// CHECK:           scf.for
// CHECK-NOT:         memref.alloca
// CHECK:             memref.store %{{.*}}, %[[BUF]]
func.func @serial_loops(%n: index, %v: f32) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  scf.for %i = %c0 to %n step %c1 {
    scf.for %j = %c0 to %n step %c1 {
      %a = memref.alloca() : memref<64xf32>
      memref.store %v, %a[%j] : memref<64xf32>
    }
  }
  return
}

// -----

// A buffer of dynamic size stays where its size is known.
// CHECK-LABEL: func.func @dynamic_size_stays
// CHECK:         scf.for %[[I:.*]] =
// CHECK-NEXT:      memref.alloca(%[[I]]) : memref<?xf32>
func.func @dynamic_size_stays(%n: index, %v: f32) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  scf.for %i = %c0 to %n step %c1 {
    %a = memref.alloca(%i) : memref<?xf32>
    memref.store %v, %a[%c0] : memref<?xf32>
  }
  return
}
