# Gathers on reshapes that split one dynamic dimension into two dynamic
# ones ([b * s] -> [b, s], a reshape of a flattened tensor), executed
# through the C API and compared with numpy. Bufferized, such a reshape is
# a memref.expand_shape with two dynamic sizes in one group, on which
# MLIR 22's expand-strided-metadata crashes; the pipelines lower it first
# (gather-expand-shapes-to-reinterpret-casts). Rows of lengths that are
# and are not multiples of the vector width, one row, and an invalid index.
# RUN: %python %s | FileCheck %s
# CHECK-NOT: FAIL
# CHECK: dynamic-reshapes: 10 passed, 0 failed
import numpy as np

from gather import jit, reference as ref
from gather_testing.difftest import CallChecks, reference_or_error as expected

rng = np.random.default_rng(11)
checks = CallChecks()
check = checks.check

# @split_rows: flat data of m * n values seen as m rows of n (m from the
# indices, n = size / m, a reshape to [m, -1]), an element gather along
# the rows. @embed_batches: a flat list of b * s token ids seen as b
# sequences of s (b from the length of %scale), each looked up in a table.
text = """
func.func @split_rows(%d: tensor<?xf32>, %i: tensor<?x?xi64>) -> tensor<?x?xf32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %m = tensor.dim %i, %c0 : tensor<?x?xi64>
  %k = tensor.dim %i, %c1 : tensor<?x?xi64>
  %size = tensor.dim %d, %c0 : tensor<?xf32>
  %n = arith.divui %size, %m : index
  %x = tensor.expand_shape %d [[0, 1]] output_shape [%m, %n] : tensor<?xf32> into tensor<?x?xf32>
  %e = tensor.empty(%m, %k) : tensor<?x?xf32>
  %r = gather.elements %x[%i] axis = 1 into %e : tensor<?x?xf32>, tensor<?x?xi64> into tensor<?x?xf32>
  return %r : tensor<?x?xf32>
}
func.func @embed_batches(%table: tensor<?x?xf32>, %ids: tensor<?xi64>, %scale: tensor<?xf32>) -> tensor<?x?x?xf32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %b = tensor.dim %scale, %c0 : tensor<?xf32>
  %count = tensor.dim %ids, %c0 : tensor<?xi64>
  %s = arith.divui %count, %b : index
  %dim = tensor.dim %table, %c1 : tensor<?x?xf32>
  %i = tensor.expand_shape %ids [[0, 1]] output_shape [%b, %s] : tensor<?xi64> into tensor<?x?xi64>
  %e = tensor.empty(%b, %s, %dim) : tensor<?x?x?xf32>
  %r = gather.block %table[%i] axis = 0 into %e : tensor<?x?xf32>, tensor<?x?xi64> into tensor<?x?x?xf32>
  return %r : tensor<?x?x?xf32>
}
"""
program = jit.compile(text, entry="split_rows", opt_level=3)
for m, n, k in ((4, 16, 16), (3, 37, 19), (1, 50, 7), (8, 5, 40)):
    data = rng.standard_normal(m * n).astype(np.float32)
    idx = rng.integers(-n, n, (m, k))
    check(f"split_rows_{m}x{n}", program, "split_rows", (data, idx),
          expected(ref.elements, data.reshape(m, n), idx, 1))
data = rng.standard_normal(3 * 37).astype(np.float32)
idx = rng.integers(0, 37, (3, 19))
idx[2, 5] = 37
check("split_rows_invalid", program, "split_rows", (data, idx),
      expected(ref.elements, data.reshape(3, 37), idx, 1))

table = rng.standard_normal((1000, 64)).astype(np.float32)
for b, s in ((2, 8), (3, 13), (1, 5), (5, 1)):
    ids = rng.integers(-1000, 1000, b * s)
    scale = np.ones(b, np.float32)
    check(f"embed_batches_{b}x{s}", program, "embed_batches", (table, ids, scale),
          expected(ref.block, table, ids.reshape(b, s), 0))
ids = rng.integers(0, 1000, 12)
ids[7] = 1000
check("embed_batches_invalid", program, "embed_batches", (table, ids, np.ones(3, np.float32)),
      expected(ref.block, table, ids.reshape(3, 4), 0))

print(checks.summary("dynamic-reshapes"))
