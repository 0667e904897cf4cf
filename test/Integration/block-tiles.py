# Block copies of small blocks (at most 256 bytes) run in tiles of blocks
# (8 with AVX-512, 4 with AVX2 and on 128-bit vector units such as Zen 1's)
# along the innermost loop dimension, their index tuples read and resolved
# as vectors (BlockCopy.cpp). The suite runs as planned for the host, then
# for 128-bit vector units whatever the host, then in tiles of 3, then
# without tiles (DLTI entries). Executed through the C API at -O3 against the numpy reference:
# gather.nd blocks (k = 2 and 3), block gathers of short rows (k = 1, f32,
# f16, i8, i32 indices; rows of a cache line or more, which are copied a
# vector register at a time, in blocks of one and two rows and with a
# shorter last register, also after two or three gathered axes), every
# out_of_bounds policy with negative and
# out-of-range indices, rows whose length is not a multiple of the tile (a
# partial tile) and static multiples of 16 (full tiles only where the tile
# divides them), an invalid index in a full and in a partial tile (also
# along axes of power-of-two sizes, int64's extremes included), dynamic
# sizes, indices broadcast at run time along the tile dimension (every
# tile partial), and an input whose size there is dynamic (spanned or
# broadcast at run time). The module is also lowered with gather-opt to make sure
# that every function takes the tiled path. Last, blocks of 37 rows of 160
# bytes in tiles (a description of 128-byte lines, 64 of them a block):
# each block's rows copied by one loop.
# RUN: %python %s %gather_bin | FileCheck %s
# CHECK-NOT: FAIL
# CHECK: block-tiles: 57 passed, 0 failed
# CHECK: block-tiles, tiles of 4: 57 passed, 0 failed
# CHECK: block-tiles, tiles of 3: 57 passed, 0 failed
# CHECK: block-tiles, no tiles: 57 passed, 0 failed
# CHECK: block-tiles, blocks of 37 rows: 4 passed, 0 failed
import sys

import numpy as np

from gather import reference as ref
from gather_testing.difftest import (POLICY_PAIRS as POLICIES, FunctionCases, expected, policy_indices,
                             policy_text)

rng = np.random.default_rng(11)
suite = FunctionCases()
add = suite.add


# gather.nd, batch_dims = 1, 16-byte blocks; 37 tuples per batch: two full
# tiles and a partial one of 5.
volume = rng.standard_normal((3, 20, 30, 4)).astype(np.float32)
for oob, negative in POLICIES:
    coords = np.stack([rng.integers(-20, 20, (3, 37)), rng.integers(-30, 30, (3, 37))], -1)
    if oob not in ("unchecked", "error"):
        coords[:, ::5, 1] = 30 + rng.integers(0, 9)
        coords[:, 3::7, 0] = -21 - rng.integers(0, 9)
    add(f"nd_{oob}_{negative}", "nd", "batch_dims = 1" + policy_text(oob, negative),
        volume, coords, (3, 37, 4), expected(ref.nd, volume, coords, 1, negative, oob))
# Invalid under `error`, in a full tile and in the partial tile.
for name, (b, t, c, v) in (("full_tile", (1, 17, 0, 20)), ("partial_tile", (2, 35, 1, -31))):
    coords = np.stack([rng.integers(0, 20, (3, 37)), rng.integers(0, 30, (3, 37))], -1)
    coords[b, t, c] = v
    add(f"nd_error_invalid_{name}", "nd", "batch_dims = 1", volume, coords, (3, 37, 4),
        expected(ref.nd, volume, coords, 1))
# Axes of power-of-two sizes (16 and 32): the full tiles' check under
# `error` is one masked test of the coordinates' high bits. Every valid
# value (a wrapped negative one too) passes it; each invalid one (just
# past either end, and the extremes of int64) is reported, in a full and
# in the partial tile.
pow2 = rng.standard_normal((3, 16, 32, 4)).astype(np.float32)
coords = np.stack([rng.integers(-16, 16, (3, 37)), rng.integers(-32, 32, (3, 37))], -1)
coords[0, :4] = [[-16, -32], [15, 31], [0, -1], [-1, 0]]
add("nd_pow2_valid", "nd", "batch_dims = 1", pow2, coords, (3, 37, 4),
    expected(ref.nd, pow2, coords, 1))
