// An assert that the lowering cannot make skip what it guards: it sits in
// an scf.if in the generic's body (always taken: the column is never 7),
// not in the body itself.
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
    %c0_i64 = arith.constant 0 : i64
    %ok = arith.cmpi sge, %in, %c0_i64 : i64
    %c7 = arith.constant 7 : index
    %column = arith.cmpi ne, %1, %c7 : index
    scf.if %column {
      cf.assert %ok, "index must be larger or equal to 0"
    }
    %5 = tensor.extract %weight[%0, %1] : tensor<4x3xf32>
    linalg.yield %5 : f32
  } -> tensor<?x3xf32>
  return %r : tensor<?x3xf32>
}
