// RUN: gather-opt %s --gather-destination-entries --split-input-file | FileCheck %s
// RUN: gather-opt %s --gather-destination-entries --one-shot-bufferize="bufferize-function-boundaries allow-unknown-ops function-boundary-type-conversion=identity-layout-map" --gather-fold-self-copies --split-input-file | FileCheck %s --check-prefix=BUF

// A static result: `__into` takes the caller's buffer, which becomes the
// gather's destination in place of its tensor.empty, so that bufferization
// neither allocates the result nor copies it. No `__shape`: the buffer's
// sizes are the type's. The function itself allocates the buffer and calls
// `__into`: one copy of the computation to compile, not two.
// CHECK-LABEL: func.func @static_block(
// CHECK-SAME:    %[[DATA:[^:]*]]: tensor<4x3xf32>, %[[IDS:[^:]*]]: tensor<2xi64>) -> tensor<2x3xf32> {
// CHECK-NEXT:    %[[ALLOC:.*]] = memref.alloc() {alignment = 64 : i64} : memref<2x3xf32>
// CHECK-NEXT:    call @static_block__into(%[[DATA]], %[[IDS]], %[[ALLOC]])
// CHECK-NEXT:    %[[RESULT:.*]] = bufferization.to_tensor %[[ALLOC]] restrict writable
// CHECK-NEXT:    return %[[RESULT]]
// CHECK-LABEL: func.func @static_block__into(
// CHECK-SAME:    %[[DATA:[^:]*]]: tensor<4x3xf32>, %[[IDS:[^:]*]]: tensor<2xi64>, %[[OUT:[^:]*]]: memref<2x3xf32>) {
// CHECK-NOT:     tensor.empty
// CHECK:         %[[DEST:.*]] = bufferization.to_tensor %[[OUT]] restrict writable
// CHECK:         %[[G:.*]] = gather.block %[[DATA]][%[[IDS]]] axis = 0 into %[[DEST]]
// CHECK:         bufferization.materialize_in_destination %[[G]] in writable %[[OUT]]
// CHECK-NEXT:    return{{$}}
// CHECK-NOT:   func.func @static_block__shape
// BUF-LABEL:   func.func @static_block(
// BUF-NEXT:      %[[ALLOC:.*]] = memref.alloc() {alignment = 64 : i64} : memref<2x3xf32>
// BUF-NEXT:      call @static_block__into(%{{.*}}, %{{.*}}, %[[ALLOC]])
// BUF-NEXT:      return %[[ALLOC]]
// BUF-LABEL:   func.func @static_block__into(
// BUF-SAME:      %[[OUT:[^:]*]]: memref<2x3xf32>) {
// BUF-NOT:       memref.alloc
// BUF-NOT:       memref.copy
// BUF:           gather.block %{{.*}} into %[[OUT]] : memref<4x3xf32>, memref<2xi64> into memref<2x3xf32>
// BUF-NOT:       memref.copy
// BUF:           return
func.func @static_block(%d: tensor<4x3xf32>, %i: tensor<2xi64>) -> tensor<2x3xf32> {
  %e = tensor.empty() : tensor<2x3xf32>
  %0 = gather.block %d[%i] axis = 0 into %e : tensor<4x3xf32>, tensor<2xi64> into tensor<2x3xf32>
  return %0 : tensor<2x3xf32>
}

// -----

