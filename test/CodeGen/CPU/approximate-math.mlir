// RUN: gather-opt %s --pass-pipeline='builtin.module(func.func(gather-approximate-math))' | FileCheck %s

// tanh becomes arithmetic (a polynomial approximation) that LLVM vectorizes.
// CHECK-LABEL: func.func @tanh
// CHECK-NOT:     math.tanh
// CHECK:         arith.mulf
// CHECK:         arith.divf
func.func @tanh(%x: f32) -> f32 {
  %y = math.tanh %x : f32
  return %y : f32
}
