#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
"""The serial threshold of parallel loops (`parallel_min_bytes`,
docs/Lowering.md), measured: block gathers of rows of f32 from a table
that stays in the caches, each size compiled twice in one process (a
`#dlti.target_system_spec` on the module), once forced serial and once
forced parallel, the two called alternately (bench/paired.py's turns, one
untimed call before each timed one). The printed ratio is the median over
the pairs of serial time / parallel time (above 1: the parallel loop is
faster), with its quartiles; the size where it crosses 1 is the threshold
for that row width and thread count. Both results are compared with numpy.

    /usr/bin/python3 bench/serial_threshold.py [--threads 2,16] [--calls 200] [--kib 48,96,192]
"""
import argparse
import os
import sys

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "python"))
sys.path.insert(0, HERE)
from gather import jit  # noqa: E402
import paired  # noqa: E402
import run  # noqa: E402

# An entry no loop reaches (CpuTarget's largest cache size).
NEVER = 1 << 40


def main():
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--threads", default="2", help="comma-separated thread counts")
    p.add_argument("--calls", type=int, default=200)
    p.add_argument("--widths", default="768,64", help="comma-separated row widths (f32)")
    p.add_argument("--kib", default="48,96,144,192,288,384,768,1536",
                   help="comma-separated sizes of the output in KiB")
    p.add_argument("--target", default="native")
    p.add_argument("--warm", type=int, default=1,
                   help="untimed calls of each program right before its timed one")
    args = p.parse_args()
    rng = np.random.default_rng(0)
    print(f"target: {' '.join(f'{k}={v}' for k, v in jit.target_description(args.target).items())}")
    print(f"{args.calls} calls of each, alternated, warm={args.warm}; serial time / parallel time, "
          "paired median [quartiles]: above 1, the parallel loop is faster")
    print("| threads | row (f32) | rows | stored (KiB) | serial (us) | parallel (us) "
          "| serial / parallel | quartiles |")
    print("| ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |")
    for threads in (int(t) for t in args.threads.split(",")):
        for width in (int(x) for x in args.widths.split(",")):
            # 1.5 MiB of table: in the caches of one core on the machines used
            table = rng.standard_normal((max(16, 393216 // width), width)).astype(np.float32)
            for kib in (int(k) for k in args.kib.split(",")):
                rows = kib * 1024 // (4 * width)
                idx = rng.integers(0, table.shape[0], rows)
                w = {"op": "block", "attr": "axis = 0", "data": table, "idx": idx,
                     "numpy": lambda: np.take(table, idx, axis=0)}
                want = w["numpy"]()
                text = run.workload_text(w, want)
                progs = [jit.compile(run.with_target_entries(text, [("parallel_min_bytes", b)]),
                                     threads=threads, destination_entries=True,
                                     target_cpu=args.target)
                         for b in (NEVER, 0)]
                (serial, parallel), (median, low, high) = paired.compare_programs(
                    f"{rows} rows of {width}", w, want, progs, args.calls, args.warm)
                print(f"| {threads} | {width} | {rows} | {kib} | {serial * 1e6:.1f} "
                      f"| {parallel * 1e6:.1f} | {median:.2f} | {low:.2f}-{high:.2f} |",
                      flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
