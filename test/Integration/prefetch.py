# The CPU forms with software prefetch (inputs of 1 MiB or more, static
# sizes), executed through the C API at -O3 and compared with the numpy
# reference: block copies that prefetch a later iteration's block (embedding
# rows, gather.nd blocks and the index values of later tiles, a loop shorter
# than the prefetch distance), element rows that prefetch the next input
# row, rows that prefetch the index values of the next indices row, and
# offset-table rows that prefetch each read's offset in a later pixel,
# under every out_of_bounds policy with negative and out-of-range indices,
# f32, f16 and i8, static and dynamic sizes. The module is also lowered
# with gather-opt to make sure that every function here does take the
# prefetching path. A few run again with the index prefetch turned off, and
# into the L2 only (not beside an input row's prefetch), by the target
# description.
# RUN: %python %s %gather_bin | FileCheck %s
# CHECK-NOT: FAIL
# CHECK: prefetch: 57 passed, 0 failed
# CHECK: prefetch-index-streams-off: 3 passed, 0 failed
# CHECK: prefetch-index-streams-l2: 6 passed, 0 failed
# CHECK: prefetch-index-streams-l2-input-rows: 2 passed, 0 failed
# CHECK: prefetch-blocks-l2: 6 passed, 0 failed
import sys

import numpy as np

from gather import reference as ref
from gather_testing.difftest import (POLICY_PAIRS as POLICIES, FunctionCases, expected, policy_indices,
                             policy_text)

rng = np.random.default_rng(7)
suite = FunctionCases()
add = suite.add


# Embedding rows (2048 x 256 f32, 2 MiB): 300 rows, some negative, and for
# the policies that allow them some out of range.
table = rng.standard_normal((2048, 256)).astype(np.float32)
for oob, negative in POLICIES:
    ids = policy_indices(rng, 300, 2048, oob, every=37)
    want = expected(ref.block, table, ids, 0, negative, oob)
    add(f"block_{oob}_{negative}", "block", "axis = 0" + policy_text(oob, negative),
        table, ids, (300, 256), want)
# An invalid row under `error`: the call fails.
ids = rng.integers(0, 2048, 300)
ids[123] = 2048
add("block_error_invalid", "block", "axis = 0", table, ids, (300, 256),
    expected(ref.block, table, ids, 0))
# A loop of 3 rows, shorter than the prefetch distance (clamped to the last).
ids = np.array([5, -1, 2047])
add("block_short_loop", "block", "axis = 0", table, ids, (3, 256), expected(ref.block, table, ids, 0))
# f16 rows of 200 elements (400 bytes: not whole cache lines).
half = rng.standard_normal((4096, 200)).astype(np.float16)
ids = rng.integers(-4096, 4096, 500)
add("block_f16_partial_lines", "block", "axis = 0", half, ids, (500, 200),
    expected(ref.block, half, ids, 0))

# gather.nd blocks of 16 bytes, batch_dims = 1 (4 MiB), 1000 pairs a batch
# and 65536 ("long": 4 MiB of indices, more than any host's L2, so each full
# tile also prefetches the index values that the block prefetch reads 128
# blocks later), every policy; an invalid pair; the long ones with a
# dynamic batch.
volume = rng.standard_normal((4, 256, 256, 4)).astype(np.float32)
for name, pairs_per_batch in (("nd", 1000), ("nd_long", 65536)):
    for oob, negative in POLICIES:
        coords = rng.integers(-256, 256, (4, pairs_per_batch, 2))
        if oob not in ("unchecked", "error"):
            coords[:, ::53, 1] = 256 + rng.integers(0, 99)
        want = expected(ref.nd, volume, coords, 1, negative, oob)
        add(f"{name}_{oob}_{negative}", "nd", "batch_dims = 1" + policy_text(oob, negative),
            volume, coords, (4, pairs_per_batch, 4), want)
coords = rng.integers(0, 256, (4, 1000, 2))
coords[3, 999, 0] = -257
add("nd_error_invalid", "nd", "batch_dims = 1", volume, coords, (4, 1000, 4),
    expected(ref.nd, volume, coords, 1))
