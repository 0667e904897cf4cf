# Multi-axis gathers whose indices are reused by many output rows take the
# linear-offset table path of the CPU lowering (see policies.mlir @two_axes),
# most of them with the loops over the dimensions the input spans outermost
# (loop-order.mlir). Each policy, negative and out-of-range indices, a
# broadcast innermost input dimension, an innermost dimension the input
# spans, a footprint too large to reorder, and a single innermost axis whose
# input broadcasts an outer dimension, against the numpy reference. With
# dynamic sizes (the types' "?"), the tables where the static sizes show
# the reuse (Conversion/GatherToLinalg/dynamic-tables.mlir): index rows,
# pixels, the tuple dimension, the indices of a block copy; every size
# dynamic, which takes no table; and a dynamic tuple dimension off the axes
# that is 1 at run time under longer output rows (no table: found by the
# fuzzer, the rows read past it). A dynamic image count N or channel count
# C (axes of the input) takes two versions of the loops, chosen at run time
# by the bytes a pixel's reads range over (dynamic-tables.mlir
# @dynamic_images): here on both sides, small inputs (the pixels outermost)
# and 1000 images or 2048 channels (the output's order). Indices with every
# size dynamic take two versions too, chosen by whether their sizes off the
# axes are 1 (dynamic-tables.mlir @all_indices_dynamic): broadcast pairs,
# and pairs that vary along one or both pixel dimensions. Dynamic pixels
# take tiles with a partial last one (@pixels_dynamic_partial_tiles), and
# a dynamic tuple dimension keeps its tiles.
# RUN: %python %s %gather_bin %t | FileCheck %s
# CHECK: reused-indices: 34 passed, 0 failed
import os
import subprocess
import sys

import numpy as np

from gather import reference
from gather.mlir_text import gather_op_text, output_shape

bin_dir, work = sys.argv[1], sys.argv[2]
os.makedirs(work, exist_ok=True)
rng = np.random.default_rng(7)


def ttype(shape, ety):
    return "tensor<" + "".join(f"{'?' if s is None else s}x" for s in shape) + ety + ">"


def run(name, data, indices, axes, negative, oob, dynamic=((), ())):
    """`dynamic`: the data's and the indices' dimensions typed "?"."""
    want = reference.multiaxis(data, indices, axes, negative, oob)
    dshape = [None if d in dynamic[0] else n for d, n in enumerate(data.shape)]
    ishape = [None if d in dynamic[1] else n for d, n in enumerate(indices.shape)]
    attrs = ""
    if negative != "wrap":
        attrs += f" negative_indices = {negative}"
    if oob != "error":
        attrs += f" out_of_bounds = {oob}"
    dt, it = ttype(dshape, "f32"), ttype(ishape, "i64")
    ot = ttype(output_shape("multiaxis", dshape, ishape, axes=list(axes)), "f32")
    src = os.path.join(work, name + ".mlir")
    with open(src, "w") as f:
        body = gather_op_text("multiaxis", "%0", "%d", "%i", dt, it, ot,
                              attrs=f"axes = {list(axes)}{attrs}", axes=list(axes))
        f.write(f"func.func @main(%d: {dt}, %i: {it}) -> {ot} {{\n{body}\n"
                f"  return %0 : {ot}\n}}\n")
    paths = [os.path.join(work, f"{name}_{k}.npy") for k in ("d", "i", "o")]
    np.save(paths[0], data)
    np.save(paths[1], indices)
    r = subprocess.run([os.path.join(bin_dir, "gather-run"), src, "--input", paths[0],
                        "--input", paths[1], "--output", paths[2]], capture_output=True, text=True)
    if r.returncode != 0:
        print(f"FAIL {name}: {r.stderr.strip()}")
        return False
    got = np.load(paths[2])
    if got.shape != want.shape or not np.array_equal(got, want):
        print(f"FAIL {name}: mismatch")
        return False
    return True


