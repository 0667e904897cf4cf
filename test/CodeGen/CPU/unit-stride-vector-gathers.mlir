// RUN: gather-opt %s --gather-unit-stride-vector-gathers --split-input-file | FileCheck %s

// A gather through a tile view with dynamic strides (what tiling, fusion
// and bufferization leave): it reads the flat buffer at the view's offset
// plus the fixed coordinates, with the index vector scaled by the innermost
// stride. (Regression: such a gather reached LLVM unlowered.)
// CHECK-LABEL: func.func @dynamic_strides
// CHECK-SAME:    %[[M:[^:]*]]: memref<1x?xi64, strided<[?, ?], offset: ?>>, %[[I:[^:]*]]: index, %[[J:[^:]*]]: index, %[[V:[^:]*]]: vector<8xindex>
// CHECK:         %[[BASE:.*]], %[[OFF:.*]], %[[SIZES:.*]]:2, %[[STRIDES:.*]]:2 = memref.extract_strided_metadata %[[M]]
// CHECK:         %[[R:.*]] = arith.muli %[[I]], %[[STRIDES]]#0
// CHECK:         %[[O1:.*]] = arith.addi %[[OFF]], %[[R]]
// CHECK:         %[[C:.*]] = arith.muli %[[J]], %[[STRIDES]]#1
// CHECK:         %[[O2:.*]] = arith.addi %[[O1]], %[[C]]
// CHECK:         %[[FLAT:.*]] = memref.reinterpret_cast %[[BASE]] to offset: [%[[O2]]], sizes: [%{{.*}}], strides: [1]
// CHECK:         %[[S:.*]] = vector.broadcast %[[STRIDES]]#1 : index to vector<8xindex>
// CHECK:         %[[SCALED:.*]] = arith.muli %[[V]], %[[S]] : vector<8xindex>
// CHECK:         vector.gather %[[FLAT]][%{{.*}}] [%[[SCALED]]]
func.func @dynamic_strides(%m: memref<1x?xi64, strided<[?, ?], offset: ?>>, %i: index, %j: index, %v: vector<8xindex>, %mask: vector<8xi1>, %pass: vector<8xi64>) -> vector<8xi64> {
  %0 = vector.gather %m[%i, %j] [%v], %mask, %pass : memref<1x?xi64, strided<[?, ?], offset: ?>>, vector<8xindex>, vector<8xi1>, vector<8xi64> into vector<8xi64>
  return %0 : vector<8xi64>
}

// -----

// A unit innermost stride lowers as it is.
// CHECK-LABEL: func.func @unit_stride
// CHECK-NOT:     memref.reinterpret_cast
// CHECK:         vector.gather %{{.*}}[%{{.*}}, %{{.*}}] [%{{.*}}]
func.func @unit_stride(%m: memref<4x?xf32, strided<[?, 1], offset: ?>>, %i: index, %v: vector<8xi32>, %mask: vector<8xi1>, %pass: vector<8xf32>) -> vector<8xf32> {
  %c0 = arith.constant 0 : index
  %0 = vector.gather %m[%i, %c0] [%v], %mask, %pass : memref<4x?xf32, strided<[?, 1], offset: ?>>, vector<8xi32>, vector<8xi1>, vector<8xf32> into vector<8xf32>
  return %0 : vector<8xf32>
}

// -----

// i32 index vectors are scaled in i32.
// CHECK-LABEL: func.func @i32_indices
// CHECK:         %[[S:.*]] = arith.index_cast %{{.*}} : index to i32
// CHECK:         %[[B:.*]] = vector.broadcast %[[S]] : i32 to vector<4xi32>
// CHECK:         arith.muli %{{.*}}, %[[B]] : vector<4xi32>
func.func @i32_indices(%m: memref<?xf16, strided<[?], offset: ?>>, %v: vector<4xi32>, %mask: vector<4xi1>, %pass: vector<4xf16>) -> vector<4xf16> {
  %c0 = arith.constant 0 : index
  %0 = vector.gather %m[%c0] [%v], %mask, %pass : memref<?xf16, strided<[?], offset: ?>>, vector<4xi32>, vector<4xi1>, vector<4xf16> into vector<4xf16>
  return %0 : vector<4xf16>
}
