// @main calls a function that no library of the JIT defines.
func.func private @not_defined_anywhere(f32) -> f32
func.func @main(%d: tensor<4x3xf32>, %i: tensor<2xi64>) -> tensor<4x3xf32> {
  %c0 = arith.constant 0 : index
  %e = tensor.extract %d[%c0, %c0] : tensor<4x3xf32>
  %v = func.call @not_defined_anywhere(%e) : (f32) -> f32
  %r = tensor.insert %v into %d[%c0, %c0] : tensor<4x3xf32>
  return %r : tensor<4x3xf32>
}
