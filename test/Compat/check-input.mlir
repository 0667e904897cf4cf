// RUN: gather-opt %s --gather-check-input --split-input-file --verify-diagnostics | FileCheck %s

// Positive constant divisors and symbols pass.
// CHECK-LABEL: func.func @positive_divisors
func.func @positive_divisors(%n: index, %m: index) -> (index, index) {
  %0 = affine.apply affine_map<()[s0] -> (s0 ceildiv 4 + s0 floordiv 3 + s0 mod 2)>()[%n]
  %1 = affine.apply affine_map<()[s0, s1] -> (s0 floordiv s1)>()[%n, %m]
  return %0, %1 : index, index
}

// -----

func.func @ceildiv_by_zero(%n: index) -> index {
  // expected-error @+1 {{'affine.apply' op divides by 0 in the affine expression s0 ceildiv 0: floordiv, ceildiv and mod need a positive divisor}}
  %0 = affine.apply affine_map<()[s0] -> (s0 ceildiv 0)>()[%n]
  return %0 : index
}

// -----

func.func @floordiv_by_negative_in_min(%n: index) -> index {
  // expected-error @+1 {{'affine.min' op divides by -2 in the affine expression}}
  %0 = affine.min affine_map<(d0) -> (d0 floordiv -2, 8)>(%n)
  return %0 : index
}

// -----

// A map in a discardable attribute and one nested in an array are checked.
func.func @mod_by_zero_in_an_attribute() {
  // expected-error @+1 {{'func.call' op divides by 0 in the affine expression d0 mod 0}}
  func.call @callee() {maps = [affine_map<(d0) -> (d0 mod 0)>]} : () -> ()
  return
}
func.func private @callee()

// -----

func.func @zero_divisor_in_an_integer_set(%n: index) {
  // expected-error @+1 {{'affine.if' op divides by 0}}
  affine.if affine_set<(d0) : (d0 floordiv 0 >= 0)>(%n) {
  }
  return
}

// -----

// Well-formed reassociations pass.
// CHECK-LABEL: func.func @reassociations_in_order
func.func @reassociations_in_order(%a: tensor<?xf32>, %n: index, %b: memref<2x3xf32>) -> (tensor<?x4xf32>, memref<6xf32>) {
  %e = tensor.expand_shape %a [[0, 1]] output_shape [%n, 4] : tensor<?xf32> into tensor<?x4xf32>
  %c = memref.collapse_shape %b [[0, 1]] : memref<2x3xf32> into memref<6xf32>
  return %e, %c : tensor<?x4xf32>, memref<6xf32>
}

// -----

// A rank-0 value reshapes to unit dimensions with no groups at all.
// CHECK-LABEL: func.func @rank_zero_reshapes
// CHECK: tensor.expand_shape %{{.*}} []
// CHECK: memref.collapse_shape %{{.*}} []
func.func @rank_zero_reshapes(%a: tensor<i32>, %b: memref<1x1xf32>) -> (tensor<1x1xi32>, memref<f32>) {
  %e = tensor.expand_shape %a [] output_shape [1, 1] : tensor<i32> into tensor<1x1xi32>
  %c = memref.collapse_shape %b [] : memref<1x1xf32> into memref<f32>
  return %e, %c : tensor<1x1xi32>, memref<f32>
}

// -----

// 2^32 passes MLIR 22's verifier as position 0.
func.func @expand_index_past_32_bits(%a: tensor<?xf32>, %m: index, %n: index) -> tensor<?x?xf32> {
  // expected-error @+1 {{'tensor.expand_shape' op reassociation index at position 0 must be 0 (the indices run from 0 to 1 in order)}}
  %e = tensor.expand_shape %a [[4294967296, 1]] output_shape [%m, %n] : tensor<?xf32> into tensor<?x?xf32>
  return %e : tensor<?x?xf32>
}

// -----

func.func @collapse_index_past_32_bits(%a: tensor<2x3x4xf32>) -> tensor<6x4xf32> {
  // expected-error @+1 {{'tensor.collapse_shape' op reassociation index at position 2 must be 2 (the indices run from 0 to 2 in order)}}
  %c = tensor.collapse_shape %a [[0, 1], [4294967298]] : tensor<2x3x4xf32> into tensor<6x4xf32>
  return %c : tensor<6x4xf32>
}

// -----

// Constant indices within the rank, and unknown ones, pass.
// CHECK-LABEL: func.func @dims_in_range
func.func @dims_in_range(%t: tensor<?x4xf32>, %m: memref<?xf32>, %u: tensor<*xf32>, %i: index) -> (index, index, index, index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c5 = arith.constant 5 : index
  %a = tensor.dim %t, %c1 : tensor<?x4xf32>
  %b = memref.dim %m, %c0 : memref<?xf32>
  %c = tensor.dim %t, %i : tensor<?x4xf32>
  %d = tensor.dim %u, %c5 : tensor<*xf32>
  return %a, %b, %c, %d : index, index, index, index
}

// -----

func.func @tensor_dim_index_negative(%t: tensor<?x4xf32>) -> index {
  %c = arith.constant -1 : index
  // expected-error @+1 {{'tensor.dim' op index -1 is out of range [0, 2) for the source's dimensions}}
  %d = tensor.dim %t, %c : tensor<?x4xf32>
  return %d : index
}

// -----

func.func @memref_dim_index_not_less_than_rank(%m: memref<?xf32>) -> index {
  %c = index.constant 1
  // expected-error @+1 {{'memref.dim' op index 1 is out of range [0, 1) for the source's dimensions}}
  %d = memref.dim %m, %c : memref<?xf32>
  return %d : index
}

// -----

// tf32 verifies, but LLVM's type conversion has no type for it: each value
// is reported where it is defined.
// expected-error @+1 {{'func.func' op argument #0 has element type 'tf32', which has no LLVM type: the pipelines cannot lower it}}
func.func @element_type_without_llvm_type(%x: tensor<4x3xtf32>, %i: tensor<2xi64>) -> tensor<2x3xtf32> {
  // expected-error @+1 {{'tensor.empty' op result #0 has element type 'tf32'}}
  %init = tensor.empty() : tensor<2x3xtf32>
  // expected-error @+1 {{'gather.block' op result #0 has element type 'tf32'}}
  %r = gather.block %x[%i] axis = 0 into %init : tensor<4x3xtf32>, tensor<2xi64> into tensor<2x3xtf32>
  return %r : tensor<2x3xtf32>
}

// -----

// Every other float type the gather ops accept has one.
// CHECK-LABEL: func.func @element_types_with_llvm_types
func.func @element_types_with_llvm_types(%a: tensor<2xbf16>, %b: tensor<2xf8E4M3FN>, %c: tensor<2xf6E2M3FN>, %d: tensor<2xf4E2M1FN>, %e: tensor<2xf80>, %f: tensor<2xf128>, %g: tensor<2xf8E8M0FNU>) {
  return
}
