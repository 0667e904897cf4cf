# Blocks under 4 KiB whose rows hold a cache line or more are copied with
# vector loads and stores of 512 bytes (BlockCopy.cpp), not with a memcpy
# per row. Executed through the C API at -O3 against the numpy reference:
# embedding rows of 768 f32 (six chunks) under every out_of_bounds policy
# with negative and out-of-range indices; the longest row (seven chunks and
# a shorter rest); rows of a rest only; a block of two dimensions (f16);
# i8 rows under fill; an invalid index under error; a middle axis; gather.nd
# and gather.multiaxis blocks; a dynamic number of indices; i32 indices.
# The module is also lowered with gather-opt to make sure that every
# function copies its rows with vectors.
# RUN: %python %s %gather_bin | FileCheck %s
# CHECK-NOT: FAIL
# CHECK: block-rows: 15 passed, 0 failed
import sys

import numpy as np

from gather import reference as ref
from gather_testing.difftest import (POLICY_PAIRS as POLICIES, FunctionCases, expected, policy_indices,
                             policy_text)

rng = np.random.default_rng(12)
suite = FunctionCases()
add = suite.add

# Embedding rows of 768 f32 (3 KiB): fewer than 16 indices per call would
# also do; 40 keeps every thread busy.
table = rng.standard_normal((300, 768)).astype(np.float32)
for oob, negative in POLICIES:
    ids = policy_indices(rng, 40, 300, oob)
    add(f"rows768_{oob}_{negative}", "block", "axis = 0" + policy_text(oob, negative),
        table, ids, (40, 768), expected(ref.block, table, ids, 0, negative, oob))
ids = rng.integers(0, 300, 40)
ids[29] = 300
add("rows768_error_invalid", "block", "axis = 0", table, ids, (40, 768),
    expected(ref.block, table, ids, 0))
ids = rng.integers(-300, 300, 12).astype(np.int32)
add("rows768_i32", "block", "axis = 0", table, ids, (12, 768),
    expected(ref.block, table, ids.astype(np.int64), 0))
# 1000 f32 (the longest row copied with vectors): seven chunks, then 104.
long_rows = rng.standard_normal((20, 1000)).astype(np.float32)
ids = rng.integers(-20, 20, 9)
add("long_rows", "block", "axis = 0", long_rows, ids, (9, 1000),
    expected(ref.block, long_rows, ids, 0))
# 24 f32 (96 bytes) with fewer than 16 rows (not tiled): the rest alone.
short = rng.standard_normal((30, 24)).astype(np.float32)
ids = rng.integers(-30, 30, 5)
add("rest_only", "block", "axis = 0", short, ids, (5, 24), expected(ref.block, short, ids, 0))
# A block of 3 rows of 64 f16, along a middle axis.
volume = rng.standard_normal((2, 9, 3, 64)).astype(np.float16)
ids = rng.integers(-9, 9, 5)
add("two_dimensional_block_f16", "block", "axis = 1", volume, ids, (2, 5, 3, 64),
    expected(ref.block, volume, ids, 1))
# i8 rows of 64 under fill.
bytes_ = rng.integers(-128, 127, (10, 64)).astype(np.int8)
ids = np.array([3, -2, 10, -11, 9, 0, 15])
add("rows_i8_fill", "block", "axis = 0 out_of_bounds = fill", bytes_, ids, (7, 64),
    expected(ref.block, bytes_, ids, 0, "wrap", "fill"))
# A middle axis (W2's shape, smaller): 1 KiB rows.
mid = rng.standard_normal((4, 30, 256)).astype(np.float32)
ids = rng.integers(-30, 30, 11)
add("middle_axis", "block", "axis = 1 out_of_bounds = clamp", mid, ids, (4, 11, 256),
    expected(ref.block, mid, ids, 1, "wrap", "clamp"))
# gather.nd with 512-byte blocks, and gather.multiaxis over two axes.
cube = rng.standard_normal((6, 7, 128)).astype(np.float32)
coords = np.stack([rng.integers(-6, 6, 10), rng.integers(-7, 7, 10)], -1)
add("nd_blocks", "nd", "batch_dims = 0", cube, coords, (10, 128),
    expected(ref.nd, cube, coords, 0))
idx = np.stack([rng.integers(-6, 6, (3, 1)), rng.integers(-7, 7, (3, 1))], -1).reshape(3, 1, 2)
add("multiaxis_blocks", "multiaxis", "axes = [0, 1]", cube, idx, (3, 1, 128),
    expected(ref.multiaxis, cube, idx, (0, 1)))
# The number of indices known at run time only.
ids = rng.integers(-300, 300, 13)
add("rows768_dynamic", "block", "axis = 0", table, ids, (13, 768),
    expected(ref.block, table, ids, 0), dynamic=((0,), (0,), [(0, ("i", 0))]))

# A row copy writes its chunks whole (no mask) into the output's slice.
suite.report("block-rows", sys.argv[1],
             r"vector\.transfer_write %\S+, %\S+\[[^\]]*\] \{in_bounds = \[true\]\} : vector<",
             "rows not copied with vectors")
