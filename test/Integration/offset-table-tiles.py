# Offset-table rows in tiles of pixels (offset-table-tiles.mlir), executed
# through the JIT at -O3 and compared with the numpy reference: an NHWC
# lookup of (n, c) pairs with the L1 size set by DLTI so that the tiles hold
# 4, 8 and 16 pixels of 16 columns (the budget taken by the reads, or by the
# lines of the image slice where they are fewer), 6 of 12 and 2 of 14 (the
# largest divisor within the budget), none of 13 columns and at most 4096
# of 8192 (the cap, once, without prefetch), under every
# policy with negative and out-of-range indices, an invalid index under
# `error`, f16 elements, a tile that spans the whole row, and long tiles
# (half the L2, or a given budget) for pixels whose lines are read few times,
# also along columns typed "?" (the last tile partial).
# Every case runs twice: with the prefetch of each read's offset ahead and
# without it (the DLTI entry "prefetch_offset_tables"; Zen 1 plans without,
# other CPUs with), under L1 sizes of 8-32 KiB (tiles within twice the L1)
# and a 64 KiB L2, which the 1 MiB image exceeds (the prefetch needs that).
# Each module is also lowered with gather-opt to check that it takes the
# tile it was meant to, and prefetches or not as described; three more
# under the entry's level 2 (prefetch only where pixels read each line
# fewer than 8 times).
# RUN: %python %s %gather_bin | FileCheck %s
# CHECK-NOT: FAIL
# CHECK: offset-table-tiles: 44 passed, 0 failed
import re
import subprocess
import sys

import numpy as np

from gather import jit
from gather import reference as ref
from gather.mlir_text import gather_op_text, tensor_type
from gather_testing.difftest import POLICY_PAIRS as POLICIES, policy_indices, policy_text

gather_opt = f"{sys.argv[1]}/gather-opt"
rng = np.random.default_rng(11)
passed = failed = 0


def module(l1, prefetch, data_shape, idx_shape, want_shape, ety, attrs, extra):
    dt, it = tensor_type(data_shape, ety), tensor_type(idx_shape, "i64")
    ot = tensor_type(want_shape, ety)
    body = gather_op_text("multiaxis", "%0", "%d", "%i", dt, it, ot, attrs=attrs)
    entries = {"L1_cache_size_in_bytes": l1, "L2_cache_size_in_bytes": max(l1, 65536),
               "prefetch_offset_tables": prefetch, "long_offset_tiles": 0, **extra}
    spec = ", ".join(f'"{key}" = {value} : i64' for key, value in entries.items())
    return ('module attributes {dlti.target_system_spec = #dlti.target_system_spec<"CPU" = '
            f'#dlti.target_device_spec<{spec}>>}} {{\n'
            f"func.func @main(%d: {dt}, %i: {it}) -> {ot} {{\n{body}\n  return %0 : {ot}\n}}\n}}\n")


def case(name, l1, tile, data, pairs, ety="f32", oob="error", negative="wrap", extra={}):
    for prefetch in (0, 1):
        case_once(f"{name}_prefetch_{prefetch}", l1, prefetch, tile, data, pairs, ety, oob,
                  negative, extra)


