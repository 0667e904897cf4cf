// RUN: gather-opt %s --resolve-ranked-shaped-type-result-dims --canonicalize | FileCheck %s

// tensor.dim of a gather result resolves to the operand sizes it comes from
// (ReifyRankedShapedTypeOpInterface).

// CHECK-LABEL: func.func @block_dims
// CHECK-SAME:    %[[DATA:[^:]*]]: tensor<?x?x?xf32>, %[[IDX:[^:]*]]: tensor<?x?xi64>
// CHECK-DAG:     %[[C0:.*]] = arith.constant 0 : index
// CHECK-DAG:     %[[C1:.*]] = arith.constant 1 : index
// CHECK-DAG:     %[[C2:.*]] = arith.constant 2 : index
// CHECK-DAG:     %[[D0:.*]] = tensor.dim %[[DATA]], %[[C0]]
// CHECK-DAG:     %[[I0:.*]] = tensor.dim %[[IDX]], %[[C0]]
// CHECK-DAG:     %[[I1:.*]] = tensor.dim %[[IDX]], %[[C1]]
// CHECK-DAG:     %[[D2:.*]] = tensor.dim %[[DATA]], %[[C2]]
// CHECK:         return %[[D0]], %[[I0]], %[[I1]], %[[D2]]
func.func @block_dims(%data: tensor<?x?x?xf32>, %indices: tensor<?x?xi64>, %init_0: tensor<?x?x?x?xf32>) -> (index, index, index, index) {
  %0 = gather.block %data[%indices] axis = 1 into %init_0 : tensor<?x?x?xf32>, tensor<?x?xi64> into tensor<?x?x?x?xf32>
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c3 = arith.constant 3 : index
  %d0 = tensor.dim %0, %c0 : tensor<?x?x?x?xf32>
  %d1 = tensor.dim %0, %c1 : tensor<?x?x?x?xf32>
  %d2 = tensor.dim %0, %c2 : tensor<?x?x?x?xf32>
  %d3 = tensor.dim %0, %c3 : tensor<?x?x?x?xf32>
  return %d0, %d1, %d2, %d3 : index, index, index, index
}

// An axis on the last dimension: the logical size is the indices size
// divided by the coordinate size. A broadcast of two dynamic sizes is
// decided at run time (the input size unless it is 1).
// CHECK-LABEL: func.func @multiaxis_dims
// CHECK-SAME:    %[[IN:[^:]*]]: tensor<?x?x?xf32>, %[[IDX:[^:]*]]: tensor<?x?x?xi64>
// CHECK-DAG:     %[[C0:.*]] = arith.constant 0 : index
// CHECK-DAG:     %[[C1:.*]] = arith.constant 1 : index
// CHECK-DAG:     %[[C2:.*]] = arith.constant 2 : index
// CHECK-DAG:     %[[IN0:.*]] = tensor.dim %[[IN]], %[[C0]]
// CHECK-DAG:     %[[IDX0:.*]] = tensor.dim %[[IDX]], %[[C0]]
// CHECK-DAG:     %[[IS_ONE:.*]] = arith.cmpi eq, %[[IN0]], %[[C1]]
// CHECK-DAG:     %[[B0:.*]] = arith.select %[[IS_ONE]], %[[IDX0]], %[[IN0]]
// CHECK-DAG:     %[[IDX1:.*]] = tensor.dim %[[IDX]], %[[C1]]
// CHECK-DAG:     %[[IDX2:.*]] = tensor.dim %[[IDX]], %[[C2]]
// CHECK-DAG:     %[[L2:.*]] = arith.divui %[[IDX2]], %[[C2]]
// CHECK:         return %[[B0]], %[[IDX1]], %[[L2]]
func.func @multiaxis_dims(%input: tensor<?x?x?xf32>, %indices: tensor<?x?x?xi64>, %init_0: tensor<?x?x?xf32>) -> (index, index, index) {
  %0 = gather.multiaxis %input[%indices] axes = [2, 1] into %init_0 : tensor<?x?x?xf32>, tensor<?x?x?xi64> into tensor<?x?x?xf32>
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %d0 = tensor.dim %0, %c0 : tensor<?x?x?xf32>
  %d1 = tensor.dim %0, %c1 : tensor<?x?x?xf32>
  %d2 = tensor.dim %0, %c2 : tensor<?x?x?xf32>
  return %d0, %d1, %d2 : index, index, index
}

// A side statically known not to be 1 decides a broadcast without a select.
// CHECK-LABEL: func.func @multiaxis_static_side_decides
// CHECK-NOT:     arith.select
// CHECK:         %[[C4:.*]] = arith.constant 4 : index
// CHECK:         return %[[C4]]
func.func @multiaxis_static_side_decides(%input: tensor<?x3xf32>, %indices: tensor<4x?xi64>, %init_0: tensor<?x?xf32>) -> index {
  %0 = gather.multiaxis %input[%indices] axes = [1] into %init_0 : tensor<?x3xf32>, tensor<4x?xi64> into tensor<?x?xf32>
  %c0 = arith.constant 0 : index
  %d0 = tensor.dim %0, %c0 : tensor<?x?xf32>
  return %d0 : index
}
