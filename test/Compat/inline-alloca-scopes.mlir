// RUN: gather-opt %s --pass-pipeline='builtin.module(func.func(gather-inline-alloca-scopes))' | FileCheck %s

// A scope whose body only calls (the error hook) is inlined: a call does
// not allocate in the caller's frame.
// CHECK-LABEL: func.func @scope_with_call
// CHECK-NOT:     memref.alloca_scope
// CHECK:         scf.for
// CHECK:           func.call @hook
func.func private @hook(i64)
func.func @scope_with_call(%n: index, %x: i64) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  memref.alloca_scope {
    scf.for %i = %c0 to %n step %c1 {
      func.call @hook(%x) : (i64) -> ()
    }
  }
  return
}

// A scope that allocates on the stack stays.
// CHECK-LABEL: func.func @scope_with_alloca
// CHECK:         memref.alloca_scope
// CHECK:           memref.alloca
func.func @scope_with_alloca(%v: f32) {
  memref.alloca_scope {
    %a = memref.alloca() : memref<f32>
    memref.store %v, %a[] : memref<f32>
  }
  return
}

// An alloca inside a nested allocation scope belongs to that scope: the
// outer one is inlined, the inner one stays.
// CHECK-LABEL: func.func @nested_scope
// CHECK-NEXT:    memref.alloca_scope {
// CHECK-NEXT:      memref.alloca
// CHECK-NOT:     memref.alloca_scope
func.func @nested_scope(%v: f32) {
  memref.alloca_scope {
    memref.alloca_scope {
      %a = memref.alloca() : memref<f32>
      memref.store %v, %a[] : memref<f32>
    }
  }
  return
}
