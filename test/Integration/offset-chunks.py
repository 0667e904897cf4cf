# Vector rows in chunks of offsets (VectorRows.cpp: offsetChunk): where the
# reads range over the L2 or more, each row's full steps resolve a chunk of
# offsets into a stack buffer, then load the chunk's elements. The module
# describes a 4 KiB L2 and a 6 KiB L1 (#dlti.target_system_spec: an offset
# per line of two thirds of its 96 lines), so that small tables take chunks
# of 64 offsets: rows of 150 (two whole chunks, a
# partial one and a masked rest), 128 and 20, executed through the C API at
# -O3 (several threads) against the numpy reference. Point gathers over two
# axes under error (all valid; an invalid index in the second chunk; a
# negative one under negative_indices = out_of_bounds), clamp, unchecked
# and fill (its zeros decided where the chunk's elements are loaded, from
# the verdicts stored beside the offsets), i32 indices, f16 and i8 data,
# every size dynamic, a column of its own per lane (the innermost input
# dimension not an axis); element gathers along input rows of 2000 and
# along axis 0 (the innermost coordinate not an axis), and fill with i32
# indices, f16 data, dynamic sizes, own columns and along rows. Every
# function must take the chunks. The suite runs again with chunks of 32
# offsets and of 1024 (Zen 2's), given by the description
# ("offset_chunk_bytes"), and with 192-bit vectors (6 lanes of 32 bits, 3
# of 64: the fuzzer's width, where pairs of i64 coordinates were read in an
# unpack order made for whole 128-bit lanes and lanes 2 and 5 of every 6
# took the wrong pair).
# RUN: %python %s %gather_bin | FileCheck %s
# CHECK-NOT: FAIL
# CHECK: offset-chunks: 22 passed, 0 failed
# CHECK: offset-chunks, 256-byte chunks: 22 passed, 0 failed
# CHECK: offset-chunks, 8 KiB chunks: 22 passed, 0 failed
# CHECK: offset-chunks, 192-bit vectors: 22 passed, 0 failed
import sys

import numpy as np

from gather import reference as ref
from gather_testing.difftest import FunctionCases, expected, policy_indices, policy_text

# The description's entries (#dlti.target_system_spec on the module). The
# chunk is also given outright (64 offsets, as the L1's rule makes it),
# since a Zen 2 host takes 8 KiB whatever its L1.
CPU = {"L2_cache_size_in_bytes": 4096, "L1_cache_size_in_bytes": 6144,
       "offset_chunk_bytes": 512}

rng = np.random.default_rng(17)
suite = FunctionCases()
add = suite.add
STATIC = ((), (), [])
STATIC_OUT = ((), (0, 1), [])
# Every input size dynamic, and the output's rows.
ALL_DYNAMIC = ((0, 1), (0, 1), [(0, ("i", 0))])


def pairs(rows, cols, shape, oob="error"):
    return np.stack([policy_indices(rng, shape, rows, oob, every=5),
                     policy_indices(rng, shape, cols, oob, every=6)], axis=-1).reshape(
                         *shape[:-1], -1)


table = rng.standard_normal((40, 50)).astype(np.float32)
for oob in ("error", "clamp", "unchecked", "fill"):
    idx = pairs(40, 50, (6, 150), oob)
    add(f"points150_{oob}", "multiaxis", "axes = [0, 1]" + policy_text(oob, "wrap"), table, idx,
        (6, 150), expected(ref.multiaxis, table, idx, (0, 1), "wrap", oob), dynamic=STATIC_OUT)
for length in (128, 20):
    idx = pairs(40, 50, (5, length))
    add(f"points{length}", "multiaxis", "axes = [0, 1]", table, idx, (5, length),
        expected(ref.multiaxis, table, idx, (0, 1)), dynamic=STATIC_OUT)
idx = pairs(40, 50, (6, 150))
idx[3, 2 * 100 + 1] = 50  # the second chunk's column past the end
add("points150_error_invalid_in_chunk", "multiaxis", "axes = [0, 1]", table, idx, (6, 150),
    expected(ref.multiaxis, table, idx, (0, 1)), dynamic=STATIC_OUT)
idx = pairs(40, 50, (6, 150))
idx[1, 2 * 70] = -3
add("points150_negative_out_of_bounds", "multiaxis",
    "axes = [0, 1]" + policy_text("error", "out_of_bounds"), table, idx, (6, 150),
    expected(ref.multiaxis, table, idx, (0, 1), "out_of_bounds", "error"), dynamic=STATIC_OUT)
idx = pairs(40, 50, (6, 150)).astype(np.int32)
add("points150_i32", "multiaxis", "axes = [0, 1]", table, idx, (6, 150),
    expected(ref.multiaxis, table, idx.astype(np.int64), (0, 1)), dynamic=STATIC_OUT)
idx = pairs(40, 50, (6, 150), "fill").astype(np.int32)
add("points150_i32_fill", "multiaxis", "axes = [0, 1]" + policy_text("fill", "wrap"), table, idx,
    (6, 150), expected(ref.multiaxis, table, idx.astype(np.int64), (0, 1), "wrap", "fill"),
    dynamic=STATIC_OUT)
