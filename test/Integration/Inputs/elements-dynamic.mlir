func.func @main(%d: tensor<?x?xf32>, %i: tensor<?x?xi64>) -> tensor<?x?xf32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %rows = tensor.dim %i, %c0 : tensor<?x?xi64>
  %cols = tensor.dim %i, %c1 : tensor<?x?xi64>
  %init = tensor.empty(%rows, %cols) : tensor<?x?xf32>
  %0 = gather.elements %d[%i] axis = 1 into %init : tensor<?x?xf32>, tensor<?x?xi64> into tensor<?x?xf32>
  return %0 : tensor<?x?xf32>
}