coords = rng.integers(-256, 256, (4, 65536, 2))
coords[2, 65535, 1] = 256
add("nd_long_error_invalid_dynamic", "nd", "batch_dims = 1", volume, coords, (4, 65536, 4),
    expected(ref.nd, volume, coords, 1), dynamic=((0,), (0,), [(0, ("i", 0))]))

# Element rows along dense input rows (512 x 1024 f32, 2 MiB; 300 reads per
# 4 KiB row), including the last row (its "next" row clamped to itself).
rows = rng.standard_normal((512, 1024)).astype(np.float32)
for oob, negative in POLICIES:
    cols = rng.integers(-1024, 1024, (512, 300))
    if oob not in ("unchecked", "error"):
        cols[::7, ::11] = 1024 + rng.integers(0, 500)
    want = expected(ref.elements, rows, cols, 1, negative, oob)
    add(f"elements_{oob}_{negative}", "elements", "axis = 1" + policy_text(oob, negative),
        rows, cols, (512, 300), want)
cols = rng.integers(0, 1024, (512, 300))
cols[511, 299] = 1024
add("elements_error_invalid", "elements", "axis = 1", rows, cols, (512, 300),
    expected(ref.elements, rows, cols, 1))
# Each step also prefetches the lines of the next indices row that it reads
# there: i32 indices (one line a step), one indices row broadcast over the
# input's rows (not prefetched), and the same broadcast of a dynamic indices
# row count, 1 at run time (the next indices row clamped to the only one).
cols = rng.integers(-1024, 1024, (512, 300)).astype(np.int32)
cols[-1, -1] = 1023
add("elements_i32_indices", "elements", "axis = 1", rows, cols, (512, 300),
    expected(ref.elements, rows, cols, 1))
one_row = rng.integers(-1024, 1024, (1, 300))
add("multiaxis_broadcast_index_row", "multiaxis", "axes = [1]", rows, one_row, (512, 300),
    expected(ref.multiaxis, rows, one_row, [1]))
add("multiaxis_broadcast_index_row_dynamic", "multiaxis", "axes = [1]", rows, one_row,
    (512, 300), expected(ref.multiaxis, rows, one_row, [1]),
    dynamic=((), (0,), [(0, ("d", 0))]))
# Interleaved (row, column) pairs read contiguously (W8's form: 4 MiB of
# indices, more than any host's L2): each step prefetches its values of the
# next indices row, under every policy, with i32 indices (4 MiB too) and a
# dynamic row count (the last row's next one clamped at run time).
grid = rng.standard_normal((512, 512)).astype(np.float32)
for oob, negative in POLICIES:
    pairs = policy_indices(rng, (512, 1024), 512, oob, every=13)
    add(f"multiaxis_pairs_{oob}_{negative}", "multiaxis", "axes = [0, 1]" + policy_text(oob, negative),
        grid, pairs, (512, 512), expected(ref.multiaxis, grid, pairs, [0, 1], negative, oob))
pairs = rng.integers(-512, 512, (1024, 1024)).astype(np.int32)
add("multiaxis_pairs_i32", "multiaxis", "axes = [0, 1]", grid, pairs, (1024, 512),
    expected(ref.multiaxis, grid, pairs, [0, 1]))
pairs = rng.integers(-512, 512, (512, 1024))
pairs[511, 1023] = 512
add("multiaxis_pairs_error_invalid_dynamic", "multiaxis", "axes = [0, 1]", grid, pairs, (512, 512),
    expected(ref.multiaxis, grid, pairs, [0, 1]), dynamic=((), (0,), [(0, ("i", 0))]))
# i8 rows (2048 x 1024 bytes, 2 MiB; 64 reads per 16-line row), a row
# length that is not a multiple of the vector width.
small = rng.integers(-128, 127, (2048, 1024)).astype(np.int8)
cols = rng.integers(-1024, 1024, (2048, 37))
add("elements_i8", "elements", "axis = 1", small, cols, (2048, 37),
    expected(ref.elements, small, cols, 1))
# An element gather along a dense row of a 3-D input (2 x 512 x 1024 f32).
cube = rng.standard_normal((2, 512, 512)).astype(np.float32)
cols = rng.integers(-512, 512, (2, 512, 200))
add("elements_3d", "elements", "axis = 2", cube, cols, (2, 512, 200),
    expected(ref.elements, cube, cols, 2))
