// Inputs of gather-run-errors.test: one op of each kind with dynamic sizes.
func.func @block(%d: tensor<?x?x?xf32>, %i: tensor<?x?xi64>) -> tensor<?x?x?x?xf32> {
  %c0 = arith.constant 0 : index
  %c2 = arith.constant 2 : index
  %d0 = tensor.dim %d, %c0 : tensor<?x?x?xf32>
  %d2 = tensor.dim %d, %c2 : tensor<?x?x?xf32>
  %i0 = tensor.dim %i, %c0 : tensor<?x?xi64>
  %c1 = arith.constant 1 : index
  %i1 = tensor.dim %i, %c1 : tensor<?x?xi64>
  %e = tensor.empty(%d0, %i0, %i1, %d2) : tensor<?x?x?x?xf32>
  %0 = gather.block %d[%i] axis = 1 into %e : tensor<?x?x?xf32>, tensor<?x?xi64> into tensor<?x?x?x?xf32>
  return %0 : tensor<?x?x?x?xf32>
}

func.func @elements(%d: tensor<5x7x3xf32>, %i: tensor<5x2x3xi64>) -> tensor<5x2x3xf32> {
  %e = tensor.empty() : tensor<5x2x3xf32>
  %0 = gather.elements %d[%i] axis = 1 into %e : tensor<5x7x3xf32>, tensor<5x2x3xi64> into tensor<5x2x3xf32>
  return %0 : tensor<5x2x3xf32>
}

func.func @nd(%d: tensor<5x7x3xf32>, %i: tensor<5x4x2xi64>) -> tensor<5x4xf32> {
  %e = tensor.empty() : tensor<5x4xf32>
  %0 = gather.nd %d[%i] batch_dims = 1 negative_indices = out_of_bounds into %e : tensor<5x7x3xf32>, tensor<5x4x2xi64> into tensor<5x4xf32>
  return %0 : tensor<5x4xf32>
}

func.func @multiaxis(%d: tensor<5x7x3xf32>, %i: tensor<2x1x4xi64>) -> tensor<2x7x2xf32> {
  %e = tensor.empty() : tensor<2x7x2xf32>
  %0 = gather.multiaxis %d[%i] axes = [0, 2] into %e : tensor<5x7x3xf32>, tensor<2x1x4xi64> into tensor<2x7x2xf32>
  return %0 : tensor<2x7x2xf32>
}
