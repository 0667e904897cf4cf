#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
"""What the default policy's index checks cost: each workload of
bench/run.py compiled twice in one process (jit.compile, results written in
place), under `out_of_bounds = error` and `unchecked`, and the two called
alternately, call by call. Each pair of calls runs within milliseconds, so
a slow spell of a shared machine hits both; the printed ratio is the median
over the pairs of unchecked time / error time (below 1: what the checks
cost; issue 36's goal: at least 1/1.05), with its quartiles. Both results
are compared with numpy.

    /usr/bin/python3 bench/check_cost.py [--calls 150] [--threads 2]
        [--only W3,W8] [--target native|x86-64-v3|CPU] [--against fill]

`--against` times another policy in place of `unchecked` (`fill`, `clamp`:
the workloads' indices are all valid, so the results are the same).

Separate processes (bench/run.py's rounds) time the two seconds apart; on
the 2-core VM of 2026-11-26 the same kernel's medians moved 20-40% between
such runs, which hides a cost of a few percent.
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


def program(w, want, policy, threads, target):
    return jit.compile(run.workload_text(w, want, policy), threads=threads,
                       destination_entries=True, target_cpu=target)


def main():
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--calls", type=int, default=150)
    p.add_argument("--threads", type=int, default=2)
    p.add_argument("--only", default="", help="comma-separated workload names")
    p.add_argument("--warm", type=int, default=paired.DEFAULT_WARM,
                   help="untimed calls of each program right before its timed one, as in "
                        "paired.py (0: each timed call follows the other program's, whose "
                        "output pushed this one's out of the caches)")
    p.add_argument("--target", default="native")
    p.add_argument("--against", default="unchecked", choices=("unchecked", "fill", "clamp"),
                   help="the out_of_bounds policy timed against error")
    args = p.parse_args()
    other = args.against
    print(f"target: {' '.join(f'{k}={v}' for k, v in jit.target_description(args.target).items())}")
    print(f"threads={args.threads}, calls={args.calls} of each, alternated, warm={args.warm}")
    print(f"| workload | error (ms, median) | {other} (ms, median) "
          f"| {other} / error, paired median | quartiles |")
    print("| --- | ---: | ---: | ---: | ---: |")
    for name, w in run.workloads(np.random.default_rng(0)).items():
        if args.only and name not in args.only.split(","):
            continue
        want = w["numpy"]()
        progs = [program(w, want, policy, args.threads, args.target)
                 for policy in (f" out_of_bounds = {other}", "")]
        (against, error), (median, low, high) = paired.compare_programs(
            name, w, want, progs, args.calls, args.warm)
        print(f"| {name} | {error * 1e3:.3f} | {against * 1e3:.3f} "
              f"| {median:.3f} | {low:.3f}-{high:.3f} |")
    return 0


if __name__ == "__main__":
    sys.exit(main())