half = rng.standard_normal((64, 50)).astype(np.float16)
idx = pairs(64, 50, (6, 150))
add("points150_f16", "multiaxis", "axes = [0, 1]", half, idx, (6, 150),
    expected(ref.multiaxis, half, idx, (0, 1)), dynamic=STATIC_OUT)
idx = pairs(64, 50, (6, 150), "fill")
add("points150_f16_fill", "multiaxis", "axes = [0, 1]" + policy_text("fill", "wrap"), half, idx,
    (6, 150), expected(ref.multiaxis, half, idx, (0, 1), "wrap", "fill"), dynamic=STATIC_OUT)
small = rng.integers(-128, 127, (80, 70)).astype(np.int8)
idx = pairs(80, 70, (6, 150))
add("points150_i8", "multiaxis", "axes = [0, 1]", small, idx, (6, 150),
    expected(ref.multiaxis, small, idx, (0, 1)), dynamic=STATIC_OUT)
idx = pairs(40, 50, (6, 150))
add("points150_dynamic", "multiaxis", "axes = [0, 1]", table, idx, (6, 150),
    expected(ref.multiaxis, table, idx, (0, 1)), dynamic=ALL_DYNAMIC)
idx = pairs(40, 50, (6, 150))
idx[5, 2 * 149] = 40  # the last full step's row past the end, dynamic sizes
add("points150_dynamic_error_invalid", "multiaxis", "axes = [0, 1]", table, idx, (6, 150),
    expected(ref.multiaxis, table, idx, (0, 1)), dynamic=ALL_DYNAMIC)
idx = pairs(40, 50, (6, 150), "fill")
add("points150_dynamic_fill", "multiaxis", "axes = [0, 1]" + policy_text("fill", "wrap"), table,
    idx, (6, 150), expected(ref.multiaxis, table, idx, (0, 1), "wrap", "fill"),
    dynamic=ALL_DYNAMIC)

# The innermost coordinate not an axis: each lane adds its own column,
# which follows the order the chunk resolves its pairs in.
cube = rng.standard_normal((40, 50, 150)).astype(np.float32)
idx = pairs(40, 50, (6, 1, 150))
add("points150_own_column", "multiaxis", "axes = [0, 1]", cube, idx, (6, 1, 150),
    expected(ref.multiaxis, cube, idx, (0, 1)), dynamic=STATIC)
idx = pairs(40, 50, (6, 1, 150), "fill")
add("points150_own_column_fill", "multiaxis", "axes = [0, 1]" + policy_text("fill", "wrap"), cube,
    idx, (6, 1, 150), expected(ref.multiaxis, cube, idx, (0, 1), "wrap", "fill"), dynamic=STATIC)

wide = rng.standard_normal((4, 2000)).astype(np.float32)
for oob in ("error", "clamp", "fill"):
    idx = policy_indices(rng, (4, 150), 2000, oob)
    add(f"along_rows150_{oob}", "elements", "axis = 1" + policy_text(oob, "wrap"), wide, idx,
        (4, 150), expected(ref.elements, wide, idx, 1, "wrap", oob), dynamic=STATIC_OUT)
tall = rng.standard_normal((50, 300)).astype(np.float32)
idx = rng.integers(-50, 50, (7, 150))
add("axis0_row150", "elements", "axis = 0", tall[:, :150].copy(), idx, (7, 150),
    expected(ref.elements, tall[:, :150], idx, 0), dynamic=STATIC)

suite.report("offset-chunks", sys.argv[1], r"memref\.alloca\(\) : memref<64xindex>",
             "no chunks of 64 offsets", cpu_entries=CPU)
# The chunk as the description's "offset_chunk_bytes" gives it: 256 bytes,
# 32 offsets (whole steps of 8 or 16 lanes), whatever the L1.
suite.report("offset-chunks, 256-byte chunks", sys.argv[1],
             r"memref\.alloca\(\) : memref<32xindex>", "no chunks of 32 offsets",
             cpu_entries={"L2_cache_size_in_bytes": 4096, "offset_chunk_bytes": 256})
# Zen 2's 8 KiB (CpuTarget::largeOffsetChunks), given on every host: 1024
# offsets, more than a row holds, so each row is one partial chunk.
suite.report("offset-chunks, 8 KiB chunks", sys.argv[1],
             r"memref\.alloca\(\) : memref<1024xindex>", "no chunks of 1024 offsets",
             cpu_entries={"L2_cache_size_in_bytes": 4096, "offset_chunk_bytes": 8192})
# Three 64-bit lanes a register: no unpack order; chunks of the offsets in
# whole steps that 512 bytes hold: 60 in steps of 6 or 12 lanes (32- and
# 16-bit data), 64 in steps of 16 (i8).
suite.report("offset-chunks, 192-bit vectors", sys.argv[1],
             r"memref\.alloca\(\) : memref<(60|64)xindex>", "no chunks of 60 or 64 offsets",
             cpu_entries=dict(CPU, max_vector_op_width=192))
