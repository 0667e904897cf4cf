// RUN: gather-opt %s --gather-refine-result-types --split-input-file | FileCheck %s

// gather-refine-result-types refines every destination, one with contents
// too: cast to the inferred size under a run-time check of that size (the
// check the lowering would have made of the dynamic size); where the check
// fails (an embedder may record the error and go on) a new tensor takes
// the destination's place, since a cast of another size would be undefined.
// Canonicalization refines only tensor.empty destinations
// (canonicalize.mlir @refine_dynamic_destination).
// CHECK-LABEL: func.func @refine_dynamic_destination
// CHECK-SAME:    %[[E:[^:]*]]: tensor<?x3xf32>
// CHECK-DAG:     %[[C2:.*]] = arith.constant 2 : index
// CHECK-DAG:     %[[C0:.*]] = arith.constant 0 : index
// CHECK:         %[[DIM:.*]] = tensor.dim %[[E]], %[[C0]]
// CHECK:         %[[SAME:.*]] = arith.cmpi eq, %[[DIM]], %[[C2]]
// CHECK:         gather.check_shape %[[SAME]], init_size_mismatch dim = 0 sizes(%[[DIM]], %[[C2]]) for "gather.block"
// CHECK:         %[[INIT:.*]] = scf.if %[[SAME]] -> (tensor<2x3xf32>) {
// CHECK:           %[[CAST:.*]] = tensor.cast %[[E]] : tensor<?x3xf32> to tensor<2x3xf32>
// CHECK:           scf.yield %[[CAST]]
// CHECK:         } else {
// CHECK:           %[[NEW:.*]] = tensor.empty() : tensor<2x3xf32>
// CHECK:           scf.yield %[[NEW]]
// CHECK:         gather.block {{.*}} into %[[INIT]] : tensor<4x3xf32>, tensor<2xi64> into tensor<2x3xf32>
func.func @refine_dynamic_destination(%d: tensor<4x3xf32>, %i: tensor<2xi64>, %e: tensor<?x3xf32>) -> tensor<?x3xf32> {
  %r = gather.block %d[%i] axis = 0 into %e : tensor<4x3xf32>, tensor<2xi64> into tensor<?x3xf32>
  return %r : tensor<?x3xf32>
}

// -----

// A tensor.empty destination is made anew with the inferred type: no check.
// CHECK-LABEL: func.func @refine_empty_destination
// CHECK-NOT:     scf.if
// CHECK:         %[[E:.*]] = tensor.empty() : tensor<2x3xf32>
// CHECK:         gather.block {{.*}} into %[[E]] : tensor<4x3xf32>, tensor<2xi64> into tensor<2x3xf32>
func.func @refine_empty_destination(%d: tensor<4x3xf32>, %i: tensor<2xi64>, %n: index) -> tensor<?x3xf32> {
  %e = tensor.empty(%n) : tensor<?x3xf32>
  %r = gather.block %d[%i] axis = 0 into %e : tensor<4x3xf32>, tensor<2xi64> into tensor<?x3xf32>
  return %r : tensor<?x3xf32>
}
