# The prefetch distance the DLTI entry "prefetch_lines_ahead" gives
# (CpuTarget::prefetchLinesAhead), executed through the C API at -O3 and
# compared with the numpy reference: for 1 line, 32 lines and 2^20 lines
# (past every loop's end: the prefetched index clamped to the last), and 32
# lines with at most 3 lines of a block prefetched (the entry
# "prefetch_block_lines", CpuTarget::prefetchMaxBlockLines), block
# rows of 1 KiB (16 lines a row: 1, 2 and all rows ahead), tiled blocks of
# 256 bytes (W7's rows: 1, 8 and all rows ahead), with a tail of rows
# (702: 87 tiles of 8 and 6, 175 of 4 and 2), and gather.nd blocks of 16
# bytes, under `error` and `clamp` with out-of-range indices. The module
# also describes a 64 KiB L2, so that these small tables take the
# prefetching forms; every function must have a memref.prefetch.
# RUN: %python %s %gather_bin | FileCheck %s
# CHECK-NOT: FAIL
# CHECK: prefetch-distance 1: 8 passed, 0 failed
# CHECK: prefetch-distance 32: 8 passed, 0 failed
# CHECK: prefetch-distance 1048576: 8 passed, 0 failed
# CHECK: prefetch-distance 32, 3 lines a block: 8 passed, 0 failed
import sys

import numpy as np

from gather import reference as ref
from gather_testing.difftest import FunctionCases, expected, policy_indices, policy_text

rng = np.random.default_rng(23)
rows = rng.standard_normal((512, 256)).astype(np.float32)  # 512 KiB
short = rng.standard_normal((4096, 64)).astype(np.float32)  # 1 MiB, 256-byte rows
volume = rng.standard_normal((4, 128, 128, 4)).astype(np.float32)  # 1 MiB

# The distance in lines, and the lines prefetched of a block at most (the
# DLTI entry "prefetch_block_lines"; None: the description's 16).
for lines, block_lines in ((1, None), (32, None), (1 << 20, None), (32, 3)):
    suite = FunctionCases()
    for oob in ("error", "clamp"):
        ids = policy_indices(rng, 300, 512, oob, every=37)
        suite.add(f"rows_{oob}", "block", "axis = 0" + policy_text(oob, "wrap"), rows, ids,
                  (300, 256), expected(ref.block, rows, ids, 0, "wrap", oob))
        ids = policy_indices(rng, 702, 4096, oob, every=41)
        suite.add(f"short_rows_{oob}", "block", "axis = 0" + policy_text(oob, "wrap"), short, ids,
                  (702, 64), expected(ref.block, short, ids, 0, "wrap", oob))
        coords = rng.integers(-128, 128, (4, 1000, 2))
        if oob == "clamp":
            coords[:, ::53, 1] = 128 + rng.integers(0, 99)
        suite.add(f"nd_{oob}", "nd", "batch_dims = 1" + policy_text(oob, "wrap"), volume, coords,
                  (4, 1000, 4), expected(ref.nd, volume, coords, 1, "wrap", oob))
    # An invalid index under `error`: the call fails.
    ids = rng.integers(0, 4096, 702)
    ids[650] = 4096
    suite.add("short_rows_error_invalid", "block", "axis = 0", short, ids, (702, 64),
              expected(ref.block, short, ids, 0))
    ids = rng.integers(0, 512, 300)
    ids[299] = -513
    suite.add("rows_error_invalid_last", "block", "axis = 0", rows, ids, (300, 256),
              expected(ref.block, rows, ids, 0))
    entries = {"prefetch_lines_ahead": lines, "L2_cache_size_in_bytes": 65536}
    title = f"prefetch-distance {lines}"
    if block_lines:
        entries["prefetch_block_lines"] = block_lines
        title += f", {block_lines} lines a block"
    suite.report(title, sys.argv[1], r"memref\.prefetch", "no prefetch", cpu_entries=entries)
