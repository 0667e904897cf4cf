// RUN: gather-opt %s --convert-gather-to-scf --convert-gather-checks-to-runtime --canonicalize --cse | FileCheck %s

// The reference lowering: one scf.for per output dimension, tensor.insert of
// each element, the same index computation as the linalg lowering.
// CHECK-LABEL: func.func @block
// CHECK-SAME:    %[[D:[^:]*]]: tensor<5x7xf32>, %[[I:[^:]*]]: tensor<3xi64>
// CHECK:         %[[E:.*]] = tensor.empty() : tensor<3x7xf32>
// CHECK:         scf.for %[[A:.*]] = %{{.*}} to %{{.*}} step %{{.*}} iter_args(%[[T0:.*]] = %[[E]]) -> (tensor<3x7xf32>) {
// CHECK:           scf.for %[[B:.*]] = %{{.*}} to %{{.*}} step %{{.*}} iter_args(%[[T1:.*]] = %[[T0]]) -> (tensor<3x7xf32>) {
// CHECK:             %[[RAW:.*]] = tensor.extract %{{.*}}[%[[A]], %{{.*}}] : tensor<3x1xi64>
// CHECK:             arith.index_cast %[[RAW]] : i64 to index
// CHECK:             arith.cmpi ult
// CHECK:             %[[V:.*]] = tensor.extract %[[D]][%{{.*}}, %[[B]]] : tensor<5x7xf32>
// CHECK:             %[[R:.*]] = arith.select %{{.*}}, %[[V]], %{{.*}} : f32
// CHECK:             %[[U:.*]] = tensor.insert %[[R]] into %[[T1]][%[[A]], %[[B]]] : tensor<3x7xf32>
// CHECK:             scf.yield %[[U]]
// CHECK-NOT:     linalg.generic
// CHECK-NOT:     gather.
func.func @block(%d: tensor<5x7xf32>, %i: tensor<3xi64>) -> tensor<3x7xf32> {
  %init_0 = tensor.empty() : tensor<3x7xf32>
  %0 = gather.block %d[%i] axis = 0 out_of_bounds = fill into %init_0 : tensor<5x7xf32>, tensor<3xi64> into tensor<3x7xf32>
  return %0 : tensor<3x7xf32>
}

// Under `error` the bounds are checked in the loops: a flag raised for an
// invalid index (read through index 0), decided after them.
// CHECK-LABEL: func.func @error
// CHECK-SAME:    %[[D:[^:]*]]: tensor<5x7xf32>
// CHECK:         %[[FLAG:.*]] = memref.alloca() : memref<i8>
// CHECK:         scf.for
// CHECK:           scf.for
// CHECK:             arith.cmpi ult
// CHECK:             tensor.extract %[[D]]
// CHECK:             scf.if
// CHECK:               memref.store %{{.*}}, %[[FLAG]][]
// CHECK:             tensor.insert
// CHECK:         %[[RAISED:.*]] = memref.load %[[FLAG]][]
// CHECK:         %[[FAILED:.*]] = arith.cmpi ne, %[[RAISED]]
// CHECK:         scf.if %[[FAILED]]
// CHECK:           func.call @__gather_index_report_
func.func @error(%d: tensor<5x7xf32>, %i: tensor<3xi64>) -> tensor<3x7xf32> {
  %init_0 = tensor.empty() : tensor<3x7xf32>
  %0 = gather.block %d[%i] axis = 0 into %init_0 : tensor<5x7xf32>, tensor<3xi64> into tensor<3x7xf32>
  return %0 : tensor<3x7xf32>
}
