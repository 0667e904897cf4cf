# Index arithmetic past 2^31 and 2^32: gathers over dimensions and byte
# offsets that do not fit in 32 bits, executed through the C API and
# compared with plain numpy indexing. The data arrays are 2-8 GiB of zeros
# that numpy maps lazily: only the pages holding the addressed elements
# (written below) and the indices are touched. Covers static and dynamic
# sizes, i32 indices wrapped into a dimension larger than 2^31 (the wrap
# must be computed in 64 bits), clamping of an index near 2^40, and each op
# at -O0 and -O3.
# RUN: %python %s | FileCheck %s
# CHECK-NOT: FAIL
# CHECK: large-offsets: 10 passed, 0 failed
import numpy as np

from gather import jit

BIG = 2**31 + 8  # elements: not an int32, and rows of int8 past 2^32 bytes
BIG_I8 = 2**32 + 16
passed = failed = 0


def check(name, text, args, want):
    global passed, failed
    for opt in (0, 3):
        try:
            got = jit.compile(text, opt_level=opt)(*args)
        except jit.GatherError as e:
            print(f"FAIL {name} -O{opt}: {e}")
            failed += 1
            continue
        if got.shape != want.shape or got.dtype != want.dtype or not np.array_equal(got, want):
            print(f"FAIL {name} -O{opt}: got {got.tolist()} want {want.tolist()}")
            failed += 1
        else:
            passed += 1


def mark(array, positions):
    """Distinct nonzero values at the addressed positions (a read anywhere
    else returns 0)."""
    for k, p in enumerate(positions):
        array[p] = k + 1


# gather.elements along a row of 2^32 + 16 int8: the second row starts at
# byte 2^32 + 16.
data = np.zeros((2, BIG_I8), np.int8)
cols = np.array([[BIG_I8 - 1, 0, -1], [2**32 + 3, -2**32, 5]], np.int64)
mark(data, [(r, c % BIG_I8) for r, row in enumerate(cols) for c in row])
want = np.array([[data[r, c % BIG_I8] for c in row] for r, row in enumerate(cols)], np.int8)
check("elements_static", f"""
func.func @main(%d: tensor<2x{BIG_I8}xi8>, %i: tensor<2x3xi64>) -> tensor<2x3xi8> {{
  %init = tensor.empty() : tensor<2x3xi8>
  %0 = gather.elements %d[%i] axis = 1 into %init : tensor<2x{BIG_I8}xi8>, tensor<2x3xi64> into tensor<2x3xi8>
  return %0 : tensor<2x3xi8>
}}""", (data, cols), want)
check("elements_dynamic", """
func.func @main(%d: tensor<?x?xi8>, %i: tensor<?x?xi64>) -> tensor<?x?xi8> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %n0 = tensor.dim %i, %c0 : tensor<?x?xi64>
  %n1 = tensor.dim %i, %c1 : tensor<?x?xi64>
  %init = tensor.empty(%n0, %n1) : tensor<?x?xi8>
  %0 = gather.elements %d[%i] axis = 1 into %init : tensor<?x?xi8>, tensor<?x?xi64> into tensor<?x?xi8>
  return %0 : tensor<?x?xi8>
}""", (data, cols), want)

# gather.nd: a coordinate pair whose linear offset is past 2^32.
coords = np.array([[1, BIG_I8 - 2], [0, 2**31], [1, -3]], np.int64)
for k, (r, c) in enumerate(coords):
    data[r, c % BIG_I8] = 11 + k
want = np.array([data[r, c % BIG_I8] for r, c in coords], np.int8)
check("nd_static", f"""
func.func @main(%d: tensor<2x{BIG_I8}xi8>, %i: tensor<3x2xi64>) -> tensor<3xi8> {{
  %init = tensor.empty() : tensor<3xi8>
  %0 = gather.nd %d[%i] batch_dims = 0 into %init : tensor<2x{BIG_I8}xi8>, tensor<3x2xi64> into tensor<3xi8>
  return %0 : tensor<3xi8>
}}""", (data, coords), want)

# gather.multiaxis with two axes, clamping an index near 2^40 to the last
# column.
pairs = np.array([[[1, 2**40], [0, BIG_I8 - 1], [1, 7]]], np.int64).reshape(1, 6)
data[1, BIG_I8 - 1] = 99
want = np.array([[data[1, BIG_I8 - 1], data[0, BIG_I8 - 1], data[1, 7]]], np.int8)
check("multiaxis_clamp", f"""
func.func @main(%d: tensor<2x{BIG_I8}xi8>, %i: tensor<1x6xi64>) -> tensor<1x3xi8> {{
  %init = tensor.empty() : tensor<1x3xi8>
  %0 = gather.multiaxis %d[%i] axes = [0, 1] out_of_bounds = clamp into %init : tensor<2x{BIG_I8}xi8>, tensor<1x6xi64> into tensor<1x3xi8>
  return %0 : tensor<1x3xi8>
}}""", (data, pairs), want)
del data

# gather.block with i32 indices into 2^31 + 8 float32 (8 GiB): -1 wraps to
# 2^31 + 7, past what an int32 holds; byte offsets past 2^33.
table = np.zeros(BIG, np.float32)
ids = np.array([-1, 2**31 - 1, -(2**31), 3], np.int32)
mark(table, [int(i) % BIG for i in ids])
want = table[ids.astype(np.int64) % BIG]
check("block_i32_wrap", f"""
func.func @main(%d: tensor<?xf32>, %i: tensor<4xi32>) -> tensor<4xf32> {{
  %init = tensor.empty() : tensor<4xf32>
  %0 = gather.block %d[%i] axis = 0 into %init : tensor<?xf32>, tensor<4xi32> into tensor<4xf32>
  return %0 : tensor<4xf32>
}}""", (table, ids), want)

print(f"large-offsets: {passed} passed, {failed} failed")
