#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
"""Whether the row prefetch pays for a small lookup (W6 of bench/run.py:
32 rows of 768 f32 from a 30000-row table), with its rows in the caches
and out of them: the lookup compiled twice in one process, as planned for
the host (the first lines of the rows ahead prefetched, at most
prefetch-block-lines of each: docs/Lowering.md, "Software prefetch") and with a target description whose L2 holds the
table (no prefetch), the two called alternately. `hot` repeats one set of
indices (the rows stay in the caches, as in run.py's W6); `cold` draws a
new set for every call (the rows mostly come from memory: the table is
larger than the L3 of the machines measured). Each call's time
includes the Python call (about 5-8 us here), the same for both plans. The
printed ratio is the median over the pairs of time without prefetch /
time with it (above 1: the prefetch pays). Every result is compared with
numpy.

    /usr/bin/python3 bench/hot_cold_rows.py [--calls 4000] [--rows 32] [--threads 2]
"""
import argparse
import os
import statistics
import sys
import time

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "python"))
sys.path.insert(0, HERE)
from gather import jit  # noqa: E402
import run  # noqa: E402

TABLE_ROWS, WIDTH = 30000, 768


def main():
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--calls", type=int, default=4000, help="pairs of calls per mode")
    p.add_argument("--rows", type=int, default=32)
    p.add_argument("--threads", type=int, default=2)
    args = p.parse_args()
    rng = np.random.default_rng(1)
    table = rng.standard_normal((TABLE_ROWS, WIDTH)).astype(np.float32)
    fixed = rng.integers(0, TABLE_ROWS, args.rows)
    text = run.workload_text({"op": "block", "attr": "axis = 0", "data": table, "idx": fixed},
                             table[fixed])
    with_prefetch = jit.compile(text, threads=args.threads)
    # An L2 that holds the table: no input is large enough to prefetch.
    without = jit.compile(run.with_target_entries(
        text, [("L2_cache_size_in_bytes", 1 << 40)]), threads=args.threads)
    print(f"target: {' '.join(f'{k}={v}' for k, v in jit.target_description('native').items())}")
    print(f"threads={args.threads}, {args.rows} rows of {WIDTH} f32 from {TABLE_ROWS}, "
          f"{args.calls} pairs per mode")
    print("| mode | with prefetch (us, median) | without (us, median) | without / with, paired median | quartiles |")
    print("| --- | ---: | ---: | ---: | ---: |")
    for mode in ("hot", "cold"):
        times = {with_prefetch: [], without: []}
        for call in range(args.calls):
            order = (with_prefetch, without) if call % 2 == 0 else (without, with_prefetch)
            for program in order:
                # Cold: indices of its own for each call, or the second call
                # would find the rows the first one read.
                idx = fixed if mode == "hot" else rng.integers(0, TABLE_ROWS, args.rows)
                start = time.perf_counter_ns()
                result = program(table, idx)
                times[program].append(time.perf_counter_ns() - start)
                if not np.array_equal(result, table[idx]):
                    sys.exit(f"{mode}: wrong result")
        ratios = sorted(b / a for a, b in zip(times[with_prefetch], times[without]))
        q = statistics.quantiles(ratios, n=4)
        print(f"| {mode} | {statistics.median(times[with_prefetch]) / 1e3:.2f} "
              f"| {statistics.median(times[without]) / 1e3:.2f} "
              f"| {statistics.median(ratios):.3f} | {q[0]:.3f}-{q[2]:.3f} |")
    return 0


if __name__ == "__main__":
    sys.exit(main())
