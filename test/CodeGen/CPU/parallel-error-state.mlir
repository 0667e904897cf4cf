// RUN: gather-opt %s --split-input-file --gather-parallel-error-state | FileCheck %s

// A region that calls the error hook: its starting thread's state is read
// before it, each thread adopts it at the start and restores what it had
// at the end. The region without a call is left alone.
// CHECK-DAG:   func.func private @__gather_runtime_error_state() -> !llvm.ptr
// CHECK-DAG:   func.func private @__gather_runtime_adopt_error_state(!llvm.ptr) -> !llvm.ptr
// CHECK-LABEL: func.func @reports
// CHECK:         %[[STATE:.*]] = call @__gather_runtime_error_state() : () -> !llvm.ptr
// CHECK-NEXT:    omp.parallel {
// CHECK-NEXT:      %[[PREVIOUS:.*]] = func.call @__gather_runtime_adopt_error_state(%[[STATE]]) : (!llvm.ptr) -> !llvm.ptr
// CHECK:           func.call @__gather_runtime_error(
// CHECK:           func.call @__gather_runtime_adopt_error_state(%[[PREVIOUS]]) : (!llvm.ptr) -> !llvm.ptr
// CHECK-NEXT:      omp.terminator
// CHECK-LABEL: func.func @no_call
// CHECK-NOT:     call
// CHECK:         omp.parallel {
// CHECK-NEXT:      memref.store
// CHECK-NEXT:      omp.terminator
func.func private @__gather_runtime_error(i64, i64, i64, i64, i64, i64)
func.func @reports(%a: i64) {
  omp.parallel {
    func.call @__gather_runtime_error(%a, %a, %a, %a, %a, %a) : (i64, i64, i64, i64, i64, i64) -> ()
    omp.terminator
  }
  return
}
func.func @no_call(%m: memref<4xf32>, %v: f32) {
  %c0 = arith.constant 0 : index
  omp.parallel {
    memref.store %v, %m[%c0] : memref<4xf32>
    omp.terminator
  }
  return
}

// -----

// Nested regions: the inner one adopts, in the outer one's threads, the
// state they adopted; a region of several blocks restores it before each
// terminator.
// CHECK-LABEL: func.func @nested
// CHECK:         %[[OUTER:.*]] = call @__gather_runtime_error_state()
// CHECK-NEXT:    omp.parallel {
// CHECK-NEXT:      %[[P0:.*]] = func.call @__gather_runtime_adopt_error_state(%[[OUTER]])
// CHECK-NEXT:      %[[INNER:.*]] = func.call @__gather_runtime_error_state()
// CHECK-NEXT:      omp.parallel {
// CHECK-NEXT:        %[[P1:.*]] = func.call @__gather_runtime_adopt_error_state(%[[INNER]])
// CHECK-NEXT:        cf.cond_br
// CHECK:           ^bb1:
// CHECK-NEXT:        func.call @program_function()
// CHECK-NEXT:        func.call @__gather_runtime_adopt_error_state(%[[P1]])
// CHECK-NEXT:        omp.terminator
// CHECK:           ^bb2:
// CHECK-NEXT:        func.call @__gather_runtime_adopt_error_state(%[[P1]])
// CHECK-NEXT:        omp.terminator
// CHECK:           func.call @__gather_runtime_adopt_error_state(%[[P0]])
// CHECK-NEXT:      omp.terminator
func.func private @program_function()
func.func @nested(%c: i1) {
  omp.parallel {
    omp.parallel {
      cf.cond_br %c, ^bb1, ^bb2
    ^bb1:
      func.call @program_function() : () -> ()
      omp.terminator
    ^bb2:
      omp.terminator
    }
    omp.terminator
  }
  return
}

// -----

// The module's own declaration is used.
// CHECK-LABEL: module
// CHECK-COUNT-1: func.func private @__gather_runtime_error_state
// CHECK-NOT:     func.func private @__gather_runtime_error_state
func.func private @__gather_runtime_error_state() -> !llvm.ptr
func.func private @program_function()
func.func @declared() {
  omp.parallel {
    func.call @program_function() : () -> ()
    omp.terminator
  }
  return
}

