// MLIR 22's verifier of tensor.concat crashes on a negative dim
// (test/Fuzz/upstream-concat-negative-dim-crash.mlir): gather-run and the
// C API reject it before they verify.
func.func @main(%d: tensor<4x3xf32>, %i: tensor<2xi64>) -> tensor<8x3xf32> {
  %0 = tensor.concat dim(-2) %d, %d : (tensor<4x3xf32>, tensor<4x3xf32>) -> tensor<8x3xf32>
  return %0 : tensor<8x3xf32>
}
