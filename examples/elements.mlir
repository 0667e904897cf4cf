// gather.elements (ONNX GatherElements, torch.gather), the ONNX GatherElements page example 2:
// data [3,3], indices [[1,2,0],[2,0,0]], axis 0 -> output [2,3]:
// output[i, j] = data[indices[i, j], j]
func.func @elements(%data: tensor<3x3xf32>) -> tensor<2x3xf32> {
  %indices = arith.constant dense<[[1, 2, 0], [2, 0, 0]]> : tensor<2x3xi64>
  %init = tensor.empty() : tensor<2x3xf32>
  %0 = gather.elements %data[%indices] axis = 0 into %init
      : tensor<3x3xf32>, tensor<2x3xi64> into tensor<2x3xf32>
  return %0 : tensor<2x3xf32>
}