for name, (b, t, c, v) in (("past_end", (1, 9, 0, 16)), ("before_wrap", (2, 34, 1, -33)),
                           ("int64_max", (0, 2, 1, 2**63 - 1)), ("int64_min", (2, 36, 0, -2**63))):
    bad = coords.copy()
    bad[b, t, c] = v
    add(f"nd_pow2_error_invalid_{name}", "nd", "batch_dims = 1", pow2, bad, (3, 37, 4),
        expected(ref.nd, pow2, bad, 1))
add("nd_pow2_unchecked", "nd", "batch_dims = 1 out_of_bounds = unchecked", pow2, coords,
    (3, 37, 4), expected(ref.nd, pow2, coords, 1, "wrap", "unchecked"))
# Without the wrap a negative value is invalid; the largest valid ones pass.
plain = np.abs(coords) % [16, 32]
plain[0, :2] = [[15, 31], [0, 0]]
add("nd_pow2_no_wrap", "nd", "batch_dims = 1 negative_indices = out_of_bounds", pow2, plain,
    (3, 37, 4), expected(ref.nd, pow2, plain, 1, "out_of_bounds"))
for name, (b, t, c, v) in (("negative", (1, 9, 0, -1)), ("past_end", (2, 34, 1, 32))):
    bad = plain.copy()
    bad[b, t, c] = v
    add(f"nd_pow2_no_wrap_invalid_{name}", "nd", "batch_dims = 1 negative_indices = out_of_bounds",
        pow2, bad, (3, 37, 4), expected(ref.nd, pow2, bad, 1, "out_of_bounds"))
# k = 3, batch_dims = 0: tuples (a, b, c) into 6x7x8 blocks of 4.
cube = rng.standard_normal((6, 7, 8, 4)).astype(np.float32)
coords = np.stack([rng.integers(-6, 6, 50), rng.integers(-7, 7, 50), rng.integers(-8, 8, 50)], -1)
add("nd_k3", "nd", "batch_dims = 0", cube, coords, (50, 4), expected(ref.nd, cube, coords, 0))
coords = coords.copy()
coords[::3, 2] = 9
add("nd_k3_fill", "nd", "batch_dims = 0 out_of_bounds = fill", cube, coords, (50, 4),
    expected(ref.nd, cube, coords, 0, "wrap", "fill"))

# Block gathers of short rows (k = 1): 4 f32 (16 bytes), 8 f16, 16 i8, a
# row of 64 f32 (256 bytes, the largest tiled block).
rows4 = rng.standard_normal((1000, 4)).astype(np.float32)
for oob, negative in POLICIES:
    ids = policy_indices(rng, 100, 1000, oob, every=9)
    add(f"block_rows4_{oob}_{negative}", "block", "axis = 0" + policy_text(oob, negative),
        rows4, ids, (100, 4), expected(ref.block, rows4, ids, 0, negative, oob))
ids = rng.integers(-1000, 1000, 100).astype(np.int32)
add("block_rows4_i32", "block", "axis = 0", rows4, ids, (100, 4),
    expected(ref.block, rows4, ids.astype(np.int64), 0))
half = rng.standard_normal((500, 8)).astype(np.float16)
ids = rng.integers(-500, 500, 77)
add("block_rows_f16", "block", "axis = 0", half, ids, (77, 8), expected(ref.block, half, ids, 0))
bytes_ = rng.integers(-128, 127, (300, 16)).astype(np.int8)
ids = rng.integers(-320, 320, 64)
add("block_rows_i8", "block", "axis = 0 out_of_bounds = clamp", bytes_, ids, (64, 16),
    expected(ref.block, bytes_, ids, 0, "wrap", "clamp"))
rows64 = rng.standard_normal((200, 64)).astype(np.float32)
ids = rng.integers(-200, 200, 40)
add("block_rows64", "block", "axis = 0", rows64, ids, (40, 64), expected(ref.block, rows64, ids, 0))
ids = ids.copy()
ids[17] = 200
add("block_rows64_error_invalid", "block", "axis = 0", rows64, ids, (40, 64),
    expected(ref.block, rows64, ids, 0))
# Extents that are static multiples of 16 (48 and 64): every tile full,
# no partial-tile path in the code; every policy, an invalid index under
# `error` in the last tile, and 256-byte rows.
for oob, negative in POLICIES:
    ids = policy_indices(rng, 48, 1000, oob, every=7)
    add(f"block_rows4_full_tiles_{oob}_{negative}", "block",
        "axis = 0" + policy_text(oob, negative), rows4, ids, (48, 4),
        expected(ref.block, rows4, ids, 0, negative, oob))
