// ValueBoundsOpInterface, through upstream mlir-opt's test pass with the
// plugin: a result size equals the init's, and the operand's that the shape
// rules give it from.
// RUN: %mlir_opt --load-dialect-plugin=%gather_lib/GatherPlugin.so %s -pass-pipeline='builtin.module(func.func(test-affine-reify-value-bounds))' -verify-diagnostics -split-input-file | FileCheck %s

// CHECK-LABEL: func.func @result_size_is_init_size
// CHECK:         %[[INIT:.*]] = tensor.empty
// CHECK:         %[[C0:.*]] = arith.constant 0 : index
// CHECK:         %[[D:.*]] = tensor.dim %[[INIT]], %[[C0]]
// CHECK:         return %[[D]]
func.func @result_size_is_init_size(%t: tensor<?x8xf32>, %i: tensor<?xi64>, %n: index) -> index {
  %init = tensor.empty(%n) : tensor<?x8xf32>
  %0 = gather.block %t[%i] axis = 0 into %init : tensor<?x8xf32>, tensor<?xi64> into tensor<?x8xf32>
  %1 = "test.reify_bound"(%0) {dim = 0} : (tensor<?x8xf32>) -> (index)
  return %1 : index
}

// -----

// A source dimension the output follows (the columns of a row gather): the
// table has at most 16 columns, so the result has at most 16 (the bound is
// exclusive).
// CHECK-LABEL: func.func @result_bound_from_source
// CHECK:         %[[C17:.*]] = arith.constant 17 : index
// CHECK:         return %[[C17]]
func.func @result_bound_from_source(%n: index, %i: tensor<4xi64>, %init: tensor<4x?xf32>) -> index {
  %m = affine.min affine_map<(d0) -> (d0, 16)>(%n)
  %t = tensor.empty(%m) : tensor<100x?xf32>
  %0 = gather.block %t[%i] axis = 0 into %init : tensor<100x?xf32>, tensor<4xi64> into tensor<4x?xf32>
  %1 = "test.reify_bound"(%0) {dim = 1, type = "UB", constant} : (tensor<4x?xf32>) -> (index)
  return %1 : index
}

// -----

// The folded coordinate dimension of gather.multiaxis: the result size is
// the indices size divided by the coordinate size (2 axes): at most 64
// index values give at most 32 coordinates.
// CHECK-LABEL: func.func @result_bound_from_folded_coordinates
// CHECK:         %[[C33:.*]] = arith.constant 33 : index
// CHECK:         return %[[C33]]
func.func @result_bound_from_folded_coordinates(%in: tensor<4x9x7xf32>, %n: index, %init: tensor<4x1x?xf32>) -> index {
  %m = affine.min affine_map<(d0) -> (d0, 64)>(%n)
  %idx = tensor.empty(%m) : tensor<4x1x?xi64>
  %0 = gather.multiaxis %in[%idx] axes = [1, 2] into %init : tensor<4x9x7xf32>, tensor<4x1x?xi64> into tensor<4x1x?xf32>
  %1 = "test.reify_bound"(%0) {dim = 2, type = "UB", constant} : (tensor<4x1x?xf32>) -> (index)
  return %1 : index
}

// -----

// gather.elements: the output has the indices' shape.
// CHECK-LABEL: func.func @result_bound_from_indices
// CHECK:         %[[C9:.*]] = arith.constant 9 : index
// CHECK:         return %[[C9]]
func.func @result_bound_from_indices(%d: tensor<?x?xf32>, %n: index, %init: tensor<?x?xf32>) -> index {
  %m = affine.min affine_map<(d0) -> (d0, 8)>(%n)
  %idx = tensor.empty(%m, %m) : tensor<?x?xi32>
  %0 = gather.elements %d[%idx] axis = 1 into %init : tensor<?x?xf32>, tensor<?x?xi32> into tensor<?x?xf32>
  %1 = "test.reify_bound"(%0) {dim = 0, type = "UB", constant} : (tensor<?x?xf32>) -> (index)
  return %1 : index
}
