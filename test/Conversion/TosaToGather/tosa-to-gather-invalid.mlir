// RUN: gather-opt %s --convert-tosa-gather-to-gather --verify-diagnostics

// Unranked operands have no multiaxis form.
func.func @tosa_gather_unranked(%v: tensor<*xf32>, %i: tensor<2x4xi32>) -> tensor<*xf32> {
  // expected-error @+1 {{'tosa.gather' op was not converted: gather ops need ranked values [N, K, C] and indices [N, W]}}
  %0 = tosa.gather %v, %i : (tensor<*xf32>, tensor<2x4xi32>) -> tensor<*xf32>
  return %0 : tensor<*xf32>
}
