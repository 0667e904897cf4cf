// RUN: gather-opt %s --gather-check-affine-divisors --split-input-file --verify-diagnostics | FileCheck %s

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
