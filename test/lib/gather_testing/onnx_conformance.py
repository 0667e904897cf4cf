# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
"""Runs ONNX's own backend test data (Debian's libonnx-testdata) through the
ONNX importer and gather-run, comparing with the expected outputs exactly.

    /usr/bin/python3 -m gather_testing.onnx_conformance --bin build/bin

Covers every node/test_gather* directory and pytorch-converted/test_Embedding*.
Each test data set runs as imported and after `gather-opt --canonicalize`.
Prints "N passed, M failed" (directories without test data are listed as
skipped) and exits with 1 on any failure.
"""

import argparse
import glob
import os
import shutil
import subprocess
import sys
import tempfile

import numpy as np
import onnx
from onnx import numpy_helper

from gather import onnx as gonnx

DATA = "/usr/share/libonnx-testdata/data"


def load_pb(path):
    tensor = onnx.TensorProto()
    with open(path, "rb") as f:
        tensor.ParseFromString(f.read())
    return numpy_helper.to_array(tensor)


def same_bits(got, want):
    if got.shape != want.shape:
        return False
    if want.dtype.kind == "f":
        return np.array_equal(got.view(f"u{want.dtype.itemsize}"),
                              want.astype(got.dtype).view(f"u{want.dtype.itemsize}"))
    return np.array_equal(got.astype(want.dtype), want)


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--bin", default="build/bin")
    parser.add_argument("--data", default=DATA)
    parser.add_argument("--device", choices=["cpu", "gpu"], default="cpu")
    args = parser.parse_args(argv)
    run_tool = os.path.join(args.bin, "gather-run")
    opt_tool = os.path.join(args.bin, "gather-opt")
    dirs = sorted(glob.glob(os.path.join(args.data, "node", "test_gather*")) +
                  glob.glob(os.path.join(args.data, "pytorch-converted", "test_Embedding*")))
    if not dirs:
        print(f"error: no ONNX test data under {args.data} (install libonnx-testdata)")
        return 1
    work = tempfile.mkdtemp(prefix="gather-onnx-")
    passed = failed = skipped = 0
    for d in dirs:
        name = os.path.relpath(d, args.data)
        model = onnx.load(os.path.join(d, "model.onnx"))
        src = os.path.join(work, name.replace("/", "_") + ".mlir")
        with open(src, "w") as f:
            f.write(gonnx.import_model(model))
        canon = src.replace(".mlir", ".canon.mlir")
        r = subprocess.run([opt_tool, src, "--canonicalize", "-o", canon], capture_output=True, text=True)
        if r.returncode:
            failed += 1
            print(f"FAIL {name}: gather-opt: {r.stderr.strip()}")
            continue
        sets = sorted(glob.glob(os.path.join(d, "test_data_set_*")))
        if not sets:
            skipped += 1
            print(f"SKIP {name}: the package ships no test data set for it")
            continue
        n_inputs = len(gonnx.input_names(model))
        for s in sets:
            inputs = []
            for i in range(n_inputs):
                path = os.path.join(work, f"{name.replace('/', '_')}_{os.path.basename(s)}_in{i}.npy")
                np.save(path, load_pb(os.path.join(s, f"input_{i}.pb")))
                inputs += ["--input", path]
            outputs = sorted(glob.glob(os.path.join(s, "output_*.pb")))
            for label, path in (("imported", src), ("canonical", canon)):
                outs = []
                for j in range(len(outputs)):
                    outs += ["--output", os.path.join(work, f"out{j}.npy")]
                r = subprocess.run([run_tool, path, "--device", args.device] + inputs + outs,
                                   capture_output=True, text=True)
                ok = r.returncode == 0
                problem = r.stderr.strip()
                if ok:
                    for j, want_path in enumerate(outputs):
                        got = np.load(os.path.join(work, f"out{j}.npy"))
                        want = load_pb(want_path)
                        if not same_bits(got, want):
                            ok = False
                            problem = f"output {j} differs:\n got  {got.tolist()}\n want {want.tolist()}"
                if ok:
                    passed += 1
                else:
                    failed += 1
                    print(f"FAIL {name}/{os.path.basename(s)} ({label}): {problem}")
    device = "" if args.device == "cpu" else f" ({args.device})"
    print(f"onnx conformance{device}: {passed} passed, {failed} failed, {skipped} skipped")
    if failed:
        print(f"(the failing cases' files are in {work})")
        return 1
    shutil.rmtree(work, ignore_errors=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
