# Multi-axis gathers whose indices are reused by many output rows take the
# linear-offset table path of the CPU lowering (see policies.mlir @two_axes).
# Each policy, negative and out-of-range indices, and a broadcast innermost
# input dimension, against the numpy reference.
# RUN: %python %s %gather_bin %t | FileCheck %s
# CHECK: reused-indices: 6 passed, 0 failed
import os
import subprocess
import sys

import numpy as np

from gather import reference
from gather.mlir_text import gather_op_text

bin_dir, work = sys.argv[1], sys.argv[2]
os.makedirs(work, exist_ok=True)
rng = np.random.default_rng(7)


def ttype(shape, ety):
    return "tensor<" + "".join(f"{s}x" for s in shape) + ety + ">"


def run(name, data, indices, axes, negative, oob):
    want = reference.multiaxis(data, indices, axes, negative, oob)
    attrs = ""
    if negative != "wrap":
        attrs += f" negative_indices = {negative}"
    if oob != "error":
        attrs += f" out_of_bounds = {oob}"
    dt, it, ot = ttype(data.shape, "f32"), ttype(indices.shape, "i64"), ttype(want.shape, "f32")
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
cases = [
    ("error_wrap", data, in_range, (0, 3), "wrap", "error"),
    ("clamp", data, wild, (0, 3), "wrap", "clamp"),
    ("fill", data, wild, (0, 3), "wrap", "fill"),
    ("fill_no_wrap", data, wild, (0, 3), "out_of_bounds", "fill"),
    ("swapped_axes", data, swapped, (3, 0), "wrap", "error"),
    ("broadcast_innermost", np.broadcast_to(narrow, (6, 9, 7, 1)).copy(), np.broadcast_to(pairs, (4, 1, 1, 2)).copy(), (0, 2), "wrap", "error"),
]
passed = sum(run(*case) for case in cases)
print(f"reused-indices: {passed} passed, {len(cases) - passed} failed")
