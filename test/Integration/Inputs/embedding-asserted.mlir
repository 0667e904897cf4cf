// aten.embedding as torch-mlir's TorchToLinalg writes it: the body asserts
// that the index is in range before it reads the table.
#map_i = affine_map<(d0, d1) -> (d0)>
#map_o = affine_map<(d0, d1) -> (d0, d1)>
func.func @main(%weight: tensor<4x3xf32>, %ids: tensor<?xi64>) -> tensor<?x3xf32> {
  %c0 = arith.constant 0 : index
  %n = tensor.dim %ids, %c0 : tensor<?xi64>
  %init = tensor.empty(%n) : tensor<?x3xf32>
  %r = linalg.generic {indexing_maps = [#map_i, #map_o], iterator_types = ["parallel", "parallel"]}
      ins(%ids : tensor<?xi64>) outs(%init : tensor<?x3xf32>) {
  ^bb0(%in: i64, %out: f32):
    %0 = arith.index_cast %in : i64 to index
    %1 = linalg.index 1 : index
    %2 = arith.index_cast %in : i64 to index
    %c4 = arith.constant 4 : index
    %3 = arith.cmpi slt, %2, %c4 : index
    cf.assert %3, "index must be smaller than dim size"
    %c0_i64 = arith.constant 0 : i64
    %4 = arith.cmpi sge, %in, %c0_i64 : i64
    cf.assert %4, "index must be larger or equal to 0"
    %5 = tensor.extract %weight[%0, %1] : tensor<4x3xf32>
    linalg.yield %5 : f32
  } -> tensor<?x3xf32>
  return %r : tensor<?x3xf32>
}
