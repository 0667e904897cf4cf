// torch-mlir's bound asserts in a generic left unraised, whose loop runs in
// parallel when long enough. Past the loop, 1000 / y[0]: were the call to
// go on after an assert failed at ids[0] (the body yields 0 there), the
// division would trap.
#map = affine_map<(d0) -> (d0)>
func.func @main(%table: tensor<?xi64>, %ids: tensor<?xi64>) -> tensor<?xi64> {
  %c0 = arith.constant 0 : index
  %n = tensor.dim %ids, %c0 : tensor<?xi64>
  %size = tensor.dim %table, %c0 : tensor<?xi64>
  %init = tensor.empty(%n) : tensor<?xi64>
  %y = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel"]}
      ins(%ids : tensor<?xi64>) outs(%init : tensor<?xi64>) {
  ^bb0(%in: i64, %out: i64):
    %i = arith.index_cast %in : i64 to index
    %lt = arith.cmpi slt, %i, %size : index
    cf.assert %lt, "index must be smaller than dim size"
    %zero = arith.constant 0 : i64
    %ge = arith.cmpi sge, %in, %zero : i64
    cf.assert %ge, "index must be larger or equal to 0"
    %v = tensor.extract %table[%i] : tensor<?xi64>
    linalg.yield %v : i64
  } -> tensor<?xi64>
  %first = tensor.extract %y[%c0] : tensor<?xi64>
  %thousand = arith.constant 1000 : i64
  %q = arith.divsi %thousand, %first : i64
  %r = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel"]}
      ins(%y : tensor<?xi64>) outs(%init : tensor<?xi64>) {
  ^bb0(%in: i64, %out: i64):
    %s = arith.addi %in, %q : i64
    linalg.yield %s : i64
  } -> tensor<?xi64>
  return %r : tensor<?xi64>
}
