// An embedding lookup followed by x + x (the consumer rewrites it to x * 2).
func.func @main(%table: tensor<8x4xf32>, %ids: tensor<?xi64>) -> tensor<?x4xf32> {
  %c0 = arith.constant 0 : index
  %n = tensor.dim %ids, %c0 : tensor<?xi64>
  %init = tensor.empty(%n) : tensor<?x4xf32>
  %0 = gather.block %table[%ids] axis = 0 into %init : tensor<8x4xf32>, tensor<?xi64> into tensor<?x4xf32>
  %1 = arith.addf %0, %0 : tensor<?x4xf32>
  return %1 : tensor<?x4xf32>
}
