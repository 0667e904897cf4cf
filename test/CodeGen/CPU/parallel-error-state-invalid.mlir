// RUN: gather-opt %s --gather-parallel-error-state --verify-diagnostics

// A symbol of a run-time function's name and another type: the region
// cannot be given its caller's error state.
// expected-error @+1 {{'__gather_runtime_adopt_error_state' is the run-time library's; it must be a func.func of '(!llvm.ptr) -> !llvm.ptr'}}
func.func private @__gather_runtime_adopt_error_state(i64) -> i64
func.func private @program_function()
func.func @runtime_function_of_another_type() {
  omp.parallel {
    func.call @program_function() : () -> ()
    omp.terminator
  }
  return
}
