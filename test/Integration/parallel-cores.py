# Parallel loops planned for the target's cores (CpuTarget's
# parallelIterations: four iterations per core, at least 16): a gather.nd
# with 16 batches (W4's form, smaller) and a block gather of 20 rows, in
# modules that describe 2, 16 and 64 cores (#dlti.target_system_spec). The
# CPU pipeline's loops must keep the expected number of dimensions parallel
# (16 batches: one for 2 cores, two for 16 and 64; the block copy's rows:
# one), and every function,
# executed through the C API (several threads) under each description,
# must give numpy's result, also with an invalid index under `error`. Two
# block gathers on either side of the serial threshold (160 KiB stored,
# whatever the cores): 64 rows of 768 f32 (192 KiB) run in parallel, 96 rows
# of 768 f16 (144 KiB) serially, and in parallel where the description sets
# the threshold at 64 KiB (parallel_min_bytes).
# RUN: %python %s %gather_bin | FileCheck %s
# CHECK-NOT: FAIL
# CHECK: parallel-cores 2: 6 passed, 0 failed
# CHECK: parallel-cores 16: 6 passed, 0 failed
# CHECK: parallel-cores 64: 6 passed, 0 failed
# CHECK: parallel-cores 2, 64 KiB: 6 passed, 0 failed
import os
import re
import subprocess
import sys

import numpy as np

from gather import reference as ref
from gather_testing.difftest import FunctionCases, expected

rng = np.random.default_rng(11)
volume = rng.standard_normal((16, 64, 64, 4)).astype(np.float32)
coords = rng.integers(-64, 64, (16, 4096, 2))
table = rng.standard_normal((300, 4096)).astype(np.float32)
rows = rng.integers(0, 300, 20)
embeddings = rng.standard_normal((300, 768)).astype(np.float32)
half_embeddings = embeddings.astype(np.float16)
lookups = rng.integers(0, 300, 64)
half_lookups = rng.integers(0, 300, 96)
bad = coords.copy()
bad[9, 4000, 0] = 64


def cases():
    suite = FunctionCases()
    suite.add("nd_batches", "nd", "batch_dims = 1", volume, coords, (16, 4096, 4),
              expected(ref.nd, volume, coords, 1))
    suite.add("nd_batches_invalid", "nd", "batch_dims = 1", volume, bad, (16, 4096, 4),
              expected(ref.nd, volume, bad, 1))
    suite.add("nd_batches_clamp", "nd", "batch_dims = 1 out_of_bounds = clamp", volume, bad,
              (16, 4096, 4), expected(ref.nd, volume, bad, 1, "wrap", "clamp"))
    suite.add("twenty_rows", "block", "axis = 0", table, rows, (20, 4096),
              expected(ref.block, table, rows, 0))
    suite.add("rows_above_threshold", "block", "axis = 0", embeddings, lookups, (64, 768),
              expected(ref.block, embeddings, lookups, 0))
    suite.add("f16_rows_below_threshold", "block", "axis = 0", half_embeddings, half_lookups,
              (96, 768), expected(ref.block, half_embeddings, half_lookups, 0))
    return suite


def parallel_dims(bin_dir, module, name):
    """The dimensions of the first scf.parallel in @name before OpenMP."""
    r = subprocess.run([os.path.join(bin_dir, "gather-opt"), "--gather-cpu-pipeline",
                        "--mlir-print-ir-before=convert-scf-to-openmp", "-o", os.devnull],
                       input=module, capture_output=True, text=True, check=True)
    # up to the next function, private ones included
    body = r.stderr.split(f"func.func @{name}(", 1)[1].split("func.func ", 1)[0]
    m = re.search(r"scf\.parallel \(([^)]*)\)", body)
    return len(m.group(1).split(",")) if m else 0


def main():
    bin_dir = sys.argv[1]
    # (cores, parallel dimensions of nd_batches_clamp: 16 batches reach 16
    # iterations but not 64 or 256, with the next dimension, 4096, both;
    # twenty_rows' block copy has one parallel dimension, its 20 rows,
    # whatever the cores: the lowering, not this rule, would have to split
    # the rows)
    threshold = {"rows_above_threshold": 1, "f16_rows_below_threshold": 0}
    # The description's own serial threshold (parallel_min_bytes, 64 KiB):
    # the f16 rows' 144 KiB then run in parallel.
    lowered = {"rows_above_threshold": 1, "f16_rows_below_threshold": 1}
    for label, entries, dims in (
            ("2", {"cores": 2}, {"nd_batches_clamp": 1, "twenty_rows": 1, **threshold}),
            ("16", {"cores": 16}, {"nd_batches_clamp": 2, "twenty_rows": 1, **threshold}),
            ("64", {"cores": 64}, {"nd_batches_clamp": 2, "twenty_rows": 1, **threshold}),
            ("2, 64 KiB", {"cores": 2, "parallel_min_bytes": 65536},
             {"nd_batches_clamp": 1, "twenty_rows": 1, **lowered})):
        suite = cases()
        module = suite.module(entries)
        failed = 0
        # (nd_batches and nd_batches_invalid share an outlined body)
        for name, want in dims.items():
            got = parallel_dims(bin_dir, module, name)
            if got != want:
                print(f"FAIL {label}: {name} keeps {got} dimensions parallel, "
                      f"expected {want}")
                failed += 1
        problems = suite.run(cpu_entries=entries)
        for name, problem in problems:
            print(f"FAIL {label} {name}: {problem}")
        failed += len(problems)
        print(f"parallel-cores {label}: {len(suite.cases) - len(problems)} passed, "
              f"{failed} failed")


if __name__ == "__main__":
    main()
