// A top-level assert, as torch-mlir writes one for a shape it cannot check
// at compile time: the two index tensors an elementwise op adds must have
// one length. Past it, the add would read past the shorter one.
#map = affine_map<(d0) -> (d0)>
func.func @main(%table: tensor<?x3xf32>, %a: tensor<?xi64>, %b: tensor<?xi64>) -> tensor<?x3xf32> {
  %c0 = arith.constant 0 : index
  %na = tensor.dim %a, %c0 : tensor<?xi64>
  %nb = tensor.dim %b, %c0 : tensor<?xi64>
  %same = arith.cmpi eq, %na, %nb : index
  cf.assert %same, "mismatched size for broadcast"
  %empty = tensor.empty(%na) : tensor<?xi64>
  %sum = linalg.generic {indexing_maps = [#map, #map, #map], iterator_types = ["parallel"]}
      ins(%a, %b : tensor<?xi64>, tensor<?xi64>) outs(%empty : tensor<?xi64>) {
  ^bb0(%x: i64, %y: i64, %out: i64):
    %s = arith.addi %x, %y : i64
    linalg.yield %s : i64
  } -> tensor<?xi64>
  %init = tensor.empty(%na) : tensor<?x3xf32>
  %rows = gather.block %table[%sum] axis = 0 into %init : tensor<?x3xf32>, tensor<?xi64> into tensor<?x3xf32>
  return %rows : tensor<?x3xf32>
}