data = rng.standard_normal((6, 9, 7, 12)).astype(np.float32)
in_range = np.stack([rng.integers(-6, 6, (3, 1, 1, 20)), rng.integers(-12, 12, (3, 1, 1, 20))], -1).reshape(3, 1, 1, 40)
wild = np.stack([rng.integers(-9, 9, (3, 1, 1, 20)), rng.integers(-15, 15, (3, 1, 1, 20))], -1).reshape(3, 1, 1, 40)
# Axes in reverse order: the pair is (c, n).
swapped = np.stack([rng.integers(0, 12, (2, 1, 1, 17)), rng.integers(0, 6, (2, 1, 1, 17))], -1).reshape(2, 1, 1, 34)
# The innermost dimension is not an axis and the input broadcasts it.
narrow = rng.standard_normal((6, 9, 7, 1)).astype(np.float32)
pairs = np.stack([rng.integers(0, 6, (4, 1, 1, 1)), rng.integers(0, 7, (4, 1, 1, 1))], -1).reshape(4, 1, 1, 2)
# Axes 0 and 1, the innermost dimension spanned: lane j of a row reads
# input[n_j, m_j, h, j].
tall = rng.standard_normal((6, 9, 20, 12)).astype(np.float32)
spanned = np.stack([rng.integers(-6, 6, (4, 5, 1, 12)), rng.integers(-9, 9, (4, 5, 1, 12))], -1).reshape(4, 5, 1, 24)
spanned_wild = np.stack([rng.integers(-8, 8, (4, 5, 1, 12)), rng.integers(-11, 11, (4, 5, 1, 12))], -1).reshape(4, 5, 1, 24)
# 6 x 2048 floats per pixel: too many for L1, the output's loop order.
wide = rng.standard_normal((6, 4, 4, 2048)).astype(np.float32)
wide_pairs = np.stack([rng.integers(-6, 6, (3, 1, 1, 9)), rng.integers(-2048, 2048, (3, 1, 1, 9))], -1).reshape(3, 1, 1, 18)
# One innermost axis; the input broadcasts dimension 0, so the rows of the
# 5 index rows share each input row (reordered, vector rows).
shared_rows = rng.standard_normal((1, 11, 40)).astype(np.float32)
row_indices = rng.integers(-45, 45, (5, 11, 23))
# Rows of 64 f32 copied as blocks, their indices (one per row, broadcast
# over dimension 0) resolved into a table of coordinates.
block_data = rng.standard_normal((8, 30, 64)).astype(np.float32)
block_ids = rng.integers(-40, 40, (1, 13, 1))
# 1000 images of 16 channels: 1000 lines a pixel, over any L1's half.
many = rng.standard_normal((1000, 2, 3, 16)).astype(np.float32)
many_pairs = np.stack([rng.integers(-1003, 1003, (3, 1, 1, 7)), rng.integers(-18, 18, (3, 1, 1, 7))], -1).reshape(3, 1, 1, 14)
# Image rows of 70 pixels of 8 KiB (32 images of 64 channels): with the
# pixels dynamic, tiles of the L2 budget's count and a partial last one.
long_rows = rng.standard_normal((32, 2, 70, 64)).astype(np.float32)
long_pairs = np.stack([rng.integers(-32, 32, (4, 1, 1, 16)), rng.integers(-64, 64, (4, 1, 1, 16))], -1).reshape(4, 1, 1, 32)
# Pairs that vary along the pixels: one dimension, then both.
per_row = np.stack([rng.integers(-6, 6, (3, 9, 1, 5)), rng.integers(-12, 12, (3, 9, 1, 5))], -1).reshape(3, 9, 1, 10)
per_pixel = np.stack([rng.integers(-8, 8, (2, 9, 7, 4)), rng.integers(-14, 14, (2, 9, 7, 4))], -1).reshape(2, 9, 7, 8)
# One (n, h) pair per index row, broadcast along the 12 columns.
row_pairs = np.stack([rng.integers(0, 6, (4, 1, 1, 1)), rng.integers(0, 7, (4, 1, 1, 1))], -1).reshape(4, 1, 1, 2)
cases = [
    ("spanned_innermost", tall, spanned, (0, 1), "wrap", "error"),
    ("spanned_innermost_fill", tall, spanned_wild, (0, 1), "out_of_bounds", "fill"),
    ("wide_clamp", wide, wide_pairs, (0, 3), "wrap", "clamp"),
    ("shared_rows_fill", shared_rows, row_indices, (2,), "wrap", "fill"),
    ("shared_rows_clamp", shared_rows, row_indices, (2,), "wrap", "clamp"),
    ("error_wrap", data, in_range, (0, 3), "wrap", "error"),
    ("clamp", data, wild, (0, 3), "wrap", "clamp"),
    ("fill", data, wild, (0, 3), "wrap", "fill"),
    ("fill_no_wrap", data, wild, (0, 3), "out_of_bounds", "fill"),
    ("swapped_axes", data, swapped, (3, 0), "wrap", "error"),
    ("broadcast_innermost", np.broadcast_to(narrow, (6, 9, 7, 1)).copy(), np.broadcast_to(pairs, (4, 1, 1, 2)).copy(), (0, 2), "wrap", "error"),
    ("dynamic_index_rows", data, in_range, (0, 3), "wrap", "error", ((), (0,))),
    ("dynamic_index_rows_fill", data, wild, (0, 3), "out_of_bounds", "fill", ((), (0,))),
    ("dynamic_index_rows_clamp", data, wild, (0, 3), "wrap", "clamp", ((), (0,))),
    ("dynamic_pixels", data, in_range, (0, 3), "wrap", "error", ((1, 2), ())),
    ("dynamic_tuples", data, wild, (0, 3), "wrap", "clamp", ((), (3,))),
    ("dynamic_index_rows_wide", wide, wide_pairs, (0, 3), "wrap", "clamp", ((), (0,))),
    ("dynamic_block_indices", block_data, block_ids, (1,), "wrap", "clamp", ((), (1,))),
    ("all_dynamic", data, wild, (0, 3), "wrap", "fill", ((0, 1, 2, 3), (0, 1, 2, 3))),
    ("dynamic_broadcast_rows", data, row_pairs, (0, 2), "wrap", "error", ((), (3,))),
    ("dynamic_images", data, in_range, (0, 3), "wrap", "error", ((0,), ())),
    ("dynamic_images_fill", data, wild, (0, 3), "out_of_bounds", "fill", ((0,), ())),
    ("dynamic_channels", data, wild, (0, 3), "wrap", "clamp", ((3,), ())),
    ("dynamic_images_channels", data, wild, (0, 3), "wrap", "fill", ((0, 3), (0,))),
    ("dynamic_images_many", many, many_pairs, (0, 3), "wrap", "clamp", ((0,), ())),
    ("dynamic_images_many_fill", many, many_pairs, (0, 3), "out_of_bounds", "fill", ((0,), ())),
    ("dynamic_channels_wide", wide, wide_pairs, (0, 3), "wrap", "clamp", ((3,), ())),
    ("dynamic_indices_broadcast", data, in_range, (0, 3), "wrap", "error", ((), (0, 1, 2, 3))),
    ("dynamic_indices_broadcast_fill", data, wild, (0, 3), "out_of_bounds", "fill", ((), (0, 1, 2, 3))),
    ("dynamic_indices_per_row", data, per_row, (0, 3), "wrap", "error", ((), (0, 1, 2, 3))),
    ("dynamic_indices_per_pixel", data, per_pixel, (0, 3), "wrap", "clamp", ((), (0, 1, 2, 3))),
    ("dynamic_pixels_partial_tiles", long_rows, long_pairs, (0, 3), "wrap", "error", ((1, 2), ())),
    ("dynamic_pixels_partial_tiles_fill", long_rows, long_pairs, (0, 3), "out_of_bounds", "fill", ((1, 2), ())),
    ("dynamic_tuples_tiles", long_rows, long_pairs, (0, 3), "wrap", "clamp", ((), (3,))),
]
passed = sum(run(*case) for case in cases)
print(f"reused-indices: {passed} passed, {len(cases) - passed} failed")
