// An embedding lookup followed by x + x (the consumer rewrites it to x * 2).
func.func @main(%table: tensor<8x4xf32>, %ids: tensor<?xi64>) -> tensor<?x4xf32> {
  %0 = gather.block %table[%ids] axis = 0 : (tensor<8x4xf32>, tensor<?xi64>) -> tensor<?x4xf32>
  %1 = arith.addf %0, %0 : tensor<?x4xf32>
  return %1 : tensor<?x4xf32>
}
