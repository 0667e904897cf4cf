// RUN: gather-opt %s --gather-vector-length-guard --verify-diagnostics

// The guard reports through the run-time library's hook: a function of its
// name and another type cannot be that hook.
// expected-error @+1 {{'__gather_runtime_error' is the run-time library's; it must be an llvm.func of '!llvm.func<void (i64, i64, i64, i64, i64, i64)>'}}
llvm.func @__gather_runtime_error(i64)
llvm.func @hook_of_another_type() vscale_range(2, 16) attributes {target_features = #llvm.target_features<["+sve"]>} {
  llvm.return
}
