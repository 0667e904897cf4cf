# Block gathers whose rows have a dynamic length copy them with vector
# registers where they hold a cache line to a page (whole chunks, whole
# registers, then one masked register), else with one slice: row lengths on
# both sides of each bound and of each step, for f32, f16 and i8 rows,
# under every policy, blocks of three rows on both sides of the page, and
# an invalid index under error, against the numpy reference, through the C
# API for the host at -O3. Every function takes the masked tail's path.
# RUN: %python %s %gather_bin | FileCheck %s
# CHECK-NOT: FAIL
# CHECK: dynamic-rows: 34 passed, 0 failed
import sys

import numpy as np

from gather import reference as ref
from gather_testing.difftest import (POLICY_PAIRS as POLICIES, FunctionCases, expected,
                                     policy_indices, policy_text)

bin_dir = sys.argv[1]
rng = np.random.default_rng(36)
suite = FunctionCases()

# Lengths in elements: below a line, a line, a line and one, a chunk of 8
# AVX2 registers (64 f32) and of 8 AVX-512 ones (128 f32), between them,
# and on both sides of a page (vectorCopyMaxBytes).
LENGTHS = {np.float32: [3, 15, 16, 17, 64, 71, 128, 200, 1023, 1024, 1100],
           np.float16: [31, 32, 33, 129, 2047, 2048],
           np.int8: [63, 64, 95, 4095, 4096]}
k = 0
for dtype, lengths in LENGTHS.items():
    for length in lengths:
        oob, negative = POLICIES[k % len(POLICIES)]
        k += 1
        table = (rng.standard_normal((37, length)) * 40).astype(dtype)
        ids = policy_indices(rng, 9, 37, oob)
        suite.add(f"rows_{np.dtype(dtype).name}_{length}_{oob}_{negative}", "block",
                  "axis = 0" + policy_text(oob, negative), table, ids, (9, length),
                  expected(ref.block, table, ids, 0, negative, oob),
                  dynamic=((0, 1), (0,), [(0, ("i", 0)), (1, ("d", 1))]))

# Blocks of three rows: 3 x 341 f32 within a page, 3 x 342 beyond.
for length in (341, 342):
    for oob, negative in POLICIES:
        volume = rng.standard_normal((11, 3, length)).astype(np.float32)
        ids = policy_indices(rng, 6, 11, oob)
        suite.add(f"block_3x{length}_{oob}_{negative}", "block",
                  "axis = 0" + policy_text(oob, negative), volume, ids, (6, 3, length),
                  expected(ref.block, volume, ids, 0, negative, oob),
                  dynamic=((0, 2), (0,), [(0, ("i", 0)), (2, ("d", 2))]))

# An invalid index under error: the error names it, whichever path copied.
for length in (200, 1100):
    table = rng.standard_normal((20, length)).astype(np.float32)
    ids = rng.integers(0, 20, 7)
    ids[4] = 20
    suite.add(f"rows_error_invalid_{length}", "block", "axis = 0", table, ids, (7, length),
              expected(ref.block, table, ids, 0),
              dynamic=((0, 1), (0,), [(0, ("i", 0)), (1, ("d", 1))]))

suite.report("dynamic-rows", bin_dir, r"vector\.create_mask",
             "rows of dynamic length are not copied with vector registers")
