// An scf.for whose body's generic does not read its output (the iteration
// argument): the elementwise fusion gives it a fresh tensor.empty, so the
// loop yields a new buffer each iteration. The result: rows * (n - 1).
#map = affine_map<(d0, d1) -> (d0, d1)>
func.func @main(%table: tensor<?x?xf32>, %ids: tensor<?xi64>, %n: tensor<i64>) -> tensor<?x?xf32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %rows_n = tensor.dim %ids, %c0 : tensor<?xi64>
  %cols = tensor.dim %table, %c1 : tensor<?x?xf32>
  %init = tensor.empty(%rows_n, %cols) : tensor<?x?xf32>
  %rows = gather.block %table[%ids] axis = 0 into %init : tensor<?x?xf32>, tensor<?xi64> into tensor<?x?xf32>
  %n_i64 = tensor.extract %n[] : tensor<i64>
  %steps = arith.index_cast %n_i64 : i64 to index
  %zero = arith.constant 0.0 : f32
  %zeros = linalg.fill ins(%zero : f32) outs(%init : tensor<?x?xf32>) -> tensor<?x?xf32>
  %loop = scf.for %k = %c0 to %steps step %c1 iter_args(%acc = %zeros) -> tensor<?x?xf32> {
    %k_i64 = arith.index_cast %k : index to i64
    %scale = arith.sitofp %k_i64 : i64 to f32
    %next = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel"]}
        ins(%rows : tensor<?x?xf32>) outs(%acc : tensor<?x?xf32>) {
    ^bb0(%in: f32, %out: f32):
      %s = arith.mulf %in, %scale : f32
      linalg.yield %s : f32
    } -> tensor<?x?xf32>
    scf.yield %next : tensor<?x?xf32>
  }
  return %loop : tensor<?x?xf32>
}
