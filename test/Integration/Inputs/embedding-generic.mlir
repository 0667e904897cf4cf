// An embedding lookup as torch-mlir writes it: a plain read at an index.
#map_i = affine_map<(d0, d1) -> (d0)>
#map_o = affine_map<(d0, d1) -> (d0, d1)>
func.func @main(%t: tensor<4x3xf32>, %idx: tensor<2xi64>) -> tensor<2x3xf32> {
  %init = tensor.empty() : tensor<2x3xf32>
  %r = linalg.generic {indexing_maps = [#map_i, #map_o], iterator_types = ["parallel", "parallel"]}
      ins(%idx : tensor<2xi64>) outs(%init : tensor<2x3xf32>) {
  ^bb0(%in: i64, %out: f32):
    %x = arith.index_cast %in : i64 to index
    %j = linalg.index 1 : index
    %v = tensor.extract %t[%x, %j] : tensor<4x3xf32>
    linalg.yield %v : f32
  } -> tensor<2x3xf32>
  return %r : tensor<2x3xf32>
}
