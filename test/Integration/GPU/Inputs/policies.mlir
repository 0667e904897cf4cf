// Kernels for every policy and a dynamic shape, for the ptxas check.
func.func @wrap_error(%d: tensor<?x8xf32>, %i: tensor<5xi64>) -> tensor<5x8xf32> {
  %init_0 = tensor.empty() : tensor<5x8xf32>
  %0 = gather.block %d[%i] axis = 0 into %init_0 : tensor<?x8xf32>, tensor<5xi64> into tensor<5x8xf32>
  return %0 : tensor<5x8xf32>
}
func.func @clamp_two_axes(%input: tensor<4x6x8xf16>, %indices: tensor<3x1x4xi32>) -> tensor<3x6x2xf16> {
  %init_0 = tensor.empty() : tensor<3x6x2xf16>
  %0 = gather.multiaxis %input[%indices] axes = [0, 2] out_of_bounds = clamp into %init_0 : tensor<4x6x8xf16>, tensor<3x1x4xi32> into tensor<3x6x2xf16>
  return %0 : tensor<3x6x2xf16>
}
func.func @fill_no_wrap(%d: tensor<?x?xi8>, %i: tensor<?x?xi16>) -> tensor<?x?xi8> {
  %init_0_c0 = arith.constant 0 : index
  %init_0_d0 = tensor.dim %i, %init_0_c0 : tensor<?x?xi16>
  %init_0_c1 = arith.constant 1 : index
  %init_0_d1 = tensor.dim %i, %init_0_c1 : tensor<?x?xi16>
  %init_0 = tensor.empty(%init_0_d0, %init_0_d1) : tensor<?x?xi8>
  %0 = gather.elements %d[%i] axis = 1 negative_indices = out_of_bounds out_of_bounds = fill into %init_0 : tensor<?x?xi8>, tensor<?x?xi16> into tensor<?x?xi8>
  return %0 : tensor<?x?xi8>
}
func.func @unchecked_nd(%d: tensor<2x?x?x4xf64>, %i: tensor<2x7x2xi64>) -> tensor<2x7x4xf64> {
  %init_0 = tensor.empty() : tensor<2x7x4xf64>
  %0 = gather.nd %d[%i] batch_dims = 1 out_of_bounds = unchecked into %init_0 : tensor<2x?x?x4xf64>, tensor<2x7x2xi64> into tensor<2x7x4xf64>
  return %0 : tensor<2x7x4xf64>
}
func.func @bool_data(%d: tensor<5x3xi1>, %i: tensor<4xi32>) -> tensor<4x3xi1> {
  %init_0 = tensor.empty() : tensor<4x3xi1>
  %0 = gather.block %d[%i] axis = 0 out_of_bounds = clamp into %init_0 : tensor<5x3xi1>, tensor<4xi32> into tensor<4x3xi1>
  return %0 : tensor<4x3xi1>
}
