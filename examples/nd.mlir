// gather.nd (ONNX GatherND), the ONNX GatherND page example 5: data [2,2,2], indices
// [[1],[0]], batch_dims 1 -> output [2,2]:
// output[b, t] = data[b, indices[b, 0], t]
// The second op has dynamic shapes: its destination takes the sizes of the
// indices' rows and the data's last dimension at run time.
func.func @nd(%data: tensor<2x2x2xf32>, %dyn: tensor<?x?x?xf32>, %dyn_indices: tensor<?x2xi64>)
    -> (tensor<2x2xf32>, tensor<?x?xf32>) {
  %indices = arith.constant dense<[[1], [0]]> : tensor<2x1xi64>
  %init0 = tensor.empty() : tensor<2x2xf32>
  %0 = gather.nd %data[%indices] batch_dims = 1 into %init0
      : tensor<2x2x2xf32>, tensor<2x1xi64> into tensor<2x2xf32>
  %c0 = arith.constant 0 : index
  %c2 = arith.constant 2 : index
  %rows = tensor.dim %dyn_indices, %c0 : tensor<?x2xi64>
  %cols = tensor.dim %dyn, %c2 : tensor<?x?x?xf32>
  %init1 = tensor.empty(%rows, %cols) : tensor<?x?xf32>
  %1 = gather.nd %dyn[%dyn_indices] into %init1
      : tensor<?x?x?xf32>, tensor<?x2xi64> into tensor<?x?xf32>
  return %0, %1 : tensor<2x2xf32>, tensor<?x?xf32>
}