ids = rng.integers(-1000, 1000, 48)
ids[45] = -1001
add("block_rows4_full_tiles_error_invalid", "block", "axis = 0", rows4, ids, (48, 4),
    expected(ref.block, rows4, ids, 0))
ids = rng.integers(-200, 200, 64)
add("block_rows64_full_tiles", "block", "axis = 0", rows64, ids, (64, 64),
    expected(ref.block, rows64, ids, 0))
# Rows of a cache line or more are copied a vector register at a time:
# blocks of two 64-byte rows under every policy, rows that are not a whole
# number of registers (24 f32, 40 f16: a shorter last register) under
# clamp and fill, and i8 rows of 96 bytes.
pairs = rng.standard_normal((300, 2, 16)).astype(np.float32)
for oob, negative in POLICIES:
    ids = policy_indices(rng, 45, 300, oob, every=6)
    add(f"block_two_rows_{oob}_{negative}", "block", "axis = 0" + policy_text(oob, negative),
        pairs, ids, (45, 2, 16), expected(ref.block, pairs, ids, 0, negative, oob))
rows24 = rng.standard_normal((100, 24)).astype(np.float32)
ids = rng.integers(-110, 110, 50)
add("block_rows24_clamp", "block", "axis = 0 out_of_bounds = clamp", rows24, ids, (50, 24),
    expected(ref.block, rows24, ids, 0, "wrap", "clamp"))
half40 = rng.standard_normal((100, 40)).astype(np.float16)
ids = rng.integers(-110, 110, 50)
add("block_rows40_f16_fill", "block", "axis = 0 out_of_bounds = fill", half40, ids, (50, 40),
    expected(ref.block, half40, ids, 0, "wrap", "fill"))
bytes96 = rng.integers(-128, 127, (70, 96)).astype(np.int8)
ids = rng.integers(-70, 70, 33)
add("block_rows96_i8", "block", "axis = 0", bytes96, ids, (33, 96),
    expected(ref.block, bytes96, ids, 0))
# The same rows after two or more gathered axes (the tile reads from the
# input collapsed before the block, writes into the output's full rank):
# gather.nd with k = 2 under every policy, k = 3, and batch_dims = 1 with
# f16 rows of 40 (a shorter last register).
grid = rng.standard_normal((6, 7, 2, 16)).astype(np.float32)
for oob, negative in POLICIES:
    coords = np.stack([policy_indices(rng, 45, 6, oob, every=6),
                       policy_indices(rng, 45, 7, oob, every=5)], -1)
    add(f"nd_two_rows_{oob}_{negative}", "nd", "batch_dims = 0" + policy_text(oob, negative),
        grid, coords, (45, 2, 16), expected(ref.nd, grid, coords, 0, negative, oob))
cube_rows = rng.standard_normal((3, 4, 5, 2, 16)).astype(np.float32)
coords = np.stack([rng.integers(-3, 3, 30), rng.integers(-4, 4, 30), rng.integers(-5, 5, 30)], -1)
add("nd_k3_two_rows", "nd", "batch_dims = 0", cube_rows, coords, (30, 2, 16),
    expected(ref.nd, cube_rows, coords, 0))
batched = rng.standard_normal((3, 9, 2, 40)).astype(np.float16)
coords = rng.integers(-9, 9, (3, 21, 1))
add("nd_batched_two_rows_f16", "nd", "batch_dims = 1", batched, coords, (3, 21, 2, 40),
    expected(ref.nd, batched, coords, 1))
# A block gather on a middle axis with short rows: tiles along the indices.
mid = rng.standard_normal((3, 50, 2)).astype(np.float32)
ids = rng.integers(-50, 50, (19,))
add("block_middle_axis", "block", "axis = 1 out_of_bounds = fill", mid, ids, (3, 19, 2),
    expected(ref.block, mid, ids, 1, "wrap", "fill"))

# Dynamic sizes: the number of tuples and batches known at run time.
coords = np.stack([rng.integers(-20, 20, (3, 37)), rng.integers(-30, 30, (3, 37))], -1)
add("nd_dynamic", "nd", "batch_dims = 1", volume, coords, (3, 37, 4),
    expected(ref.nd, volume, coords, 1),
    dynamic=((0,), (0, 1), [(0, ("i", 0)), (1, ("i", 1))]))
