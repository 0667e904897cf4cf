// torch's x[torch.arange(n), idx] as torch-mlir writes it (dynamic n):
// arange counts along the loop, aten.index.Tensor wraps both indices.
#id = affine_map<(d0) -> (d0)>
func.func @rows_of_arange(%x: tensor<?x10xf32>, %idx: tensor<?xi64>) -> tensor<?xf32> {
  %c0i = arith.constant 0 : index
  %n = tensor.dim %idx, %c0i : tensor<?xi64>
  %e = tensor.empty(%n) : tensor<?xi64>
  %ar = linalg.generic {indexing_maps = [#id], iterator_types = ["parallel"]} outs(%e : tensor<?xi64>) {
  ^bb0(%o: i64):
    %i = linalg.index 0 : index
    %c = arith.index_cast %i : index to i64
    linalg.yield %c : i64
  } -> tensor<?xi64>
  %init = tensor.empty(%n) : tensor<?xf32>
  %r = linalg.generic {indexing_maps = [#id, #id, #id], iterator_types = ["parallel"]}
      ins(%ar, %idx : tensor<?xi64>, tensor<?xi64>) outs(%init : tensor<?xf32>) {
  ^bb0(%a: i64, %b: i64, %out: f32):
    %zero = arith.constant 0 : i64
    %c0x = arith.constant 0 : index
    %dx = tensor.dim %x, %c0x : tensor<?x10xf32>
    %c4 = arith.index_cast %dx : index to i64
    %c10 = arith.constant 10 : i64
    %na = arith.cmpi slt, %a, %zero : i64
    %pa = arith.addi %a, %c4 : i64
    %wa = arith.select %na, %pa, %a : i64
    %p = arith.index_cast %wa : i64 to index
    %nb = arith.cmpi slt, %b, %zero : i64
    %pb = arith.addi %b, %c10 : i64
    %wb = arith.select %nb, %pb, %b : i64
    %q = arith.index_cast %wb : i64 to index
    %v = tensor.extract %x[%p, %q] : tensor<?x10xf32>
    linalg.yield %v : f32
  } -> tensor<?xf32>
  return %r : tensor<?xf32>
}
