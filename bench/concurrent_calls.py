#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
"""Calls of one program from several Python threads at once: a block
gather of ROWS rows of a 30000x768 f32 table (W6 at 32 rows), compiled
for one OpenMP thread, results written into each thread's own array with
`out=`. The same number of calls runs on 1 thread and on T threads, in
alternating rounds; each round prints calls per second, and the summary
the median ratio T threads / 1 thread. Each thread's last result is
compared with numpy.

    /usr/bin/python3 bench/concurrent_calls.py [--rows 256] [--calls 6000]
        [--threads 2] [--rounds 5]

Until 2026-12-03 a Program's calls held its lock, so threads ran them one
at a time; the GIL is released while the compiled code runs.
"""
import argparse
import os
import statistics
import sys
import threading
import time

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "python"))
from gather import jit  # noqa: E402

TEXT = """
func.func @main(%d: tensor<30000x768xf32>, %i: tensor<{n}xi64>) -> tensor<{n}x768xf32> {{
  %e = tensor.empty() : tensor<{n}x768xf32>
  %g = gather.block %d[%i] axis = 0 into %e : tensor<30000x768xf32>, tensor<{n}xi64> into tensor<{n}x768xf32>
  return %g : tensor<{n}x768xf32>
}}
"""


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--rows", type=int, default=256)
    parser.add_argument("--calls", type=int, default=6000)
    parser.add_argument("--threads", type=int, default=2)
    parser.add_argument("--rounds", type=int, default=5)
    args = parser.parse_args()
    program = jit.compile(TEXT.format(n=args.rows), threads=1, destination_entries=True)
    rng = np.random.default_rng(0)
    table = rng.standard_normal((30000, 768)).astype(np.float32)
    ids = rng.integers(0, 30000, args.rows)
    want = table[ids]

    def work(calls, right):
        out = np.empty((args.rows, 768), np.float32)
        for _ in range(calls):
            program(table, ids, out=out)
        right.append(np.array_equal(out, want))

    def rate(threads):
        right = []
        workers = [threading.Thread(target=work, args=(args.calls // threads, right))
                   for _ in range(threads)]
        start = time.perf_counter()
        for w in workers:
            w.start()
        for w in workers:
            w.join()
        elapsed = time.perf_counter() - start
        if not (len(right) == threads and all(right)):
            sys.exit("a result differs from numpy's")
        return (args.calls // threads) * threads / elapsed

    ratios = []
    for r in range(args.rounds):
        one, many = rate(1), rate(args.threads)
        ratios.append(many / one)
        print(f"round {r}: 1 thread {one / 1000:.1f}k calls/s, {args.threads} threads "
              f"{many / 1000:.1f}k calls/s, ratio {many / one:.2f}")
    print(f"{args.rows} rows, {args.threads} threads / 1 thread: median "
          f"{statistics.median(ratios):.2f} (min {min(ratios):.2f}, max {max(ratios):.2f}); "
          "results equal numpy's")


if __name__ == "__main__":
    main()