ids = rng.integers(-1000, 1000 + 30, 45)
add("block_rows4_dynamic_clamp", "block", "axis = 0 out_of_bounds = clamp", rows4, ids, (45, 4),
    expected(ref.block, rows4, ids, 0, "wrap", "clamp"), dynamic=((0,), (0,), [(0, ("i", 0))]))
# Multiaxis over axis 0 whose indices have a dynamic size along the tile
# dimension (1): 1 at run time is a broadcast (every tile partial), 40 is
# not (full tiles along a dimension the input spans).
table = rng.standard_normal((10, 40, 4)).astype(np.float32)
for name, extent in (("broadcast", 1), ("spanning", 40)):
    idx = rng.integers(-10, 10, (5, extent, 1))
    add(f"multiaxis_runtime_{name}", "multiaxis", "axes = [0]", table, idx, (5, 40, 4),
        expected(ref.multiaxis, table, idx, (0,)), dynamic=((), (1,), ()))
# The same with the input's size there dynamic: 40 at run time is spanned
# (each lane's block at its output position along it), 1 a broadcast (every
# lane at position 0 there).
for name, shape in (("spanning", (10, 40, 4)), ("broadcast", (10, 1, 4))):
    data = rng.standard_normal(shape).astype(np.float32)
    idx = rng.integers(-10, 10, (5, 40, 1))
    add(f"multiaxis_runtime_input_{name}", "multiaxis", "axes = [0]", data, idx, (5, 40, 4),
        expected(ref.multiaxis, data, idx, (0,)), dynamic=((1,), (), ()))

# Blocks of up to 4 lines in tiles on every host (Zen 2 takes 2:
# "tile_max_block_lines").
LINES = {"tile_max_block_lines": 4}
# The tiled form reads a tile's tuples as one vector of index values.
suite.report("block-tiles", sys.argv[1], r"vector\.transfer_read .*xi(32|64)>, vector<",
             "not lowered in tiles", cpu_entries=LINES)
# Tiles of 4: the lane loop rotates 4-lane coordinate vectors.
suite.report("block-tiles, tiles of 4", sys.argv[1],
             r"vector\.shuffle .*\[1, 2, 3, 0\] : vector<4xindex>", "not lowered in tiles of 4",
             cpu_entries={"vector_unit_width": 128, **LINES})
# Tiles as the description's "tile_blocks" gives them, here 3 (no power of
# two): the lane loop rotates 3-lane coordinate vectors.
suite.report("block-tiles, tiles of 3", sys.argv[1],
             r"vector\.shuffle .*\[1, 2, 0\] : vector<3xindex>", "not lowered in tiles of 3",
             cpu_entries={"tile_blocks": 3, **LINES})
# No tiles ("tile_blocks" 1): a block at a time; every function still runs
# against numpy (target-dlti.mlir checks the form).
suite.report("block-tiles, no tiles", sys.argv[1], r"return", "not lowered",
             cpu_entries={"tile_blocks": 1})

# Blocks of 37 rows of 40 f32 (5920 bytes) in tiles, as a description of
# 128-byte lines that allows 64 lines a block plans them: the rows of a
# block are copied by one loop over them, each row's whole registers by a
# loop inside it. A loop per row, chained through the tile, made
# one-shot-bufferize's buffer type queries exponential in the row count: a
# fuzzed description's 37-row blocks did not compile in minutes.
rows = FunctionCases()
table = rng.standard_normal((50, 37, 40)).astype(np.float32)
for oob, negative in (("error", "wrap"), ("fill", "wrap")):
    idx = policy_indices(rng, (21,), 50, oob)
    rows.add(f"rows_{oob}", "block", "axis = 0" + policy_text(oob, negative), table, idx,
             (21, 37, 40), expected(ref.block, table, idx, 0, negative, oob))
idx = rng.integers(0, 50, 21)
idx[13] = 50
rows.add("rows_error_invalid", "block", "axis = 0", table, idx, (21, 37, 40),
         expected(ref.block, table, idx, 0))
idx = rng.integers(-50, 50, (3, 21))
rows.add("rows_two_index_dims", "block", "axis = 0", table, idx, (3, 21, 37, 40),
         expected(ref.block, table, idx, 0))
rows.report("block-tiles, blocks of 37 rows", sys.argv[1],
            r"scf\.for %\S+ = %\S+ to %c37(_\d+)? step", "rows not copied in one loop",
            cpu_entries={"cache_line_size_in_bytes": 128, "tile_max_block_lines": 64})
