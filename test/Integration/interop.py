# The three interop conversions agree with independent numbers:
#  - tosa.gather: upstream's own lowering (tosa-to-linalg) and ours
#    (convert-tosa-gather-to-gather) run through gather-run on the same
#    inputs and must match each other and numpy; an index >= K is an error;
#  - tensor.gather (which upstream cannot lower): converted and run, against
#    a numpy implementation of tensor.gather's documented semantics;
#  - gather -> tensor.gather -> gather round trips: the original op's numpy
#    reference (python/gather/reference.py) must come out.
# RUN: %python %s %gather_bin %t | FileCheck %s
# CHECK-NOT: FAIL
# CHECK: interop: tosa 6 passed, tensor.gather 12 passed, round trip 8 passed, 0 failed
import itertools
import os
import subprocess
import sys

import numpy as np

from gather import reference
from gather.mlir_text import gather_op_text

bin_dir, work = sys.argv[1], sys.argv[2]
os.makedirs(work, exist_ok=True)
opt, run = os.path.join(bin_dir, "gather-opt"), os.path.join(bin_dir, "gather-run")
rng = np.random.default_rng(11)
failures = 0
NP_TO_MLIR = {np.float32: "f32", np.int32: "i32", np.int64: "i64", np.int8: "i8", np.float16: "f16"}


def ttype(shape, dtype, dynamic=()):
    dims = "".join(("?" if i in dynamic else str(s)) + "x" for i, s in enumerate(shape))
    return f"tensor<{dims}{NP_TO_MLIR[np.dtype(dtype).type]}>"


def execute(name, text, inputs, passes=None, expect_error=None):
    """Writes `text`, optionally runs gather-opt `passes`, then gather-run."""
    src = os.path.join(work, name + ".mlir")
    with open(src, "w") as f:
        f.write(text)
    if passes:
        converted = os.path.join(work, name + ".converted.mlir")
        r = subprocess.run([opt, src, *passes, "-o", converted], capture_output=True, text=True)
        if r.returncode:
            return None, f"gather-opt {passes}: {r.stderr.strip()}"
        src = converted
    args = []
    for k, array in enumerate(inputs):
        path = os.path.join(work, f"{name}_in{k}.npy")
        np.save(path, array)
        args += ["--input", path]
    out = os.path.join(work, name + "_out.npy")
    r = subprocess.run([run, src, *args, "--output", out], capture_output=True, text=True)
    if expect_error:
        ok = r.returncode == 1 and expect_error in r.stderr
        return None, None if ok else f"expected error '{expect_error}', got rc={r.returncode} {r.stderr.strip()!r}"
    if r.returncode:
        return None, f"gather-run: {r.stderr.strip()}"
    return np.load(out), None


def report(label, problem):
    global failures
    if problem:
        failures += 1
        print(f"FAIL {label}: {problem}")
        return False
    return True


# tosa.gather: values [N, K, C], indices [N, W].
tosa_passed = 0
for case, (n, k, c, w, dtype) in enumerate([(2, 5, 3, 4, np.float32), (1, 7, 1, 9, np.int32), (3, 4, 8, 2, np.int8),
                                            (4, 16, 5, 16, np.float16), (1, 1, 3, 5, np.float32)]):
    values = (rng.standard_normal((n, k, c)) * 10).astype(dtype)
    indices = rng.integers(0, k, (n, w)).astype(np.int32)
    want = values[np.arange(n)[:, None], indices]
    vt, it, ot = ttype(values.shape, dtype), ttype(indices.shape, np.int32), ttype(want.shape, dtype)
    text = (f"func.func @main(%v: {vt}, %i: {it}) -> {ot} {{\n"
            f"  %0 = tosa.gather %v, %i : ({vt}, {it}) -> {ot}\n  return %0 : {ot}\n}}\n")
    upstream, p1 = execute(f"tosa{case}_upstream", text, [values, indices],
                           ["--pass-pipeline=builtin.module(func.func(tosa-to-linalg))"])
    ours, p2 = execute(f"tosa{case}_ours", text, [values, indices], ["--convert-tosa-gather-to-gather"])
    problem = p1 or p2
    if not problem and not (np.array_equal(upstream, want) and np.array_equal(ours, want)):
        problem = f"mismatch: upstream {upstream.tolist()} ours {ours.tolist()} numpy {want.tolist()}"
    tosa_passed += report(f"tosa case {case}", problem)
