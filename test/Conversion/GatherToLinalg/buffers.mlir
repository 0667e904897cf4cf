// Gather ops on buffers (after one-shot-bufferize) lower to an scf.parallel
// over the output with the scalar semantics; the index policy is the same.
// RUN: gather-opt %s --convert-gather-to-linalg --split-input-file | FileCheck %s

// CHECK-LABEL: func.func @buffer_block_clamp
// CHECK-SAME:      %[[D:[^:]*]]: memref<10x3xf32>, %[[I:[^:]*]]: memref<4xi32>, %[[OUT:[^:]*]]: memref<4x3xf32>
// CHECK:         scf.parallel (%[[R:.*]], %[[C:.*]]) =
// CHECK:           %[[ID:.*]] = memref.load %[[I]][%[[R]]] : memref<4xi32>
// CHECK:           arith.minsi
// CHECK:           arith.maxsi
// CHECK:           %[[V:.*]] = memref.load %[[D]][%{{.*}}, %[[C]]] : memref<10x3xf32>
// CHECK:           memref.store %[[V]], %[[OUT]][%[[R]], %[[C]]] : memref<4x3xf32>
// CHECK-NOT:     gather.{{(multiaxis|block|elements|nd) }}
func.func @buffer_block_clamp(%d: memref<10x3xf32>, %i: memref<4xi32>, %out: memref<4x3xf32>) {
  gather.block %d[%i] axis = 0 out_of_bounds = clamp into %out : memref<10x3xf32>, memref<4xi32> into memref<4x3xf32>
  return
}

// -----

// Under `error` with dynamic sizes: the run-time shape checks first, the
// index check (a scan of all indices, gather.check_indices) when the output
// is empty (no element reads them then), and the index report for an
// invalid index in the loop.
// CHECK-LABEL: func.func @buffer_elements_error_dynamic
// CHECK-SAME:      %[[D:[^:]*]]: memref<?x?xf32>, %[[I:[^:]*]]: memref<?x?xi64>
// CHECK:         scf.if
// CHECK:           scf.if
// CHECK-NOT:         scf.for
// CHECK:             %[[ALL:.*]] = memref.cast %[[I]]
// CHECK:             gather.check_indices %[[ALL]] sizes(%{{.*}}) dims = [1] shape(%{{.*}}, %{{.*}}) for "gather.elements"
// CHECK:           scf.parallel
// CHECK:             memref.store
// CHECK:             scf.if
// CHECK:               gather.check_indices %{{.*}} assume_invalid for "gather.elements"
// CHECK:         } else {
// CHECK:           gather.check_shape %{{.*}}, indices_larger_than_data dim = 0
// CHECK:           gather.check_shape %{{.*}}, init_size_mismatch dim = 0
// CHECK:           gather.check_shape %{{.*}}, init_size_mismatch dim = 1
// CHECK-NOT:     = gather.
func.func @buffer_elements_error_dynamic(%d: memref<?x?xf32>, %i: memref<?x?xi64>, %out: memref<?x?xf32>) {
  gather.elements %d[%i] axis = 1 into %out : memref<?x?xf32>, memref<?x?xi64> into memref<?x?xf32>
  return
}
