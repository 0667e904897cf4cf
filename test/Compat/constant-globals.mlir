// RUN: gather-opt %s --gather-constant-globals | FileCheck %s
// RUN: gather-opt %s --gather-constant-globals --one-shot-bufferize=bufferize-function-boundaries | FileCheck %s --check-prefix=BUFFERIZED

// One global per value, in the order of the values' first constants, named
// in that order; the constants themselves stay for bufferization.
// CHECK:       memref.global "private" constant @__constant_4xf32 : memref<4xf32> = dense<[0.000000e+00, 1.000000e+00, 2.000000e+00, 3.000000e+00]> {alignment = 64 : i64}
// CHECK-NEXT:  memref.global "private" constant @__constant_4xf32_0 : memref<4xf32> = dense<[4.000000e+00, 5.000000e+00, 6.000000e+00, 7.000000e+00]> {alignment = 64 : i64}
// CHECK-NEXT:  memref.global "private" constant @__constant_2xi32 : memref<2xi32> = dense<[1, 2]> {alignment = 64 : i64}
// CHECK-NEXT:  memref.global "private" constant @__constant_4xf32_1 : memref<4xf32> = dense<[8.000000e+00, 9.000000e+00, 1.000000e+01, 1.100000e+01]> {alignment = 64 : i64}
// CHECK-NOT:   memref.global
// CHECK-LABEL: func.func @first
// CHECK:         arith.constant dense<[0.000000e+00, 1.000000e+00, 2.000000e+00, 3.000000e+00]> : tensor<4xf32>
// Scalars and the constants of a nested module get no global here.
// CHECK-LABEL: func.func @scalar_only
// CHECK-NOT:     memref.global
// CHECK-LABEL: module @nested
// CHECK-NOT:     memref.global

// Bufferization reuses the globals: each function reads the global of its
// value, and equal values share one.
// BUFFERIZED-LABEL: func.func @first
// BUFFERIZED:         memref.get_global @__constant_4xf32 :
// BUFFERIZED-LABEL: func.func @second
// BUFFERIZED:         memref.get_global @__constant_4xf32_0 :
// BUFFERIZED:         memref.get_global @__constant_2xi32 :
// BUFFERIZED-LABEL: func.func @third
// BUFFERIZED:         memref.get_global @__constant_4xf32_1 :
// BUFFERIZED-LABEL: func.func @same_as_first
// BUFFERIZED:         memref.get_global @__constant_4xf32 :

func.func @first(%i: index) -> f32 {
  %c = arith.constant dense<[0.0, 1.0, 2.0, 3.0]> : tensor<4xf32>
  %r = tensor.extract %c[%i] : tensor<4xf32>
  return %r : f32
}
func.func @second(%i: index) -> (f32, i32) {
  %c = arith.constant dense<[4.0, 5.0, 6.0, 7.0]> : tensor<4xf32>
  %d = arith.constant dense<[1, 2]> : tensor<2xi32>
  %r = tensor.extract %c[%i] : tensor<4xf32>
  %s = tensor.extract %d[%i] : tensor<2xi32>
  return %r, %s : f32, i32
}
func.func @third(%i: index) -> f32 {
  %c = arith.constant dense<[8.0, 9.0, 10.0, 11.0]> : tensor<4xf32>
  %r = tensor.extract %c[%i] : tensor<4xf32>
  return %r : f32
}
func.func @same_as_first(%i: index) -> f32 {
  %c = arith.constant dense<[0.0, 1.0, 2.0, 3.0]> : tensor<4xf32>
  %r = tensor.extract %c[%i] : tensor<4xf32>
  return %r : f32
}
func.func @scalar_only() -> f32 {
  %c = arith.constant 1.0 : f32
  return %c : f32
}
module @nested {
  func.func @inner(%i: index) -> f32 {
    %c = arith.constant dense<[12.0, 13.0, 14.0, 15.0]> : tensor<4xf32>
    %r = tensor.extract %c[%i] : tensor<4xf32>
    return %r : f32
  }
}
