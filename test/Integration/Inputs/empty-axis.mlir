func.func @error(%data: tensor<?x?xf32>, %indices: tensor<?xi64>) -> tensor<?x?xf32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %n = tensor.dim %indices, %c0 : tensor<?xi64>
  %m = tensor.dim %data, %c1 : tensor<?x?xf32>
  %init = tensor.empty(%n, %m) : tensor<?x?xf32>
  %0 = gather.block %data[%indices] axis = 0 into %init : tensor<?x?xf32>, tensor<?xi64> into tensor<?x?xf32>
  return %0 : tensor<?x?xf32>
}

func.func @fill(%data: tensor<?x?xf32>, %indices: tensor<?xi64>) -> tensor<?x?xf32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %n = tensor.dim %indices, %c0 : tensor<?xi64>
  %m = tensor.dim %data, %c1 : tensor<?x?xf32>
  %init = tensor.empty(%n, %m) : tensor<?x?xf32>
  %0 = gather.block %data[%indices] axis = 0 out_of_bounds = fill into %init : tensor<?x?xf32>, tensor<?xi64> into tensor<?x?xf32>
  return %0 : tensor<?x?xf32>
}
