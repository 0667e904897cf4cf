// RUN: gather-opt %s --convert-gather-to-linalg --canonicalize --cse | FileCheck %s

// With dynamic sizes the gather runs under an scf.if on its run-time
// checks. The other branch (a failed shape check, reported, or an empty
// axis) writes zeros with serial loops: a linalg.fill there would become a
// parallel loop, an outlined OpenMP function per gather. Where no loop
// reads the indices (an empty output or axis) they are checked by a
// gather.check_indices that reports only an invalid value; the report
// after the loops assumes one.
// CHECK-LABEL: func.func @dynamic_block_error
// CHECK-SAME:    %[[INIT:[^:]*]]: tensor<?x?xf32>) -> tensor<?x?xf32>
// CHECK-DAG:     %[[ZERO:.*]] = arith.constant 0.000000e+00 : f32
// CHECK:         scf.if %{{.*}} -> (tensor<?x?xf32>) {
// CHECK:           scf.forall
// CHECK:         } else {
// CHECK:           gather.check_shape %{{.*}}, init_size_mismatch dim = 0
// CHECK:           gather.check_shape %{{.*}}, init_size_mismatch dim = 1
// CHECK-NOT:       linalg.fill
// CHECK:           %[[ROWS:.*]] = scf.for %{{.*}} iter_args(%[[T0:.*]] = %[[INIT]])
// CHECK:             %[[COLS:.*]] = scf.for %{{.*}} iter_args(%[[T1:.*]] = %[[T0]])
// CHECK:               tensor.insert %[[ZERO]] into %[[T1]]
// CHECK:           scf.yield %[[ROWS]]
// CHECK:         scf.if
// CHECK-NOT:       scf.for
// CHECK:           gather.check_indices %{{.*}} sizes(%{{.*}}) dims = [0] shape(%{{.*}}) for "gather.block"
// CHECK:         scf.if
// CHECK:           gather.check_indices %{{.*}} sizes(%{{.*}}) dims = [0] shape(%{{.*}}) assume_invalid for "gather.block"
func.func @dynamic_block_error(%d: tensor<?x?xf32>, %i: tensor<?xi64>, %init: tensor<?x?xf32>) -> tensor<?x?xf32> {
  %0 = gather.block %d[%i] axis = 0 into %init : tensor<?x?xf32>, tensor<?xi64> into tensor<?x?xf32>
  return %0 : tensor<?x?xf32>
}