// Dynamic sizes: `__shape` returns them from the arguments' sizes alone
// (the gather is gone from it), in the order of the results' dynamic
// dimensions. The function allocates its buffer with the same sizes, from
// a copy of `__shape`'s body, folded (no tensor of the sizes).
// CHECK-LABEL: func.func @dynamic_block(
// CHECK-SAME:    %[[DATA:[^:]*]]: tensor<?x?xf32>, %[[IDS:[^:]*]]: tensor<?xi64>) -> tensor<?x?xf32> {
// CHECK-DAG:     %[[ROWS:.*]] = tensor.dim %[[IDS]], %c0
// CHECK-DAG:     %[[COLS:.*]] = tensor.dim %[[DATA]], %c1
// CHECK-NOT:     tensor.from_elements
// CHECK:         %[[ALLOC:.*]] = memref.alloc(%[[ROWS]], %[[COLS]]) {alignment = 64 : i64} : memref<?x?xf32>
// CHECK-NEXT:    call @dynamic_block__into(%[[DATA]], %[[IDS]], %[[ALLOC]])
// CHECK-NEXT:    %[[RESULT:.*]] = bufferization.to_tensor %[[ALLOC]] restrict writable
// CHECK-NEXT:    return %[[RESULT]]
// CHECK-LABEL: func.func @dynamic_block__into(
// CHECK-SAME:    %[[OUT:[^:]*]]: memref<?x?xf32>) {
// CHECK:         %[[DEST:.*]] = bufferization.to_tensor %[[OUT]] restrict writable
// CHECK:         gather.block {{.*}} into %[[DEST]]
// CHECK-LABEL: func.func @dynamic_block__shape(
// CHECK-SAME:    %[[DATA:[^:]*]]: tensor<?x?xf32>, %[[IDS:[^:]*]]: tensor<?xi64>) -> tensor<2xindex>
// CHECK-DAG:     %[[ROWS:.*]] = tensor.dim %[[IDS]], %c0
// CHECK-DAG:     %[[COLS:.*]] = tensor.dim %[[DATA]], %c1
// CHECK-NOT:     gather.
// CHECK:         %[[SIZES:.*]] = tensor.from_elements %[[ROWS]], %[[COLS]] : tensor<2xindex>
// CHECK:         return %[[SIZES]]
// BUF-LABEL:   func.func @dynamic_block(
// BUF-SAME:      %[[DATA:[^:]*]]: memref<?x?xf32>, %[[IDS:[^:]*]]: memref<?xi64>) -> memref<?x?xf32> {
// BUF-DAG:       %[[ROWS:.*]] = memref.dim %[[IDS]], %c0
// BUF-DAG:       %[[COLS:.*]] = memref.dim %[[DATA]], %c1
// BUF:           %[[ALLOC:.*]] = memref.alloc(%[[ROWS]], %[[COLS]]) {alignment = 64 : i64} : memref<?x?xf32>
// BUF-NEXT:      call @dynamic_block__into(%[[DATA]], %[[IDS]], %[[ALLOC]])
// BUF-NEXT:      return %[[ALLOC]]
// BUF-LABEL:   func.func @dynamic_block__into(
// BUF-SAME:      %[[OUT:[^:]*]]: memref<?x?xf32>) {
// BUF-NOT:       memref.alloc
// BUF:           gather.block %{{.*}} into %[[OUT]] : memref<?x?xf32>, memref<?xi64> into memref<?x?xf32>
// BUF-NOT:       memref.copy
// BUF:           return
func.func @dynamic_block(%d: tensor<?x?xf32>, %i: tensor<?xi64>) -> tensor<?x?xf32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %n = tensor.dim %i, %c0 : tensor<?xi64>
  %r = tensor.dim %d, %c1 : tensor<?x?xf32>
  %init = tensor.empty(%n, %r) : tensor<?x?xf32>
  %0 = gather.block %d[%i] axis = 0 into %init : tensor<?x?xf32>, tensor<?xi64> into tensor<?x?xf32>
  return %0 : tensor<?x?xf32>
}

// -----

// Two results, one of them an argument: each gets its buffer; the
// argument's is a copy (materialize_in_destination of the argument). The
// function keeps its own body: through `__into` it would copy the argument.
// CHECK-LABEL: func.func @two_results(
// CHECK-NOT:     call
// CHECK:         gather.block
// CHECK:         return
// CHECK-LABEL: func.func @two_results__into(
// CHECK-SAME:    %[[DATA:[^:]*]]: tensor<4xf32>, %[[IDS:[^:]*]]: tensor<2xi64>, %[[OUT0:[^:]*]]: memref<2xf32>, %[[OUT1:[^:]*]]: memref<4xf32>) {
// CHECK:         bufferization.materialize_in_destination %{{.*}} in writable %[[OUT0]]
// CHECK:         bufferization.materialize_in_destination %[[DATA]] in restrict writable %[[OUT1]]
func.func @two_results(%d: tensor<4xf32>, %i: tensor<2xi64>) -> (tensor<2xf32>, tensor<4xf32>) {
  %e = tensor.empty() : tensor<2xf32>
  %0 = gather.block %d[%i] axis = 0 into %e : tensor<4xf32>, tensor<2xi64> into tensor<2xf32>
  return %0, %d : tensor<2xf32>, tensor<4xf32>
}

// -----

