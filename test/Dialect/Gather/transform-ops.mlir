// The transform dialect extension: each pattern set applied from a script.
// RUN: gather-opt %s --transform-interpreter --split-input-file | FileCheck %s

// CHECK-LABEL: func.func @to_multiaxis
// CHECK:         gather.multiaxis
// CHECK-NOT:     = gather.block
func.func @to_multiaxis(%d: tensor<5x3xf32>, %i: tensor<2xi64>) -> tensor<2x3xf32> {
  %init = tensor.empty() : tensor<2x3xf32>
  %0 = gather.block %d[%i] axis = 0 into %init : tensor<5x3xf32>, tensor<2xi64> into tensor<2x3xf32>
  return %0 : tensor<2x3xf32>
}
module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %f = transform.structured.match ops{["func.func"]} in %root : (!transform.any_op) -> !transform.any_op
    transform.apply_patterns to %f {
      transform.apply_patterns.gather.to_multiaxis
    } : !transform.any_op
    transform.yield
  }
}

// -----

// A gather of a gather of constants folds away.
// CHECK-LABEL: func.func @canonicalization
// CHECK-NOT:     = gather.
// CHECK:         arith.constant dense<[3.000000e+00, 1.000000e+00]>
func.func @canonicalization() -> tensor<2xf32> {
  %d = arith.constant dense<[1.0, 2.0, 3.0]> : tensor<3xf32>
  %i = arith.constant dense<[2, 0]> : tensor<2xi64>
  %init = tensor.empty() : tensor<2xf32>
  %0 = gather.block %d[%i] axis = 0 into %init : tensor<3xf32>, tensor<2xi64> into tensor<2xf32>
  return %0 : tensor<2xf32>
}
module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %f = transform.structured.match ops{["func.func"]} in %root : (!transform.any_op) -> !transform.any_op
    transform.apply_patterns to %f {
      transform.apply_patterns.gather.canonicalization
    } : !transform.any_op
    transform.yield
  }
}

// -----

// The CPU lowering without vectorization: a scalar linalg.generic. The
// patterns stay inside their payload (the function): the run-time checks
// are ops there, nothing is declared in the module.
// CHECK-NOT:   func.func private
// CHECK-LABEL: func.func @lower_to_linalg
// CHECK:         linalg.generic
// CHECK:         gather.check_indices %{{.*}} assume_invalid for "gather.elements"
// CHECK-NOT:     = gather.
func.func @lower_to_linalg(%d: tensor<5x3xf32>, %i: tensor<4x3xi32>) -> tensor<4x3xf32> {
  %init = tensor.empty() : tensor<4x3xf32>
  %0 = gather.elements %d[%i] axis = 0 into %init : tensor<5x3xf32>, tensor<4x3xi32> into tensor<4x3xf32>
  return %0 : tensor<4x3xf32>
}
module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %f = transform.structured.match ops{["func.func"]} in %root : (!transform.any_op) -> !transform.any_op
    transform.apply_patterns to %f {
      transform.apply_patterns.gather.lower_to_linalg {vectorize = false, block_copy = false}
    } : !transform.any_op
    transform.yield
  }
}

// -----

// The CPU lowering prefetches the embedding rows of a 150 MiB table; the
// bufferization dialect it creates them with is loaded by the extension.
// CHECK-LABEL: func.func @lower_to_linalg_prefetch
// CHECK:         bufferization.to_buffer
// CHECK:         scf.forall
// CHECK:           memref.prefetch
// CHECK-LABEL: func.func @lower_to_linalg_no_prefetch
// CHECK-NOT:     memref.prefetch
// CHECK:         return
func.func @lower_to_linalg_prefetch(%d: tensor<50000x768xf32>, %i: tensor<64xi64>) -> tensor<64x768xf32> {
  %init = tensor.empty() : tensor<64x768xf32>
  %0 = gather.block %d[%i] axis = 0 into %init : tensor<50000x768xf32>, tensor<64xi64> into tensor<64x768xf32>
  return %0 : tensor<64x768xf32>
}
func.func @lower_to_linalg_no_prefetch(%d: tensor<50000x768xf32>, %i: tensor<64xi64>) -> tensor<64x768xf32> {
  %init = tensor.empty() : tensor<64x768xf32>
  %0 = gather.block %d[%i] axis = 0 into %init : tensor<50000x768xf32>, tensor<64xi64> into tensor<64x768xf32>
  return %0 : tensor<64x768xf32>
}
module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %f = transform.structured.match ops{["func.func"]} attributes {sym_name = "lower_to_linalg_prefetch"} in %root : (!transform.any_op) -> !transform.any_op
    transform.apply_patterns to %f {
      transform.apply_patterns.gather.lower_to_linalg
    } : !transform.any_op
    %g = transform.structured.match ops{["func.func"]} attributes {sym_name = "lower_to_linalg_no_prefetch"} in %root : (!transform.any_op) -> !transform.any_op
    transform.apply_patterns to %g {
      transform.apply_patterns.gather.lower_to_linalg {prefetch = false}
    } : !transform.any_op
    transform.yield
  }
}

// -----

// CHECK-LABEL: func.func @lower_to_loops
// CHECK:         scf.for
// CHECK-NOT:     = gather.
func.func @lower_to_loops(%d: tensor<5x3xf32>, %i: tensor<2x1xi64>) -> tensor<2x3xf32> {
  %init = tensor.empty() : tensor<2x3xf32>
  %0 = gather.nd %d[%i] batch_dims = 0 out_of_bounds = fill into %init : tensor<5x3xf32>, tensor<2x1xi64> into tensor<2x3xf32>
  return %0 : tensor<2x3xf32>
}
module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %f = transform.structured.match ops{["func.func"]} in %root : (!transform.any_op) -> !transform.any_op
    transform.apply_patterns to %f {
      transform.apply_patterns.gather.lower_to_loops
    } : !transform.any_op
    transform.yield
  }
}
