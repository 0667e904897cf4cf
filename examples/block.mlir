// gather.block (ONNX Gather, numpy.take), the ONNX Gather page and the Gather Multiaxis proposal: data [4,3],
// indices [[0,1],[1,2]], axis 1 -> output [4,2,2]:
// output[i, j, k] = data[i, indices[j, k]]
// The ops write into a destination (`init`), as linalg ops do.
func.func @block(%data: tensor<4x3xf32>) -> tensor<4x2x2xf32> {
  %indices = arith.constant dense<[[0, 1], [1, 2]]> : tensor<2x2xi64>
  %init = tensor.empty() : tensor<4x2x2xf32>
  %0 = gather.block %data[%indices] axis = 1 into %init
      : tensor<4x3xf32>, tensor<2x2xi64> into tensor<4x2x2xf32>
  return %0 : tensor<4x2x2xf32>
}
