func.func @first(%d: tensor<?x3xf32>, %i: tensor<?xi64>) -> tensor<?x3xf32> {
  %0 = gather.block %d[%i] axis = 0 : (tensor<?x3xf32>, tensor<?xi64>) -> tensor<?x3xf32>
  return %0 : tensor<?x3xf32>
}
func.func @second(%d: tensor<?x3xf32>, %i: tensor<?xi64>) -> tensor<?x3xf32> {
  %0 = gather.block %d[%i] axis = 0 : (tensor<?x3xf32>, tensor<?xi64>) -> tensor<?x3xf32>
  return %0 : tensor<?x3xf32>
}
