// The conversion runs on each function (in parallel under a pass manager):
// it writes nothing outside the function it lowers. The run-time checks
// stay ops of the function until convert-gather-checks-to-runtime makes
// the module's hook declaration, site strings and report functions.
// RUN: gather-opt %s --pass-pipeline="builtin.module(func.func(convert-gather-to-linalg))" | FileCheck %s --check-prefix=NESTED
// RUN: gather-opt %s --pass-pipeline="builtin.module(func.func(convert-gather-to-linalg),convert-gather-checks-to-runtime)" | FileCheck %s --check-prefix=CALLS

// NESTED-NOT:   func.func private
// NESTED-NOT:   memref.global
// NESTED-LABEL: func.func @first
// NESTED:         gather.check_indices {{.*}} assume_invalid for "gather.block"
// NESTED-LABEL: func.func @second
// NESTED:         gather.check_shape {{.*}} init_size_mismatch dim = 0
// NESTED:         gather.check_indices {{.*}} assume_invalid for "gather.elements"
// NESTED-NOT:   = gather.

// CALLS-DAG:    func.func private @__gather_runtime_error(i64, i64, i64, i64, i64, i64)
// CALLS-DAG:    func.func private @__gather_report_shape(
// CALLS-DAG:    func.func private @__gather_index_report_{{[0-9a-f]+}}(
// CALLS-LABEL:  func.func @first
// CALLS:          call @__gather_index_report_
// CALLS-LABEL:  func.func @second
// CALLS:          call @__gather_report_shape(
// CALLS-NOT:    gather.
func.func @first(%d: tensor<10x8xf32>, %i: tensor<4xi64>) -> tensor<4x8xf32> {
  %e = tensor.empty() : tensor<4x8xf32>
  %r = gather.block %d[%i] axis = 0 into %e : tensor<10x8xf32>, tensor<4xi64> into tensor<4x8xf32>
  return %r : tensor<4x8xf32>
}

func.func @second(%d: tensor<10x8xf32>, %i: tensor<?x8xi32>, %e: tensor<?x8xf32>) -> tensor<?x8xf32> {
  %r = gather.elements %d[%i] axis = 0 into %e : tensor<10x8xf32>, tensor<?x8xi32> into tensor<?x8xf32>
  return %r : tensor<?x8xf32>
}