for oob in ("clamp", "fill"):
    cols = rng.integers(-600, 600, (2, 512, 200))
    add(f"elements_3d_{oob}", "elements", f"axis = 2 out_of_bounds = {oob}", cube, cols,
        (2, 512, 200), expected(ref.elements, cube, cols, 2, "wrap", oob))

# Dynamic sizes (the table's rows and the loop bounds; the plan's sizes
# static): a table of unknown size counts as large.
ids = rng.integers(-2048, 2048 + 100, 700)
add("block_dynamic_clamp", "block", "axis = 0 out_of_bounds = clamp", table, ids, (700, 256),
    expected(ref.block, table, ids, 0, "wrap", "clamp"), dynamic=((0,), (0,), [(0, ("i", 0))]))
coords = rng.integers(-256, 256, (4, 1000, 2))
add("nd_dynamic", "nd", "batch_dims = 1", volume, coords, (4, 1000, 4),
    expected(ref.nd, volume, coords, 1),
    dynamic=((0, 1), (0, 1), [(0, ("i", 0)), (1, ("i", 1))]))
cols = rng.integers(-512, 512, (2, 512, 200))
add("elements_dynamic_batch", "elements", "axis = 2", cube, cols, (2, 512, 200),
    expected(ref.elements, cube, cols, 2), dynamic=((0,), (0,), [(0, ("i", 0))]))

# Rows of dynamic number (the next row clamped at run time), one of them a
# single row (its next row is itself).
cols = rng.integers(-1024, 1024, (512, 300))
add("elements_dynamic_rows", "elements", "axis = 1", rows, cols, (512, 300),
    expected(ref.elements, rows, cols, 1), dynamic=((0,), (0,), [(0, ("i", 0))]))
single = rng.standard_normal((1, 1 << 18)).astype(np.float32)
cols = rng.integers(-(1 << 18), 1 << 18, (1, 70000))
add("elements_dynamic_single_row", "elements", "axis = 1", single, cols, (1, 70000),
    expected(ref.elements, single, cols, 1), dynamic=((0,), (0,), [(0, ("i", 0))]))

# Every size dynamic: lines per step computed at run time, for dense rows
# (prefetched), sparse rows (none), rows of one index (broadcast read) and
# empty rows.
all_dyn = ((0, 1), (0, 1), [(0, ("i", 0)), (1, ("i", 1))])
for name, cols in (("dense", rng.integers(-1024, 1024, (512, 300))),
                   ("sparse", rng.integers(-1024, 1024, (512, 5))),
                   ("single_index", rng.integers(-1024, 1024, (512, 1))),
                   # No output column: the plan divides by the row length.
                   ("empty_rows", np.zeros((512, 0), np.int64))):
    add(f"elements_all_dynamic_{name}", "elements", "axis = 1 out_of_bounds = clamp", rows, cols,
        cols.shape, expected(ref.elements, rows, cols, 1, "wrap", "clamp"), dynamic=all_dyn)

# Offset-table rows (multiaxis over axes [0, 3] of an NHWC 8x32x32x64 f32
# image, 2 MiB, as W5 of bench/run.py): each read prefetches its offset in
# the next pixel, the last pixel's clamped to itself.
image = rng.standard_normal((8, 32, 32, 64)).astype(np.float32)
for oob, negative in POLICIES:
    pairs = np.stack([policy_indices(rng, (3, 16), 8, oob, every=5),
                      policy_indices(rng, (3, 16), 64, oob, every=5)], axis=-1)
    pairs = pairs.reshape(3, 1, 1, 32)
    want = expected(ref.multiaxis, image, pairs, [0, 3], negative, oob)
    add(f"multiaxis_table_{oob}_{negative}", "multiaxis", "axes = [0, 3]" + policy_text(oob, negative),
        image, pairs, (3, 32, 32, 16), want)
pairs = rng.integers(0, 8, (3, 1, 1, 32))
pairs[2, 0, 0, 31] = 64
add("multiaxis_table_error_invalid", "multiaxis", "axes = [0, 3]", image, pairs, (3, 32, 32, 16),
    expected(ref.multiaxis, image, pairs, [0, 3]))
