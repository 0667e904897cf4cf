# Rows written with non-temporal stores (gather-streaming-stores): the
# module's target description says the L3 holds 64 KiB, so outputs of 32
# KiB or more whose rows are whole cache lines, read from inputs of 32 KiB
# or more (or into outputs of 64 KiB or more), take the streaming copy
# where the output is aligned, and the plain copy where it is not or is
# smaller (a size known at run time only); from a smaller input into a
# smaller output, never (cached_small_table). Executed through the C API at
# -O3 against the numpy reference, into fresh results and into caller
# buffers (`out=`) at aligned and misaligned addresses: embedding rows
# under every out_of_bounds policy, f16 and i8 rows (tiled), a middle axis,
# an element gather's vector rows, offset-table rows (f32, f16, i8, and of
# a run-time length), a dynamic number of indices on both
# sides of the threshold, rows of a run-time length (whole lines or not),
# an invalid index under error. The lowered module must store
# non-temporally with a fence in every function but cached_small_table.
# RUN: %python %s %gather_bin | FileCheck %s
# CHECK-NOT: FAIL
# CHECK: streaming-stores: 136 passed, 0 failed
import os
import re
import subprocess
import sys

import numpy as np

from gather import jit
from gather import reference as ref
from gather_testing.difftest import (POLICY_PAIRS as POLICIES, CallChecks, expected,
                                     policy_indices, policy_text, same_bits)
from gather.mlir_text import tensor_type as mlir_tensor_type

SPEC = ('module attributes {dlti.target_system_spec = #dlti.target_system_spec<'
        '"CPU" = #dlti.target_device_spec<"L3_cache_size_in_bytes" = 65536 : i64>>} {\n')
ELEMENT = {np.float32: "f32", np.float16: "f16", np.int8: "i8"}

rng = np.random.default_rng(21)
functions, cases = [], []


def add(name, attrs, data, indices, out_shape, want, dynamic=False, op="block"):
    """@name: gather.`op` with `attrs`; `dynamic`: the number of indices
    (and the output's first dimension) known at run time only."""
    ety = ELEMENT[data.dtype.type]
    dt = mlir_tensor_type(data.shape, ety)
    ishape = ["?"] if dynamic else list(indices.shape)
    it = mlir_tensor_type(ishape, "i64")
    oshape = list(out_shape)
    if dynamic:
        oshape[int(attrs.split("=")[1].split()[0])] = "?"
    ot = mlir_tensor_type(oshape, ety)
    size = (f"  %c0 = arith.constant 0 : index\n  %n = tensor.dim %i, %c0 : {it}\n"
            if dynamic else "")
    functions.append(f"""
func.func @{name}(%d: {dt}, %i: {it}) -> {ot} {{
{size}  %e = tensor.empty({"%n" if dynamic else ""}) : {ot}
  %r = gather.{op} %d[%i] {attrs} into %e : {dt}, {it} into {ot}
  return %r : {ot}
}}""")
    cases.append((name, data, indices, want))


# 3 KiB rows, 100 of them: 307 KB, enough work for the threads.
table = rng.standard_normal((300, 768)).astype(np.float32)
for oob, negative in POLICIES:
    ids = policy_indices(rng, 100, 300, oob)
    add(f"rows768_{oob}_{negative}", "axis = 0" + policy_text(oob, negative), table, ids,
        (100, 768), expected(ref.block, table, ids, 0, negative, oob))
ids = rng.integers(0, 300, 40)
ids[33] = -301
add("rows768_error_invalid", "axis = 0", table, ids, (40, 768),
    expected(ref.block, table, ids, 0))
# f16 rows of 64 (one line, two AVX2 registers) and i8 rows of 128.
halves = rng.standard_normal((520, 64)).astype(np.float16)
ids = rng.integers(-500, 500, 600)
add("rows_f16", "axis = 0", halves, ids, (600, 64), expected(ref.block, halves, ids, 0))
bytes_ = rng.integers(-128, 127, (600, 128)).astype(np.int8)
ids = rng.integers(-90, 90, 700)
add("rows_i8", "axis = 0", bytes_, ids, (700, 128), expected(ref.block, bytes_, ids, 0))
# A middle axis (W2's form): 1 KiB rows.
mid = rng.standard_normal((4, 30, 256)).astype(np.float32)
ids = rng.integers(-30, 30, 11)
add("middle_axis", "axis = 1", mid, ids, (4, 11, 256), expected(ref.block, mid, ids, 1))
# Rows longer than a page (8 KiB), and blocks of four 4 KiB rows: into a
# streamed output these are vector rows too (CpuTarget::vectorCopyMaxBytes),
# not memcpy calls.
long_rows = rng.standard_normal((40, 2048)).astype(np.float32)
for oob, negative in (("error", "wrap"), ("fill", "wrap")):
    ids = policy_indices(rng, 10, 40, oob)
    add(f"rows8k_{oob}_{negative}", "axis = 0" + policy_text(oob, negative), long_rows, ids,
        (10, 2048), expected(ref.block, long_rows, ids, 0, negative, oob))