# TOSA requires 0 <= index < K: ours reports it.
values = np.arange(30, dtype=np.float32).reshape(2, 5, 3)
bad = np.array([[0, 5], [1, 2]], np.int32)
vt, it, ot = ttype((2, 5, 3), np.float32), ttype((2, 2), np.int32), ttype((2, 2, 3), np.float32)
text = (f"func.func @main(%v: {vt}, %i: {it}) -> {ot} {{\n"
        f"  %0 = tosa.gather %v, %i : ({vt}, {it}) -> {ot}\n  return %0 : {ot}\n}}\n")
_, problem = execute("tosa_oob", text, [values, bad], ["--convert-tosa-gather-to-gather"],
                     expect_error="index 5 at indices[0, 1, 0] is out of range [0, 4] for dimension 1 (size 5)")
tosa_passed += report("tosa out of range", problem)


def tensor_gather_numpy(source, indices, gather_dims, rank_reduced):
    """tensor.gather: result[b..., s...] = source[s with s[g_j] = indices[b..., j]]."""
    batch = indices.shape[:-1]
    slice_shape = [1 if d in gather_dims else n for d, n in enumerate(source.shape)]
    out = np.zeros(tuple(batch) + tuple(slice_shape), source.dtype)
    for b in itertools.product(*[range(n) for n in batch]):
        sel = [slice(None)] * source.ndim
        for j, g in enumerate(gather_dims):
            i = int(indices[b + (j,)])
            sel[g] = slice(i, i + 1)
        out[b] = source[tuple(sel)]
    if rank_reduced:
        out = out.reshape(tuple(batch) + tuple(n for d, n in enumerate(source.shape) if d not in gather_dims))
    return out


tensor_passed = 0
for case in range(12):
    rank = int(rng.integers(1, 4))
    source_shape = tuple(int(x) for x in rng.integers(1, 5, rank))
    ndims = int(rng.integers(1, rank + 1))
    gather_dims = sorted(int(x) for x in rng.choice(rank, ndims, replace=False))
    batch = tuple(int(x) for x in rng.integers(1, 4, int(rng.integers(0, 3))))
    dtype = [np.float32, np.int64, np.int8][case % 3]
    itype = [np.int32, np.int64][case % 2]
    source = (rng.standard_normal(source_shape) * 50).astype(dtype)
    indices = np.stack([rng.integers(0, source_shape[g], batch) for g in gather_dims], -1).astype(itype)
    rank_reduced = case % 2 == 1
    want = tensor_gather_numpy(source, indices, gather_dims, rank_reduced)
    dynamic = {0} if case % 4 == 2 else set()
    st, it = ttype(source.shape, dtype, dynamic), ttype(indices.shape, itype)
    # tensor.gather's result type keeps the source's dynamic sizes.
    out_dynamic = {len(batch) + d for d in dynamic if d not in gather_dims}
    if rank_reduced:
        kept = [d for d in range(rank) if d not in gather_dims]
        out_dynamic = {len(batch) + kept.index(d) for d in dynamic if d in kept}
    ot = ttype(want.shape, dtype, out_dynamic)
    dims = ", ".join(map(str, gather_dims))
    text = (f"func.func @main(%s: {st}, %i: {it}) -> {ot} {{\n"
            f"  %0 = tensor.gather %s[%i] gather_dims([{dims}]) : ({st}, {it}) -> {ot}\n"
            f"  return %0 : {ot}\n}}\n")
    got, problem = execute(f"tensor{case}", text, [source, indices], ["--convert-tensor-gather-to-gather"])
    if not problem and (got.shape != want.shape or not np.array_equal(got, want)):
        problem = f"mismatch: got {got.tolist()} want {want.tolist()}"
    tensor_passed += report(f"tensor.gather case {case} {source_shape} dims {gather_dims} batch {batch}", problem)

