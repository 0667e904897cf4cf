// A shape assert after a gather whose output the call has allocated: when
// the assert fails, the call ends there and that output is garbage. The
// indices' temporary (max(a, 0)) is freed before the assert.
#map = affine_map<(d0) -> (d0)>
func.func @main(%table: tensor<?x?xf32>, %a: tensor<?xi64>, %b: tensor<?xi64>) -> tensor<?x?xf32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %na = tensor.dim %a, %c0 : tensor<?xi64>
  %nb = tensor.dim %b, %c0 : tensor<?xi64>
  %cols = tensor.dim %table, %c1 : tensor<?x?xf32>
  %zero = arith.constant 0 : i64
  %empty = tensor.empty(%na) : tensor<?xi64>
  %nonneg = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel"]}
      ins(%a : tensor<?xi64>) outs(%empty : tensor<?xi64>) {
  ^bb0(%x: i64, %out: i64):
    %m = arith.maxsi %x, %zero : i64
    linalg.yield %m : i64
  } -> tensor<?xi64>
  %init = tensor.empty(%na, %cols) : tensor<?x?xf32>
  %rows = gather.block %table[%nonneg] axis = 0 into %init : tensor<?x?xf32>, tensor<?xi64> into tensor<?x?xf32>
  %same = arith.cmpi eq, %na, %nb : index
  cf.assert %same, "mismatched size for broadcast"
  %init2 = tensor.empty(%nb, %cols) : tensor<?x?xf32>
  %again = gather.block %rows[%b] axis = 0 into %init2 : tensor<?x?xf32>, tensor<?xi64> into tensor<?x?xf32>
  return %again : tensor<?x?xf32>
}