blocks = rng.standard_normal((20, 4, 1024)).astype(np.float32)
ids = rng.integers(-20, 20, 6)
add("blocks16k", "axis = 0", blocks, ids, (6, 4, 1024), expected(ref.block, blocks, ids, 0))
# A table under half the L3 (10 rows of 3 KiB, 30 KiB) into a 48 KiB
# output (under the L3): written through the caches
# (CpuTarget::streamingInputMinBytes); into a 300 KiB one (the L3 or more),
# streamed.
small = rng.standard_normal((10, 768)).astype(np.float32)
ids = rng.integers(-10, 10, 16)
add("cached_small_table", "axis = 0", small, ids, (16, 768), expected(ref.block, small, ids, 0))
ids = rng.integers(-10, 10, 100)
add("small_table_large_output", "axis = 0", small, ids, (100, 768),
    expected(ref.block, small, ids, 0))
# Vector rows (W3's form): 64 rows of 256 gathered f32, 64 KiB.
rows = rng.standard_normal((64, 512)).astype(np.float32)
ids = rng.integers(-512, 512, (64, 256))
add("vector_rows_elements", "axis = 1", rows, ids, (64, 256),
    expected(ref.elements, rows, ids, 1), op="elements")
# Offset-table rows (W5's NHWC lookup of (n, c) pairs): 8 index rows into
# 16 images of 8x8 pixels of 64 channels, 32 KiB of output or more: each
# row's elements collected a register at a time and written as one. f32
# rows of 16 pairs under every policy and with an invalid pair under error;
# f16 rows of 32 and i8 rows of 64 (a line each).
for ety, pairs_per_row in ((np.float32, 16), (np.float16, 32), (np.int8, 64)):
    images = (rng.standard_normal((16, 8, 8, 64)) * 50).astype(ety)
    for oob, negative in POLICIES if ety == np.float32 else [("error", "wrap")]:
        pairs = np.stack([policy_indices(rng, (8, pairs_per_row), 16, oob),
                          policy_indices(rng, (8, pairs_per_row), 64, oob)], -1)
        ids = pairs.reshape(8, 1, 1, 2 * pairs_per_row)
        add(f"offset_table_{ELEMENT[ety]}_{oob}_{negative}", "axes = [0, 3]" + policy_text(oob, negative),
            images, ids, (8, 8, 8, pairs_per_row),
            expected(ref.multiaxis, images, ids, (0, 3), negative, oob), op="multiaxis")
ids = ids.copy()
ids[5, 0, 0, 7] = 64
add("offset_table_error_invalid", "axes = [0, 3]", images, ids, (8, 8, 8, 64),
    expected(ref.multiaxis, images, ids, (0, 3)), op="multiaxis")
# Dynamic: the threshold compared at run time (called below with 40 and 5
# indices: 123 KB and 15 KB).
add("rows768_dynamic", "axis = 0", table, None, (0, 768), None, dynamic=True)
# Rows of a run-time length, block rows and an element gather's vector rows
# (called below with rows of whole lines, streamed where aligned; of 32-byte
# multiples that are not whole lines and of 100 elements, the plain copy).
functions.append("""
func.func @rows_dynamic_length(%d: tensor<300x?xf32>, %i: tensor<60xi64>) -> tensor<60x?xf32> {
  %c1 = arith.constant 1 : index
  %n = tensor.dim %d, %c1 : tensor<300x?xf32>
  %e = tensor.empty(%n) : tensor<60x?xf32>
  %r = gather.block %d[%i] axis = 0 into %e : tensor<300x?xf32>, tensor<60xi64> into tensor<60x?xf32>
  return %r : tensor<60x?xf32>
}
func.func @offset_table_dynamic_length(%d: tensor<4x8x8x64xf32>, %i: tensor<8x1x1x?xi64>) -> tensor<8x8x8x?xf32> {
  %c3 = arith.constant 3 : index
  %c2 = arith.constant 2 : index
  %k = tensor.dim %i, %c3 : tensor<8x1x1x?xi64>
  %n = arith.divui %k, %c2 : index
  %e = tensor.empty(%n) : tensor<8x8x8x?xf32>
  %r = gather.multiaxis %d[%i] axes = [0, 3] into %e : tensor<4x8x8x64xf32>, tensor<8x1x1x?xi64> into tensor<8x8x8x?xf32>
  return %r : tensor<8x8x8x?xf32>
}
func.func @vector_rows_dynamic_length(%d: tensor<64x512xf32>, %i: tensor<64x?xi64>) -> tensor<64x?xf32> {
  %c1 = arith.constant 1 : index
  %n = tensor.dim %i, %c1 : tensor<64x?xi64>
  %e = tensor.empty(%n) : tensor<64x?xf32>
  %r = gather.elements %d[%i] axis = 1 into %e : tensor<64x512xf32>, tensor<64x?xi64> into tensor<64x?xf32>
  return %r : tensor<64x?xf32>
}""")

