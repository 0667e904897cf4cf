# A gather whose elementwise consumer the CPU pipeline fuses
# (gather-fuse-consumers) into tiles, called with outputs of dynamic size
# that are empty at run time: no tile runs, yet an invalid index under
# `error` and sizes that do not match must be reported as the unfused
# gather reports them (docs/GatherDialect.md: every index value must be
# valid, also one that no output element reads). Each function runs fused
# (as written) and unfused (its result returned too, which keeps the
# consumer from fusing), through the JIT; the reports must be the same, and
# results with valid inputs must equal numpy's. The empty block gather here
# is the case the fuzzer found (utils/gather_fuzz.py, seed 6501): a result
# where an error was due.
# RUN: %python %s | FileCheck %s
# CHECK-NOT: FAIL
# CHECK: fused-empty-outputs: 14 passed, 0 failed
import numpy as np

from gather import jit

passed = failed = 0

DOUBLE = """  %y = linalg.generic {{indexing_maps = [{m}, {m}], iterator_types = [{it}]}}
      ins(%r : {t}) outs(%e : {t}) {{
  ^bb0(%x: {ety}, %o: {ety}):
    %z = arith.addf %x, %x : {ety}
    linalg.yield %z : {ety}
  }} -> {t}
"""


def function(gather_line, args, out_type, rank, fused):
    dims = ", ".join(f"d{k}" for k in range(rank))
    consumer = DOUBLE.format(m=f"affine_map<({dims}) -> ({dims})>",
                             it=", ".join(['"parallel"'] * rank), t=out_type, ety="f32")
    results = f"{out_type}" if fused else f"{out_type}, {out_type}"
    returned = "%y" if fused else "%y, %r"
    return (f"func.func @main({args}) -> ({results}) {{\n  {gather_line}\n{consumer}"
            f"  return {returned} : {results}\n}}\n")


def run(name, text, arrays, want_error=None, want=None):
    global passed, failed
    for fused in (True, False):
        label = f"{name} ({'fused' if fused else 'unfused'})"
        program = jit.compile(text(fused), threads=2)
        try:
            got = program(*arrays)
            got = got if fused else got[0]
        except jit.GatherError as e:
            if want_error and want_error in str(e):
                passed += 1
            else:
                print(f"FAIL {label}: {e}")
                failed += 1
            continue
        if want_error:
            print(f"FAIL {label}: expected an error with {want_error!r}, got a result {got.shape}")
            failed += 1
        elif got.shape != want.shape or not np.array_equal(got, want):
            print(f"FAIL {label}: {got} differs from {want}")
            failed += 1
        else:
            passed += 1


# The fuzzer's case, reduced: gather.block on axis 0 of a 4x3x?x? table
# whose third dimension is 0 at run time, 31x? indices with one invalid.
block = ("%r = gather.block %d[%i] axis = -4 into %e : tensor<4x3x?x?xf32>, tensor<31x?xi32> "
         "into tensor<31x?x3x?x?xf32>")
block_args = "%d: tensor<4x3x?x?xf32>, %i: tensor<31x?xi32>, %e: tensor<31x?x3x?x?xf32>"
table = np.zeros((4, 3, 0, 4), np.float32)
bad = np.zeros((31, 1), np.int32)
bad[5, 0] = 9
empty_out = np.zeros((31, 1, 3, 0, 4), np.float32)


def block_text(fused):
    return function(block, block_args, "tensor<31x?x3x?x?xf32>", 5, fused)


run("block_empty_invalid_index", block_text, (table, bad, empty_out),
    want_error="index 9 at indices[5, 0] is out of range [-4, 3] for dimension 0 (size 4)")
good = np.zeros((31, 1), np.int32)
run("block_empty_valid", block_text, (table, good, empty_out), want=empty_out * 2)
# Not empty: the tiles check the same index themselves.
table2 = np.arange(4 * 3 * 2 * 4, dtype=np.float32).reshape(4, 3, 2, 4)
run("block_not_empty_invalid_index", block_text, (table2, bad, np.zeros((31, 1, 3, 2, 4), np.float32)),
    want_error="index 9 at indices[5, 0]")
ok = np.arange(31, dtype=np.int32).reshape(31, 1) % 4
run("block_not_empty_valid", block_text, (table2, ok, np.zeros((31, 1, 3, 2, 4), np.float32)),
    want=2 * np.take(table2, ok, axis=0))

# A multiaxis gather whose sizes do not broadcast (data dimension 1 of size
# 3, indices of 2), its output empty (no index rows).
multi = ("%r = gather.multiaxis %d[%i] axes = [0] into %e : tensor<?x?xf32>, tensor<?x?xi64> "
         "into tensor<?x?xf32>")
multi_args = "%d: tensor<?x?xf32>, %i: tensor<?x?xi64>, %e: tensor<?x?xf32>"


def multi_text(fused):
    return function(multi, multi_args, "tensor<?x?xf32>", 2, fused)


grid = np.arange(12, dtype=np.float32).reshape(4, 3)
run("multiaxis_empty_shape_mismatch", multi_text,
    (grid, np.zeros((0, 2), np.int64), np.zeros((0, 3), np.float32)),
    want_error="data dimension 1 (size 3) is not broadcast-compatible")
run("multiaxis_empty_valid", multi_text,
    (grid, np.zeros((0, 3), np.int64), np.zeros((0, 3), np.float32)), want=np.zeros((0, 3), np.float32))
rows = np.array([[3, 0, 1], [1, 2, 3]], np.int64)
run("multiaxis_not_empty_valid", multi_text, (grid, rows, np.zeros((2, 3), np.float32)),
    want=2 * np.take_along_axis(grid, rows, axis=0))
print(f"fused-empty-outputs: {passed} passed, {failed} failed")