# gather -> tensor.gather -> gather: in-range indices, unchecked, no wrap.
round_passed = 0
policy = "negative_indices = out_of_bounds out_of_bounds = unchecked"
trips = [
    ("block", (5, 4, 3), (2, 3), "axis = 1", lambda d, i: reference.block(d, i, 1)),
    ("block", (6, 2), (4,), "axis = 0", lambda d, i: reference.block(d, i, 0)),
    ("block", (3, 4, 5), (), "axis = 2", lambda d, i: reference.block(d, i, 2)),
    ("nd", (4, 5, 6), (3, 2), "batch_dims = 0", lambda d, i: reference.nd(d, i, 0)),
    ("nd", (4, 5, 6), (2, 1, 3), "batch_dims = 0", lambda d, i: reference.nd(d, i, 0)),
    ("nd", (3, 4, 2), (7, 1), "batch_dims = 0", lambda d, i: reference.nd(d, i, 0)),
    ("multiaxis", (6, 5, 4), (3, 1, 2), "axes = [0, 2]", lambda d, i: reference.multiaxis(d, i, (0, 2))),
    ("multiaxis", (1, 7, 3), (4, 1, 3), "axes = [2]", lambda d, i: reference.multiaxis(d, i, (2,))),
]
for case, (op, dshape, ishape, attr, ref) in enumerate(trips):
    data = rng.standard_normal(dshape).astype(np.float32)
    if op == "block":
        indices = rng.integers(0, dshape[int(attr.split("=")[1])], ishape).astype(np.int64)
    elif op == "nd":
        indices = np.stack([rng.integers(0, dshape[j], ishape[:-1]) for j in range(ishape[-1])], -1).astype(np.int64)
    else:
        axes = [int(a) for a in attr.split("[")[1].rstrip("]").split(",")]
        k = len(axes)
        logical = ishape[:-1] + (ishape[-1] // k,)
        indices = np.stack([rng.integers(0, dshape[a], logical) for a in axes], -1).reshape(ishape).astype(np.int64)
    want = ref(data, indices)
    dt, it, ot = ttype(dshape, np.float32), ttype(indices.shape, np.int64), ttype(want.shape, np.float32)
    text = (f"func.func @main(%d: {dt}, %i: {it}) -> {ot} {{\n"
            + gather_op_text(op, "%0", "%d", "%i", dt, it, ot, f"{attr} {policy}") + "\n"
            f"  return %0 : {ot}\n}}\n")
    src = os.path.join(work, f"trip{case}.mlir")
    with open(src, "w") as f:
        f.write(text)
    upstream = subprocess.run([opt, src, "--convert-gather-to-tensor"], capture_output=True, text=True)
    problem = None
    if upstream.returncode or "tensor.gather" not in upstream.stdout or "gather." in upstream.stdout.replace("tensor.gather", ""):
        problem = f"no pure tensor.gather form: {upstream.stderr.strip()}"
    else:
        got, problem = execute(f"trip{case}_back", upstream.stdout, [data, indices],
                               ["--convert-tensor-gather-to-gather=out-of-bounds=unchecked"])
        if not problem and (got.shape != want.shape or not np.array_equal(got, want)):
            problem = f"mismatch: got {got.tolist()} want {want.tolist()}"
    round_passed += report(f"round trip {op} {dshape} {ishape}", problem)

print(f"interop: tosa {tosa_passed} passed, tensor.gather {tensor_passed} passed, "
      f"round trip {round_passed} passed, {failures} failed")
