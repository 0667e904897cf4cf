# RUN: %python %s %gather_bin cpu
"""Every worked example of the specification documents runs through gather-run, as written and
after gather-opt --canonicalize, and gives exactly the specification's printed output."""

import os
import shutil
import subprocess
import sys
import tempfile

import numpy as np

from gather.spec_examples import CASES
from gather.mlir_text import gather_op_text

NP_TYPES = {"i32": np.int32, "i64": np.int64, "f32": np.float32}
bin_dir, device = sys.argv[1], sys.argv[2]
work = tempfile.mkdtemp(prefix="gather-spec-")
passed = failed = 0


def ttype(shape, ety, dynamic=False):
    return "tensor<" + "".join(("?" if dynamic else str(d)) + "x" for d in shape) + ety + ">"


for name, comment, op, attrs, data, idx, want, ety, ity in CASES:
    data = data.astype(NP_TYPES[ety])
    idx = idx.astype(NP_TYPES[ity])
    want = want.astype(NP_TYPES[ety])
    # The data is passed with dynamic sizes, so nothing folds at compile time.
    dt, it = ttype(data.shape, ety, dynamic=True), ttype(idx.shape, ity)
    ot = ttype(want.shape, ety, dynamic=True)
    attr = (" " + attrs) if attrs else ""
    src = os.path.join(work, name + ".mlir")
    with open(src, "w") as f:
        f.write(f"func.func @main(%data: {dt}, %indices: {it}) -> {ot} {{\n"
                + gather_op_text(op, "%0", "%data", "%indices", dt, it, ot, attrs) + "\n"
                f"  return %0 : {ot}\n}}\n")
    canon = src.replace(".mlir", ".canon.mlir")
    subprocess.run([os.path.join(bin_dir, "gather-opt"), src, "--canonicalize", "-o", canon], check=True)
    np.save(os.path.join(work, "d.npy"), data)
    np.save(os.path.join(work, "i.npy"), idx)
    for path in (src, canon):
        out = os.path.join(work, "o.npy")
        r = subprocess.run([os.path.join(bin_dir, "gather-run"), path, "--device", device,
                            "--input", os.path.join(work, "d.npy"),
                            "--input", os.path.join(work, "i.npy"), "--output", out],
                           capture_output=True, text=True)
        got = np.load(out) if r.returncode == 0 else None
        if got is None or got.shape != want.shape or not np.array_equal(got, want):
            failed += 1
            print(f"FAIL {name} ({os.path.basename(path)}): {r.stderr.strip()} got "
                  f"{None if got is None else got.tolist()}, want {want.tolist()}")
        else:
            passed += 1
print(f"specification examples ({device}): {passed} passed, {failed} failed")
if failed or not passed:
    print(f"(the failing cases' files are in {work})")
    sys.exit(1)
shutil.rmtree(work, ignore_errors=True)