# Offset-table rows along a non-axis innermost dimension (axis 0 of
# 16x64x512 f32, 2 MiB; indices 4x1x512 reused by the 64 rows): each read
# adds its own column, ahead and now.
cube16 = rng.standard_normal((16, 64, 512)).astype(np.float32)
for oob in ("error", "fill"):
    ids = policy_indices(rng, (4, 1, 512), 16, oob, every=9)
    add(f"multiaxis_table_own_column_{oob}", "multiaxis", "axes = [0]" + policy_text(oob, "wrap"),
        cube16, ids, (4, 64, 512), expected(ref.multiaxis, cube16, ids, [0], "wrap", oob))

# Every function takes the prefetching path.
suite.report("prefetch", sys.argv[1], r"memref\.prefetch", "not lowered with a prefetch")

# The target entry "prefetch_index_streams" = 0 (prefetch.mlir: no index
# value prefetched) and = 2 (Zen 4's: the index values prefetched into the
# L2 only, locality 2, and not in rows that prefetch their next input row).
# Under 0, element rows with 4 MiB of indices and gather.nd tiles with 4 MiB
# of pairs, which prefetch their index values into every level without the
# entry, still prefetch the input and give numpy's results. Under 2, rows of
# (row, column) pairs (W8's form) and the tiles prefetch index values into
# the L2, and the element rows still prefetch their input rows; all give
# numpy's results.
def level_cases(name, with_elements, with_pairs):
    cases = FunctionCases()
    for oob in ("error", "fill") if with_elements else ():
        cols = rng.integers(-1024, 1024, (512, 1024))
        if oob == "fill":
            cols[::5, ::9] = 1024 + rng.integers(0, 500)
        cases.add(f"elements_index_streams_{name.replace('-', '_')}_{oob}", "elements", "axis = 1" + policy_text(oob, "wrap"),
                  rows, cols, (512, 1024), expected(ref.elements, rows, cols, 1, "wrap", oob))
    for oob, negative in POLICIES if with_pairs else ():
        pairs = policy_indices(rng, (512, 1024), 512, oob, every=11)
        cases.add(f"multiaxis_pairs_index_streams_{name}_{oob}_{negative}", "multiaxis",
                  "axes = [0, 1]" + policy_text(oob, negative), grid, pairs, (512, 512),
                  expected(ref.multiaxis, grid, pairs, [0, 1], negative, oob))
    if name != "l2-input-rows":
        coords = rng.integers(-256, 256, (4, 65536, 2))
        cases.add(f"nd_long_index_streams_{name}", "nd", "batch_dims = 1", volume, coords, (4, 65536, 4),
                  expected(ref.nd, volume, coords, 1))
    return cases


for level, name, elements, pairs, pattern, what in (
        (0, "off", True, False, r"memref\.prefetch", "not lowered with a prefetch"),
        (2, "l2", False, True, r"memref\.prefetch .*locality<2>", "not lowered with a prefetch into the L2"),
        (2, "l2-input-rows", True, False, r"memref\.prefetch", "not lowered with a prefetch")):
    level_cases(name, elements, pairs).report(f"prefetch-index-streams-{name}", sys.argv[1], pattern, what,
                                              cpu_entries={"prefetch_index_streams": level})

# The target entry "prefetch_blocks_l2" = 1 (prefetch.mlir: block rows
# prefetched into the L2 only, locality 2): rows of 1 KiB under every
# policy and 16-byte blocks in tiles give numpy's results.
blocks_l2 = FunctionCases()
for oob, negative in POLICIES:
    ids = policy_indices(rng, 700, 2048, oob, every=13)
    blocks_l2.add(f"block_rows_l2_{oob}_{negative}", "block", "axis = 0" + policy_text(oob, negative),
                  table, ids, (700, 256), expected(ref.block, table, ids, 0, negative, oob))
coords = rng.integers(-256, 256, (4, 65536, 2))
blocks_l2.add("nd_tiles_l2", "nd", "batch_dims = 1", volume, coords, (4, 65536, 4),
              expected(ref.nd, volume, coords, 1))
blocks_l2.report("prefetch-blocks-l2", sys.argv[1], r"memref\.prefetch .*locality<2>",
                 "not lowered with a prefetch into the L2", cpu_entries={"prefetch_blocks_l2": 1})
