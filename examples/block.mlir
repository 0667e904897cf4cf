// gather.block (ONNX Gather, numpy.take), the ONNX Gather page and the Gather Multiaxis proposal: data [4,3],
// indices [[0,1],[1,2]], axis 1 -> output [4,2,2]:
// output[i, j, k] = data[i, indices[j, k]]
func.func @block(%data: tensor<4x3xf32>) -> tensor<?x?x?xf32> {
  %indices = arith.constant dense<[[0, 1], [1, 2]]> : tensor<2x2xi64>
  %0 = gather.block %data[%indices] axis = 1
      : (tensor<4x3xf32>, tensor<2x2xi64>) -> tensor<?x?x?xf32>
  return %0 : tensor<?x?x?xf32>
}