// Sizes that depend on the contents of a tensor cannot be known without
// running the function: no entries.
// CHECK-LABEL: func.func @data_dependent_size(
// CHECK-NOT:   func.func @data_dependent_size__into
// CHECK-NOT:   func.func @data_dependent_size__shape
func.func @data_dependent_size(%d: tensor<?xf32>, %n: tensor<i64>) -> tensor<?xf32> {
  %v = tensor.extract %n[] : tensor<i64>
  %s = arith.index_cast %v : i64 to index
  %x = tensor.extract_slice %d[0] [%s] [1] : tensor<?xf32> to tensor<?xf32>
  return %x : tensor<?xf32>
}

// -----

// Sizes known from constants: the shape entry folds to one constant tensor,
// the function's buffer to a static allocation.
// CHECK-LABEL: func.func @constant_sizes(
// CHECK-NEXT:    %[[ALLOC:.*]] = memref.alloc() {alignment = 64 : i64} : memref<2xf32>
// CHECK-NEXT:    %[[CAST:.*]] = memref.cast %[[ALLOC]] : memref<2xf32> to memref<?xf32>
// CHECK-NEXT:    call @constant_sizes__into(%{{.*}}, %{{.*}}, %[[CAST]])
// CHECK-LABEL: func.func @constant_sizes__into(
// CHECK-LABEL: func.func @constant_sizes__shape(
// CHECK-NEXT:    %[[SIZES:.*]] = arith.constant dense<2> : tensor<1xindex>
// CHECK-NEXT:    return %[[SIZES]]
func.func @constant_sizes(%d: tensor<4xf32>, %i: tensor<2xi64>) -> tensor<?xf32> {
  %n = arith.constant 2 : index
  %e = tensor.empty(%n) : tensor<?xf32>
  %0 = gather.block %d[%i] axis = 0 into %e : tensor<4xf32>, tensor<2xi64> into tensor<?xf32>
  return %0 : tensor<?xf32>
}

// -----

// One value returned twice: `__into` writes it into the first buffer and
// copies it into the second, so the function keeps its own body.
// CHECK-LABEL: func.func @same_result_twice(
// CHECK-NOT:     call
// CHECK:         gather.block
// CHECK-LABEL: func.func @same_result_twice__into(
// CHECK-SAME:    %[[OUT0:[^:]*]]: memref<2xf32>, %[[OUT1:[^:]*]]: memref<2xf32>) {
// CHECK:         %[[G:.*]] = gather.block
// CHECK:         bufferization.materialize_in_destination %[[G]] in writable %[[OUT0]]
// CHECK:         bufferization.materialize_in_destination %[[G]] in restrict writable %[[OUT1]]
func.func @same_result_twice(%d: tensor<4xf32>, %i: tensor<2xi64>) -> (tensor<2xf32>, tensor<2xf32>) {
  %e = tensor.empty() : tensor<2xf32>
  %0 = gather.block %d[%i] axis = 0 into %e : tensor<4xf32>, tensor<2xi64> into tensor<2xf32>
  return %0, %0 : tensor<2xf32>, tensor<2xf32>
}

// -----

// Sizes that only elementwise arithmetic on tensors computes (no fold of
// tensor.dim through it) would make `__shape` run the computation: no
// entries either.
// CHECK-LABEL: func.func @elementwise_on_tensors(
// CHECK-NOT:   func.func @elementwise_on_tensors__into
func.func @elementwise_on_tensors(%a: tensor<?xf32>, %b: tensor<?xf32>) -> tensor<?xf32> {
  %0 = arith.addf %a, %b : tensor<?xf32>
  return %0 : tensor<?xf32>
}

// -----

// Private functions, functions without results and functions whose entry
// name is taken are left alone.
// CHECK-LABEL: func.func private @helper(
// CHECK-NOT:   @helper__into
// CHECK-LABEL: func.func @no_results(
// CHECK-NOT:   @no_results__into
// CHECK-LABEL: func.func @taken(
// CHECK:       func.func @taken__into(%{{.*}}: i32)
// CHECK-NOT:   func.func @taken__into
func.func private @helper(%d: tensor<4xf32>) -> tensor<4xf32> {
  return %d : tensor<4xf32>
}
func.func @no_results(%d: tensor<4xf32>) {
  return
}
func.func @taken(%d: tensor<4xf32>) -> tensor<4xf32> {
  return %d : tensor<4xf32>
}
func.func @taken__into(%x: i32) {
  return
}
