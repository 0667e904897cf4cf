// gather.nd (ONNX GatherND), the ONNX GatherND page example 5: data [2,2,2], indices
// [[1],[0]], batch_dims 1 -> output [2,2]:
// output[b, t] = data[b, indices[b, 0], t]
// The second op has dynamic shapes: the output is [?, ?] until run time.
func.func @nd(%data: tensor<2x2x2xf32>, %dyn: tensor<?x?x?xf32>, %dyn_indices: tensor<?x2xi64>)
    -> (tensor<?x?xf32>, tensor<?x?xf32>) {
  %indices = arith.constant dense<[[1], [0]]> : tensor<2x1xi64>
  %0 = gather.nd %data[%indices] batch_dims = 1
      : (tensor<2x2x2xf32>, tensor<2x1xi64>) -> tensor<?x?xf32>
  %1 = gather.nd %dyn[%dyn_indices]
      : (tensor<?x?x?xf32>, tensor<?x2xi64>) -> tensor<?x?xf32>
  return %0, %1 : tensor<?x?xf32>, tensor<?x?xf32>
}
