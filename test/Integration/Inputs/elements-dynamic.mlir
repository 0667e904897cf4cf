func.func @main(%d: tensor<?x?xf32>, %i: tensor<?x?xi64>) -> tensor<?x?xf32> {
  %0 = gather.elements %d[%i] axis = 1 : (tensor<?x?xf32>, tensor<?x?xi64>) -> tensor<?x?xf32>
  return %0 : tensor<?x?xf32>
}