module = SPEC + "\n".join(functions) + "\n}\n"
checks = CallChecks()

# The lowered module: every function versioned for non-temporal stores.
lowered = subprocess.run([os.path.join(sys.argv[1], "gather-opt"),
                          "--gather-cpu-pipeline=destination-entries"],
                         input=module, capture_output=True, text=True, check=True).stdout
for name in [name for name, *_ in cases] + ["rows_dynamic_length", "vector_rows_dynamic_length",
                                             "offset_table_dynamic_length"]:
    body = re.search(rf"llvm\.func @{name}__into\(.*?\n  }}\n", lowered, re.S)
    if name.startswith("cached_"):
        if not body or "nontemporal" in body.group(0):
            print(f"FAIL {name}: non-temporal stores from a table the L3 holds")
    elif not body or "nontemporal" not in body.group(0) or "llvm.x86.sse.sfence" not in body.group(0):
        print(f"FAIL {name}: no non-temporal stores with a fence")

program = jit.compile(module, entry=cases[0][0], destination_entries=True)


def misaligned(shape, dtype, shift):
    """An array `shift` bytes past a 64-byte boundary."""
    nbytes = int(np.prod(shape)) * np.dtype(dtype).itemsize
    raw = np.zeros(nbytes + 128, np.uint8)
    start = (-raw.ctypes.data) % 64 + shift
    return raw[start:start + nbytes].view(dtype).reshape(shape)


def check_into(name, args, want, shift):
    out = misaligned(want.shape, want.dtype, shift)
    program.select(name)
    program(*args, out=out)
    if not program.writes_in_place:
        print(f"FAIL {name}: the call did not write in place")
        checks.failed += 1
    elif not same_bits(out, want):
        print(f"FAIL {name} into +{shift}: result differs from numpy")
        checks.failed += 1
    else:
        checks.passed += 1


for name, data, indices, want in cases:
    if want is None:
        continue
    checks.check(name, program, name, (data, indices), want)
    if isinstance(want, Exception):
        continue
    # Aligned (streamed), 32 bytes past a line (streamed with AVX2's
    # 32-byte stores, not with AVX-512's), and at an element's alignment
    # only (the plain copy).
    for shift in (0, 32, want.dtype.itemsize):
        check_into(name, (data, indices), want, shift)
for count in (40, 5):
    ids = rng.integers(-300, 300, count)
    want = ref.block(table, ids, 0)
    checks.check(f"rows768_dynamic_{count}", program, "rows768_dynamic", (table, ids), want)
    for shift in (0, 4):
        check_into("rows768_dynamic", (table, ids), want, shift)

for length in (768, 776, 100, 2048):
    wide = rng.standard_normal((300, length)).astype(np.float32)
    ids = rng.integers(-300, 300, 60)
    want = ref.block(wide, ids, 0)
    checks.check(f"rows_dynamic_length_{length}", program, "rows_dynamic_length", (wide, ids), want)
    for shift in (0, 32, 4):
        check_into("rows_dynamic_length", (wide, ids), want, shift)
    ids = rng.integers(-512, 512, (64, length // 2))
    want = ref.elements(rows, ids, 1)
    checks.check(f"vector_rows_dynamic_length_{length}", program, "vector_rows_dynamic_length",
                  (rows, ids), want)
    for shift in (0, 32, 4):
        check_into("vector_rows_dynamic_length", (rows, ids), want, shift)

# Offset-table rows of a run-time length: 32 pairs (two lines, streamed
# where aligned), 20 (registers and a rest; not whole lines) and 3 (the
# rest alone).
images = rng.standard_normal((4, 8, 8, 64)).astype(np.float32)
for pairs_per_row in (32, 20, 3):
    ids = np.stack([rng.integers(-4, 4, (8, pairs_per_row)),
                    rng.integers(-64, 64, (8, pairs_per_row))], -1).reshape(8, 1, 1, -1)
    want = ref.multiaxis(images, ids, (0, 3))
    checks.check(f"offset_table_dynamic_length_{pairs_per_row}", program,
                 "offset_table_dynamic_length", (images, ids), want)
    for shift in (0, 32, 4):
        check_into("offset_table_dynamic_length", (images, ids), want, shift)

print(checks.summary("streaming-stores"))