def case_once(name, l1, prefetch, tile, data, pairs, ety, oob, negative, extra={},
              expect_prefetch=None):
    global passed, failed
    if expect_prefetch is None:
        expect_prefetch = bool(prefetch)
    rows = pairs.shape[0]
    out_shape = (rows, data.shape[1], data.shape[2], pairs.shape[-1] // 2)
    attrs = "axes = [0, 3]" + policy_text(oob, negative)
    text = module(l1, prefetch, data.shape, pairs.shape, out_shape, ety, attrs, extra)
    lowered = subprocess.run([gather_opt, "--convert-gather-to-linalg", "-"], input=text,
                             capture_output=True, text=True, check=True).stdout
    got_tile = re.search(r"tensor\.extract_slice %arg\d+\[[^]]*\] \[1, 1, (\d+), \d+\]", lowered)
    got = int(got_tile.group(1)) if got_tile else 0
    if (got if got > 1 else 0) != tile:
        print(f"FAIL {name}: expected tiles of {tile}, lowered {got_tile and got_tile.group(0)}")
        failed += 1
        return
    if ("memref.prefetch" in lowered) != expect_prefetch:
        print(f"FAIL {name}: prefetch_offset_tables = {prefetch}, lowered "
              f"{'with' if 'memref.prefetch' in lowered else 'without'} prefetch")
        failed += 1
        return
    try:
        want = ref.multiaxis(data, pairs, [0, 3], negative, oob)
    except ref.GatherIndexError:
        want = None
    program = jit.compile(text, threads=2)
    try:
        got = program(data, pairs)
    except jit.GatherError as e:
        ok = want is None and "is out of range" in str(e)
    else:
        ok = want is not None and np.array_equal(got, want)
    if ok:
        passed += 1
    else:
        print(f"FAIL {name}")
        failed += 1


def pairs_for(rows, oob="error"):
    n = policy_indices(rng, (rows, 16), 16, oob, every=5)
    c = policy_indices(rng, (rows, 16), 64, oob, every=5)
    return np.stack([n, c], axis=-1).reshape(rows, 1, 1, 32)


# 16 x 16 pixels of 16 images with 64 channels (1 MiB). The loops take the
# pixels outermost (a pixel's slice, 16 x 64 channels, 64 lines, within half
# of the L1); a tile holds up to 2 x L1 / (64 bytes times the reads a pixel
# or the slice's 64 lines, whichever is fewer) pixels, the largest count
# that divides the columns.
image = rng.standard_normal((16, 16, 16, 64)).astype(np.float32)
for name, l1, rows, columns, tile in (("slice_lines", 8192, 16, 16, 4),
                                      ("reads", 8192, 2, 16, 8),
                                      ("budget_8", 16384, 4, 16, 8),
                                      ("whole_row", 32768, 4, 16, 16),
                                      ("divisor_6", 16384, 4, 12, 6),
                                      ("divisor_2", 8192, 4, 14, 2),
                                      ("prime_none", 8192, 4, 13, 0)):
    data = image if columns == 16 else rng.standard_normal(
        (16, 16, columns, 64)).astype(np.float32)
    case(f"tiles_of_{tile}_{name}", l1, tile, data, pairs_for(rows))
for oob, negative in POLICIES:
    case(f"tiles_{oob}_{negative}", 8192, 4, image, pairs_for(4, oob), oob=oob, negative=negative)
bad = pairs_for(4)
bad[3, 0, 0, 31] = 64
case("tiles_error_invalid", 8192, 4, image, bad)
# f16: the slice is 32 lines, fewer than the 64 reads.
case("tiles_f16", 8192, 8, image.astype(np.float16), pairs_for(4), ety="f16")
# Long tiles (the DLTI entry "long_offset_tiles", Zen 1 and Zen 2's
# choice): pixels whose reads are fewer than 4 a line of their 64-line slice
# fill half the L2 instead of twice the L1 (8 KiB: tiles of 4): 15 index
# rows (240 reads) take 8 pixels with a 64 KiB L2 and the whole row of 16
# with 128 KiB, 16 index rows (256 reads, 4 a line) keep tiles of 4. The
# entry "offset_tile_bytes" gives the budget itself: 8 KiB, tiles of 2.
for name, rows, l2, tile in (("few_reads_half_l2", 15, 65536, 8),
                             ("few_reads_whole_row", 15, 131072, 16),
                             ("four_reads_a_line", 16, 131072, 4)):
    case(f"long_tiles_of_{tile}_{name}", 8192, tile, image, pairs_for(rows),
         extra={"long_offset_tiles": 1, "L2_cache_size_in_bytes": l2})
case("given_budget_tiles_of_2", 8192, 2, image, pairs_for(15),
     extra={"long_offset_tiles": 1, "offset_tile_bytes": 8192})
bad = pairs_for(15)
bad[14, 0, 0, 0] = -17
case("long_tiles_error_invalid", 8192, 8, image, bad,
     extra={"long_offset_tiles": 1, "L2_cache_size_in_bytes": 65536})

# prefetch_offset_tables = 2 (Zen 4's): only pixels that read each line of
# their 64-line slice fewer than 8 times prefetch: 4 and 31 index rows (64
# and 496 reads) do, 32 (512 reads) do not.
for rows, expect in ((4, True), (31, True), (32, False)):
    case_once(f"level_2_{rows}_index_rows", 8192, 2, 4, image, pairs_for(rows), "f32", "error",
              "wrap", expect_prefetch=expect)


def case_dynamic(name, l1, tile, data, pairs, extra):
    """The columns typed "?": tiles of the budget's count, the last one
    partial (13 columns here), checked in the lowered IR by the tile count's
    divisor, then run against numpy."""
    global passed, failed
    rows = pairs.shape[0]
    out_shape = (rows, data.shape[1], None, pairs.shape[-1] // 2)
    dshape = (data.shape[0], data.shape[1], None, data.shape[3])
    text = module(l1, 1, dshape, pairs.shape, out_shape, "f32", "axes = [0, 3]", extra)
    lowered = subprocess.run([gather_opt, "--convert-gather-to-linalg", "-"], input=text,
                             capture_output=True, text=True, check=True).stdout
    got = re.search(r"arith\.ceildivui %\w+, %c(\d+) : index", lowered)
    if not got or int(got.group(1)) != tile:
        print(f"FAIL {name}: expected tiles of {tile}, lowered {got and got.group(0)}")
        failed += 1
        return
    want = ref.multiaxis(data, pairs, [0, 3], "wrap", "error")
    got = jit.compile(text, threads=2)(data, pairs)
    if np.array_equal(got, want):
        passed += 1
    else:
        print(f"FAIL {name}")
        failed += 1


# 13 columns typed "?": long tiles of 8 (a 64 KiB L2), the last of 5; of 4
# without long tiles, the last of 1.
columns_13 = rng.standard_normal((16, 16, 13, 64)).astype(np.float32)
case_dynamic("dynamic_long_tiles_of_8", 8192, 8, columns_13, pairs_for(15),
             {"long_offset_tiles": 1, "L2_cache_size_in_bytes": 65536})
case_dynamic("dynamic_tiles_of_4", 8192, 4, columns_13, pairs_for(15), {})
# A 256 GiB L1 would take all 8192 columns: tiles stop at 4096 (one run,
# without the prefetch).
# 2 images of 2 x 8192 pixels, 16 channels.
capped = np.stack([rng.integers(0, 2, (4, 16)), rng.integers(0, 16, (4, 16))],
                  axis=-1).reshape(4, 1, 1, 32)
case_once("tiles_of_4096_capped", 1 << 38, 0, 4096,
          rng.standard_normal((2, 2, 8192, 16)).astype(np.float32), capped,
          "f32", "error", "wrap")
print(f"offset-table-tiles: {passed} passed, {failed} failed")
