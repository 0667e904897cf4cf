# Row gathers of run-time sizes (gather-map-to-gpu): the host launches the
# kernel of 16-byte row copies when the trip count and every row length are
# whole vectors, and the kernel of an element per thread otherwise. Each
# element type runs with rows that are and are not whole 16-byte vectors,
# under `error` (also with an invalid index: the precise report) and
# `fill` (the zero row through the vector select), against numpy. The GPU
# pipeline's PTX must hold both kernels: vector and scalar global loads of
# the element's width. `cpu` runs the same calls through the CPU pipeline
# (any machine); `gpu` on a GPU (execution.test).
# RUN: %python %s %gather_bin cpu | FileCheck %s
# CHECK-NOT: FAIL
# CHECK: dynamic-row-copies (cpu): 32 runs passed, 0 failed
import os
import re
import subprocess
import sys

import numpy as np

from gather import jit
from gather import reference as ref
from gather.mlir_text import gather_op_text, tensor_type

rng = np.random.default_rng(7)

# (numpy dtype, MLIR type, PTX width of one element, row lengths: whole
# 16-byte vectors first, then not)
TYPES = [
    (np.float32, "f32", "b32", [8, 4, 6, 1]),
    (np.float16, "f16", "b16", [16, 12]),
    (np.int8, "i8", "b8", [32, 20]),
    (np.float64, "f64", "b64", [4, 3]),
]


def values(dtype, shape):
    if np.issubdtype(dtype, np.integer):
        return rng.integers(-100, 100, size=shape).astype(dtype)
    return rng.standard_normal(shape).astype(dtype)


def ptx_loads(opt, mlir_type):
    """The global loads in the GPU pipeline's PTX for a block gather of
    rank-2 data of run-time sizes (indices of another width than the
    elements, so that an element load is told from an index load)."""
    dt = tensor_type((None, None), mlir_type)
    it = tensor_type((None,), "i32" if mlir_type == "f64" else "i64")
    body = gather_op_text("block", "%0", "%data", "%indices", dt, it, dt, attrs="axis = 0",
                          axis=0)
    text = (f"func.func @main(%data: {dt}, %indices: {it}) -> {dt} {{\n{body}\n"
            f"  return %0 : {dt}\n}}\n")
    r = subprocess.run([opt, "-", "--gather-gpu-pipeline=format=isa"], input=text,
                       capture_output=True, text=True)
    if r.returncode != 0:
        return None, r.stderr
    return set(re.findall(r"ld\.global(?:\.nc)?\.(v\d\.)?([bfsu]\d+)", r.stdout)), ""


def main():
    bin_dir, device = sys.argv[1], sys.argv[2]
    opt = os.path.join(bin_dir, "gather-opt")
    passed = failed = 0

    def report(ok, what):
        nonlocal passed, failed
        if ok:
            passed += 1
        else:
            failed += 1
            print(f"FAIL {what}")

    for dtype, mlir_type, width, lengths in TYPES:
        loads, err = ptx_loads(opt, mlir_type)
        if loads is None:
            report(False, f"{mlir_type}: the GPU pipeline failed: {err}")
            continue
        # The vector kernel reads 16 bytes per thread (v4.b32 for f32, v8
        # halves as v4.b32, ...), the element kernel one element.
        report(any(v == "v4." or v == "v2." for v, _ in loads),
               f"{mlir_type}: no vector global load in {sorted(loads)}")
        report(("", width) in loads, f"{mlir_type}: no {width} global load in {sorted(loads)}")
        for length in lengths:
            data = values(dtype, (50, length))
            indices = rng.integers(-50, 50, size=37).astype(np.int64)
            got = jit.block(data, indices, axis=0, device=device, dynamic=True)
            want = ref.block(data, indices, 0)
            report(got.shape == want.shape and np.array_equal(got, want),
                   f"{mlir_type} rows of {length}: got {got.tolist()}, want {want.tolist()}")
            misses = indices.copy()
            misses[::5] = 50
            got = jit.block(data, misses, axis=0, out_of_bounds="fill", device=device,
                            dynamic=True)
            want = ref.block(data, misses, 0, out_of_bounds="fill")
            report(got.shape == want.shape and np.array_equal(got, want),
                   f"{mlir_type} fill, rows of {length}: got {got.tolist()}, "
                   f"want {want.tolist()}")
        # One invalid index under `error`: the precise report.
        data = values(dtype, (50, lengths[0]))
        bad = rng.integers(0, 50, size=9).astype(np.int64)
        bad[4] = 57
        try:
            jit.block(data, bad, axis=0, device=device, dynamic=True)
            report(False, f"{mlir_type}: an invalid index gave no error")
        except jit.GatherError as e:
            report("index 57 at indices[4] is out of range [-50, 49] for dimension 0 (size 50)"
                   in str(e), f"{mlir_type}: imprecise error {e}")
    print(f"dynamic-row-copies ({device}): {passed} runs passed, {failed} failed")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
