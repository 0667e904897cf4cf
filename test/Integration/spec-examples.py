# RUN: %python %s %gather_bin cpu
"""Every worked example of the specification documents runs as written and after gather-opt
--canonicalize and gives exactly the specification's printed output: all examples as the
functions of one module per form, compiled once through the C API, and the first example of
each form also through gather-run (its command line, .npy files and exit status)."""

import os
import shutil
import subprocess
import sys
import tempfile

import numpy as np

from gather import jit
from gather_testing.spec_examples import CASES
from gather.mlir_text import gather_op_text

NP_TYPES = {"i32": np.int32, "i64": np.int64, "f32": np.float32}
bin_dir, device = sys.argv[1], sys.argv[2]
work = tempfile.mkdtemp(prefix="gather-spec-")
passed = failed = 0


def ttype(shape, ety, dynamic=False):
    return "tensor<" + "".join(("?" if dynamic else str(d)) + "x" for d in shape) + ety + ">"


def check(label, got, want, problem=""):
    global passed, failed
    if got is None or got.shape != want.shape or not np.array_equal(got, want):
        failed += 1
        print(f"FAIL {label}: {problem} got {None if got is None else got.tolist()}, "
              f"want {want.tolist()}")
    else:
        passed += 1


examples, functions = [], []
for number, (name, comment, op, attrs, data, idx, want, ety, ity) in enumerate(CASES):
    data = data.astype(NP_TYPES[ety])
    idx = idx.astype(NP_TYPES[ity])
    want = want.astype(NP_TYPES[ety])
    # The data is passed with dynamic sizes, so nothing folds at compile time.
    dt, it = ttype(data.shape, ety, dynamic=True), ttype(idx.shape, ity)
    ot = ttype(want.shape, ety, dynamic=True)
    attr = (" " + attrs) if attrs else ""
    entry = f"example{number}"
    examples.append((name, entry, data, idx, want))
    functions.append(f"func.func @{entry}(%data: {dt}, %indices: {it}) -> {ot} {{\n"
                     + gather_op_text(op, "%0", "%data", "%indices", dt, it, ot, attrs) + "\n"
                     f"  return %0 : {ot}\n}}\n")
src = os.path.join(work, "examples.mlir")
with open(src, "w") as f:
    f.write("\n".join(functions))
canon = os.path.join(work, "examples.canon.mlir")
subprocess.run([os.path.join(bin_dir, "gather-opt"), src, "--canonicalize", "-o", canon], check=True)
for path in (src, canon):
    with open(path) as f:
        text = f.read()
    program = jit.compile(text, entry=examples[0][1], device=device)
    for name, entry, data, idx, want in examples:
        program.select(entry)
        try:
            got, problem = program(data, idx), ""
        except jit.GatherError as e:
            got, problem = None, str(e)
        check(f"{name} ({os.path.basename(path)})", got, want, problem)
    # The first example through gather-run, as a user runs a module.
    name, entry, data, idx, want = examples[0]
    np.save(os.path.join(work, "d.npy"), data)
    np.save(os.path.join(work, "i.npy"), idx)
    out = os.path.join(work, "o.npy")
    r = subprocess.run([os.path.join(bin_dir, "gather-run"), path, "--entry", entry,
                        "--device", device, "--input", os.path.join(work, "d.npy"),
                        "--input", os.path.join(work, "i.npy"), "--output", out],
                       capture_output=True, text=True)
    check(f"{name} ({os.path.basename(path)}, gather-run)",
          np.load(out) if r.returncode == 0 else None, want, r.stderr.strip())
print(f"specification examples ({device}): {passed} passed, {failed} failed")
if failed or not passed:
    print(f"(the failing cases' files are in {work})")
    sys.exit(1)
shutil.rmtree(work, ignore_errors=True)
