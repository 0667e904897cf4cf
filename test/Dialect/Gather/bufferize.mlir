// BufferizableOpInterface: one-shot-bufferize turns a gather on tensors into
// the same op on buffers, writing its destination in place. The init is only
// written, so an init from tensor.empty becomes an allocation with no copy.
// RUN: gather-opt %s --one-shot-bufferize="bufferize-function-boundaries" --split-input-file | FileCheck %s

// CHECK-LABEL: func.func @bufferize_block
// CHECK-SAME:      %[[TABLE:[^:]*]]: memref<100x8xf32{{.*}}>, %[[IDS:[^:]*]]: memref<4xi64{{.*}}>
// CHECK:         %[[ALLOC:.*]] = memref.alloc() {{.*}} : memref<4x8xf32>
// CHECK-NOT:     memref.copy
// CHECK:         gather.block %[[TABLE]][%[[IDS]]] axis = 0 out_of_bounds = clamp into %[[ALLOC]] : memref<100x8xf32{{.*}}>, memref<4xi64{{.*}}> into memref<4x8xf32>
// CHECK:         return %[[ALLOC]]
func.func @bufferize_block(%table: tensor<100x8xf32>, %ids: tensor<4xi64>) -> tensor<4x8xf32> {
  %init = tensor.empty() : tensor<4x8xf32>
  %0 = gather.block %table[%ids] axis = 0 out_of_bounds = clamp into %init : tensor<100x8xf32>, tensor<4xi64> into tensor<4x8xf32>
  return %0 : tensor<4x8xf32>
}

// -----

// A destination argument is written in place: no allocation, no copy.
// CHECK-LABEL: func.func @bufferize_in_place
// CHECK-SAME:      %[[D:[^:]*]]: memref<?x?xf32{{.*}}>, %[[I:[^:]*]]: memref<?x?xi32{{.*}}>, %[[OUT:[^:]*]]: memref<?x?xf32{{.*}}>
// CHECK-NOT:     memref.alloc
// CHECK-NOT:     memref.copy
// CHECK:         gather.elements %[[D]][%[[I]]] axis = 0 into %[[OUT]]
// CHECK:         return %[[OUT]]
func.func @bufferize_in_place(%d: tensor<?x?xf32>, %i: tensor<?x?xi32>, %out: tensor<?x?xf32> {bufferization.writable = true}) -> tensor<?x?xf32> {
  %0 = gather.elements %d[%i] axis = 0 into %out : tensor<?x?xf32>, tensor<?x?xi32> into tensor<?x?xf32>
  return %0 : tensor<?x?xf32>
}

// -----

// A source that is still read after a gather writes its destination: the
// destination cannot be the source's buffer, so bufferization allocates.
// CHECK-LABEL: func.func @bufferize_conflict
// CHECK:         %[[ALLOC:.*]] = memref.alloc
// CHECK:         gather.nd {{.*}} into %[[ALLOC]]
// CHECK:         gather.nd {{.*}} into %[[ALLOC2:.*]] :
func.func @bufferize_conflict(%d: tensor<4x4xf32>, %i: tensor<4x1xi64>) -> (tensor<4x4xf32>, tensor<4x4xf32>) {
  %0 = gather.nd %d[%i] batch_dims = 0 into %d : tensor<4x4xf32>, tensor<4x1xi64> into tensor<4x4xf32>
  %1 = gather.nd %d[%i] batch_dims = 0 into %d : tensor<4x4xf32>, tensor<4x1xi64> into tensor<4x4xf32>
  return %0, %1 : tensor<4x4xf32>, tensor<4x4xf32>
}
