# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
"""Runs every example in examples/ with gather-run on the specification's data and
compares each result with the numpy reference (python/gather/reference.py).

    PYTHONPATH=python /usr/bin/python3 examples/run_examples.py build/bin
"""

import os
import subprocess
import sys
import tempfile

import numpy as np

from gather import reference as ref

HERE = os.path.dirname(os.path.abspath(__file__))
rng = np.random.default_rng(0)
A = np.array([[0, 1, 2], [10, 11, 12], [20, 21, 22], [30, 31, 32]], np.float32)
G = np.array([[1, 2, 3], [4, 5, 6], [7, 8, 9]], np.float32)
D = np.arange(8, dtype=np.float32).reshape(2, 2, 2)
M = np.arange(16, dtype=np.float32).reshape(4, 2, 1, 2)
Mi = rng.integers(0, 2, size=(1, 3, 2, 2)).astype(np.int32)
NHWC = rng.standard_normal((32, 56, 56, 64)).astype(np.float32)
pairs = np.stack([rng.integers(0, 32, (8, 16)), rng.integers(0, 64, (8, 16))], -1).reshape(8, 1, 1, 32)
Dd = rng.standard_normal((3, 4, 5)).astype(np.float32)
Ddi = np.array([[0, 1], [2, 3], [-1, 0]], np.int64)

EXAMPLES = {
    # example: (inputs, references of the results)
    "block.mlir": ([A], [ref.block(A, np.array([[0, 1], [1, 2]]), 1)]),
    "elements.mlir": ([G], [ref.elements(G, np.array([[1, 2, 0], [2, 0, 0]]), 0)]),
    "nd.mlir": ([D, Dd, Ddi], [ref.nd(D, np.array([[1], [0]]), 1), ref.nd(Dd, Ddi)]),
    "multiaxis.mlir": ([M, Mi, NHWC, pairs],
                       [ref.multiaxis(M, Mi, [1]),
                        ref.multiaxis(NHWC, pairs, [0, 3], out_of_bounds="clamp")]),
}


def main():
    bin_dir = sys.argv[1]
    work = tempfile.mkdtemp(prefix="gather-examples-")
    failed = 0
    for name, (inputs, wants) in EXAMPLES.items():
        args = []
        for i, array in enumerate(inputs):
            path = os.path.join(work, f"{name}.in{i}.npy")
            np.save(path, array)
            args += ["--input", path]
        for j in range(len(wants)):
            args += ["--output", os.path.join(work, f"{name}.out{j}.npy")]
        r = subprocess.run([os.path.join(bin_dir, "gather-run"), os.path.join(HERE, name)] + args,
                           capture_output=True, text=True)
        print(f"---- {name}: gather-run on the specification's data")
        if r.returncode:
            print(r.stderr.strip())
            failed += 1
            continue
        for j, want in enumerate(wants):
            got = np.load(os.path.join(work, f"{name}.out{j}.npy"))
            same = got.shape == want.shape and np.array_equal(got, want)
            print(f"result {j}: shape {got.shape}, {'matches' if same else 'DIFFERS from'} the numpy reference")
            if got.size <= 64:
                print(got)
            failed += not same
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
