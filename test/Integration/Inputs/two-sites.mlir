func.func @first(%d: tensor<?x3xf32>, %i: tensor<?xi64>) -> tensor<?x3xf32> {
  %c0 = arith.constant 0 : index
  %n = tensor.dim %i, %c0 : tensor<?xi64>
  %init = tensor.empty(%n) : tensor<?x3xf32>
  %0 = gather.block %d[%i] axis = 0 into %init : tensor<?x3xf32>, tensor<?xi64> into tensor<?x3xf32>
  return %0 : tensor<?x3xf32>
}
func.func @second(%d: tensor<?x3xf32>, %i: tensor<?xi64>) -> tensor<?x3xf32> {
  %c0 = arith.constant 0 : index
  %n = tensor.dim %i, %c0 : tensor<?xi64>
  %init = tensor.empty(%n) : tensor<?x3xf32>
  %0 = gather.block %d[%i] axis = 0 into %init : tensor<?x3xf32>, tensor<?xi64> into tensor<?x3xf32>
  return %0 : tensor<?x3xf32>
}
