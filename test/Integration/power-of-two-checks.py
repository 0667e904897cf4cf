# Index checks without compares on axes of a static power-of-two size
# (VectorRows.cpp: planOredChecks), which apply without mask registers
# (AVX2: x86-64-v3, on any x86-64 host) under `error`. A full vector step
# reads coordinate & (size - 1) and clears the row's valid lanes wherever
# coordinate >> bits is not 0; the masked rest and axes of other sizes
# compare. Element gathers along rows of 64 (static and dynamic row
# lengths, so full steps and a rest), points of a 16 x 32 table (two powers
# of two) and of a 16 x 24 one (one of each), i32 indices and
# negative_indices = out_of_bounds. Chunks of offsets (a 4 KiB L2
# described, so that small tables take them) OR the coordinates, each
# shifted right by its axis's bits over the smallest axis's, and compare
# once a chunk: points of a 64 x 64 and a 16 x 128 table in rows of 150.
# Each valid, at the edges (-size and size - 1), and with one invalid value
# past the end, within the larger axis but past the smaller, or below
# -size, in a full step and in the rest (in the first and the second
# chunk). Executed through the C API against the numpy reference, for AVX2
# and for the host.
# REQUIRES: x86_64-host
# RUN: %python %s %gather_bin | FileCheck %s
# CHECK-NOT: FAIL
# CHECK: power-of-two checks, AVX2: 30 passed, 0 failed
# CHECK: power-of-two checks, host: 30 passed, 0 failed
# CHECK: power-of-two checks in chunks, AVX2: 11 passed, 0 failed
# CHECK: power-of-two checks in chunks, host: 11 passed, 0 failed
import sys

import numpy as np

from gather import reference as ref
from gather_testing.difftest import FunctionCases, expected, policy_text

rng = np.random.default_rng(29)
suite = FunctionCases()
STATIC = ((), (), [])
# The indices' row and the output's dynamic: full steps, then a rest.
DYNAMIC_ROW = ((), (1,), [(1, ("i", 1))])

# Element gathers along rows of 64: 40 per row (full steps of 8 or 16,
# then a rest on AVX-512's 16 lanes), and 37 (a rest on both).
wide = rng.standard_normal((6, 64)).astype(np.float32)
for length in (40, 37):
    edits = {"valid": [], "edges": [((0, 1), -64), ((1, 2), 63)],
             "past": [((2, 3), 64)], "below": [((3, 5), -65)],
             "past_in_rest": [((4, length - 1), 64)]}
    for what, changes in edits.items():
        for dynamic, form in ((STATIC, "static"), (DYNAMIC_ROW, "dynamic")):
            idx = rng.integers(-64, 64, (6, length))
            for at, value in changes:
                idx[at] = value
            suite.add(f"rows{length}_{what}_{form}", "elements", "axis = 1", wide, idx,
                      (6, length), expected(ref.elements, wide, idx, 1), dynamic=dynamic)


def points(rows, cols, shape):
    return np.stack([rng.integers(-rows, rows, shape), rng.integers(-cols, cols, shape)],
                    axis=-1).reshape(*shape[:-1], -1)


# Points of a small table (in the L2: no chunks), rows of 40.
for label, shape in (("pow2", (16, 32)), ("mixed", (16, 24))):
    table = rng.standard_normal(shape).astype(np.float32)
    rows, cols = shape
    edits = {"valid": [], "row_within_columns": [((1, 6), min(cols - 1, 20))],
             "column_past": [((2, 9), cols)], "row_below": [((3, 2), -rows - 1)]}
    for what, changes in edits.items():
        idx = points(rows, cols, (4, 40))
        for (row, k), value in changes:
            # row: the first coordinate of pair k, else the second
            idx[row, 2 * k + (0 if "row" in what else 1)] = value
        suite.add(f"points_{label}_{what}", "multiaxis", "axes = [0, 1]", table, idx, (4, 40),
                  expected(ref.multiaxis, table, idx, (0, 1)), dynamic=STATIC)

idx = rng.integers(-64, 64, (6, 40)).astype(np.int32)
idx[5, 7] = 64
suite.add("rows40_i32_past", "elements", "axis = 1", wide, idx, (6, 40),
          expected(ref.elements, wide, idx.astype(np.int64), 1), dynamic=STATIC)
idx = rng.integers(0, 64, (6, 40))
idx[2, 30] = -1
suite.add("rows40_negative_out_of_bounds", "elements",
          "axis = 1" + policy_text("error", "out_of_bounds"), wide, idx, (6, 40),
          expected(ref.elements, wide, idx, 1, "out_of_bounds", "error"), dynamic=STATIC)

suite.report("power-of-two checks, AVX2", sys.argv[1], r"arith\.shrui", "no shifted check",
             target_cpu="x86-64-v3")
suite.report("power-of-two checks, host", sys.argv[1], r"vector\.gather", "no vector rows")

# Chunks of offsets: a 4 KiB L2 and a 6 KiB L1 described, chunks of 64
# offsets given (offset-chunks.py's description).
CPU = {"L2_cache_size_in_bytes": 4096, "L1_cache_size_in_bytes": 6144,
       "offset_chunk_bytes": 512}
chunks = FunctionCases()
for label, shape in (("square", (64, 64)), ("unequal", (16, 128))):
    t = rng.standard_normal(shape).astype(np.float32)
    rows, cols = shape
    edits = {"valid": [],
             "edges": [((0, 0), -rows), ((1, 1), -cols), ((2, 0), rows - 1), ((3, 1), cols - 1)],
             "row_past": [((2, 0), rows)],
             "column_past": [((4, 1), cols)],
             "below": [((1, 0), -rows - 1)]}
    if label == "unequal":
        edits["row_within_columns"] = [((5, 0), cols - 1)]
    for what, changes in edits.items():
        idx = points(rows, cols, (6, 150))
        for (row, c), value in changes:
            # the second chunk for rows 2 and 4 (pair 100), else the first
            idx[row, 2 * (100 if row in (2, 4) else 10) + c] = value
        chunks.add(f"chunks_{label}_{what}", "multiaxis", "axes = [0, 1]", t, idx, (6, 150),
                   expected(ref.multiaxis, t, idx, (0, 1)), dynamic=STATIC)
chunks.report("power-of-two checks in chunks, AVX2", sys.argv[1],
              r"vector\.reduction <or>, %\S+ : vector<\d+xindex> into index",
              "no ORed coordinates", cpu_entries=CPU, target_cpu="x86-64-v3")
chunks.report("power-of-two checks in chunks, host", sys.argv[1],
              r"memref\.alloca\(\) : memref<64xindex>", "no chunks of 64 offsets",
              cpu_entries=CPU)
