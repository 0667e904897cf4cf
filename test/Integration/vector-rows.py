# The vector rows of an element gather run their full steps of 16 lanes
# without masks, then the rest of the row as one masked step
# (VectorRows.cpp). Executed through the C API at -O3 against the numpy
# reference, with dynamic sizes: rows of 37 (two full steps and a rest of
# 5) under every out_of_bounds policy, 32 (no rest), 5 (the rest alone),
# f16 and i8 data with i32 indices, an invalid index under `error` in a
# full step and in the rest, an indices row of 1 at run time, and index
# rows broadcast along the rows' dimension (the linear-offset form). The
# module is also lowered with gather-opt to make sure that every function
# takes the vector rows.
# RUN: %python %s %gather_bin | FileCheck %s
# CHECK-NOT: FAIL
# CHECK: vector-rows: 22 passed, 0 failed
import sys

import numpy as np

from gather import reference as ref
from gather_testing.difftest import (POLICY_PAIRS as POLICIES, FunctionCases, expected, policy_indices,
                             policy_text)

rng = np.random.default_rng(13)
suite = FunctionCases()
add = suite.add
# Every size dynamic; the output's sizes are the indices'.
DYNAMIC = ((0, 1), (0, 1), [(0, ("i", 0)), (1, ("i", 1))])

table = rng.standard_normal((6, 50)).astype(np.float32)
for oob, negative in POLICIES:
    idx = policy_indices(rng, (6, 37), 50, oob, every=6)
    add(f"row37_{oob}_{negative}", "elements", "axis = 1" + policy_text(oob, negative),
        table, idx, (6, 37), expected(ref.elements, table, idx, 1, negative, oob), dynamic=DYNAMIC)
for length in (32, 5):
    idx = rng.integers(-50, 50, (6, length))
    add(f"row{length}", "elements", "axis = 1", table, idx, (6, length),
        expected(ref.elements, table, idx, 1), dynamic=DYNAMIC)
half = rng.standard_normal((3, 70)).astype(np.float16)
idx = rng.integers(-70, 70, (3, 41)).astype(np.int32)
add("row41_f16_i32", "elements", "axis = 1", half, idx, (3, 41),
    expected(ref.elements, half, idx.astype(np.int64), 1), dynamic=DYNAMIC)
bytes_ = rng.integers(-128, 127, (4, 90)).astype(np.int8)
idx = rng.integers(-90, 95, (4, 53))
add("row53_i8_clamp", "elements", "axis = 1 out_of_bounds = clamp", bytes_, idx, (4, 53),
    expected(ref.elements, bytes_, idx, 1, "wrap", "clamp"), dynamic=DYNAMIC)
for name, position in (("full_step", 3), ("rest", 35)):
    idx = rng.integers(0, 50, (6, 37))
    idx[4, position] = 50
    add(f"row37_error_invalid_in_{name}", "elements", "axis = 1", table, idx, (6, 37),
        expected(ref.elements, table, idx, 1), dynamic=DYNAMIC)
# gather.multiaxis along the last axis with an indices row of 1 (dynamic),
# and over axis 0 with one index row for all 6 output rows.
idx = rng.integers(-50, 50, (6, 1))
add("indices_row_of_one", "multiaxis", "axes = [1]", table, idx, (6, 1),
    expected(ref.multiaxis, table, idx, (1,)), dynamic=DYNAMIC)
wide = rng.standard_normal((6, 37)).astype(np.float32)
idx = rng.integers(-6, 6, (1, 37))
add("row37_index_rows_broadcast", "multiaxis", "axes = [0]", wide, idx, (1, 37),
    expected(ref.multiaxis, wide, idx, (0,)), dynamic=DYNAMIC)

# Interleaved coordinates (gather.multiaxis with k = 2 or 3 along the rows):
# each step's k x 16 index values are one contiguous read, taken apart by
# shuffles. Indices with dynamic sizes (so that a row of one tuple is only
# known at run time); rows of 37 under every policy, i32 indices, three
# coordinates in another order than the input's dimensions, an invalid
# index in the rest step, and a row of one tuple broadcast along the rows.
STATIC_OUT = ((), (0, 1, 2), [])


def interleave(*coordinates):
    return np.stack(coordinates, axis=-1).reshape(*coordinates[0].shape[:-1], -1)


for oob, negative in POLICIES:
    idx = interleave(policy_indices(rng, (6, 37), 6, oob, every=5),
                     policy_indices(rng, (6, 37), 50, oob, every=6))
    add(f"pairs_row37_{oob}_{negative}", "multiaxis", "axes = [0, 1]" + policy_text(oob, negative),
        table, idx, (6, 37), expected(ref.multiaxis, table, idx, (0, 1), negative, oob),
        dynamic=STATIC_OUT)
idx = interleave(rng.integers(-9, 15, (6, 21)), rng.integers(-60, 60, (6, 21))).astype(np.int32)
add("pairs_row21_i32_clamp", "multiaxis", "axes = [0, 1] out_of_bounds = clamp", table, idx, (6, 21),
    expected(ref.multiaxis, table, idx.astype(np.int64), (0, 1), "wrap", "clamp"),
    dynamic=STATIC_OUT)
cube = rng.standard_normal((4, 6, 50)).astype(np.float32)
idx = interleave(rng.integers(-50, 50, (4, 6, 19)), rng.integers(-4, 4, (4, 6, 19)),
                 rng.integers(-6, 6, (4, 6, 19)))
add("triples_row19_axes_2_0_1", "multiaxis", "axes = [2, 0, 1]", cube, idx, (4, 6, 19),
    expected(ref.multiaxis, cube, idx, (2, 0, 1)), dynamic=STATIC_OUT)
idx = interleave(rng.integers(0, 6, (6, 37)), rng.integers(0, 50, (6, 37)))
idx[2, 2 * 35 + 1] = 50
add("pairs_row37_error_invalid_in_rest", "multiaxis", "axes = [0, 1]", table, idx, (6, 37),
    expected(ref.multiaxis, table, idx, (0, 1)), dynamic=STATIC_OUT)
rows = rng.standard_normal((6, 5, 37)).astype(np.float32)
idx = interleave(rng.integers(-6, 6, (6, 5, 1)), rng.integers(-5, 5, (6, 5, 1)))
add("pairs_one_tuple_per_row", "multiaxis", "axes = [0, 1]", rows, idx, (6, 5, 37),
    expected(ref.multiaxis, rows, idx, (0, 1)), dynamic=STATIC_OUT)

# The interleaved cases read their index tuples contiguously (k x 16 values).
for name in suite.lacking(sys.argv[1], r"vector\.transfer_read %arg1\[.*vector<(32|48)xi(32|64)>"):
    if name.startswith(("pairs_", "triples_")):
        print(f"FAIL {name}: index tuples not read contiguously")
suite.report("vector-rows", sys.argv[1], r"vector\.gather", "not lowered to vector rows")
