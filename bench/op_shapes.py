#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
"""The op functions' two ways of compiling sizes against a program
compiled from bench/run.py's static text, called in turn in one process:
`gather.block(...)` etc. as a first call compiles them (the call's sizes,
static) and with `dynamic=True` (every size dynamic), each allocating its
result as the static program's call does. Prints per workload the
median time of each over `--calls` turns, the ratios to the static
program, and each op function's first call (compilation included).
Every result is compared with numpy.

    /usr/bin/python3 bench/op_shapes.py [--calls 20] [--threads 2] [--only W1,W5]
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
import gather  # noqa: E402
from gather import jit  # noqa: E402
import run  # noqa: E402
from paired import time_in_turns  # noqa: E402


def op_function(w, data, idx, dynamic):
    """The workload as its op function's call."""
    value = w["attr"].split("=")[1].strip()
    if w["op"] == "block":
        return lambda: gather.block(data, idx, axis=int(value), dynamic=dynamic)
    if w["op"] == "elements":
        return lambda: gather.elements(data, idx, axis=int(value), dynamic=dynamic)
    if w["op"] == "nd":
        return lambda: gather.nd(data, idx, batch_dims=int(value), dynamic=dynamic)
    axes = [int(a) for a in value.strip("[]").split(",")]
    return lambda: gather.multiaxis(data, idx, axes=axes, dynamic=dynamic)


def main():
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--calls", type=int, default=20)
    p.add_argument("--threads", type=int, default=2)
    p.add_argument("--only", default="")
    args = p.parse_args()
    os.environ["OMP_NUM_THREADS"] = str(args.threads)
    print(f"threads={args.threads}, {args.calls} turns; median ms, ratio to the static program")
    print("| workload | static program | op function (ms) | / static | first call (s) "
          "| dynamic=True (ms) | / static | first call (s) |")
    print("| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: |")
    for name, w in run.workloads(np.random.default_rng(0)).items():
        if name == "W6" or (args.only and name not in args.only.split(",")):
            continue
        jit._cache.clear()  # (each workload's op functions compile afresh)
        want = w["numpy"]()
        data, idx = np.ascontiguousarray(w["data"]), np.ascontiguousarray(w["idx"])
        static = jit.compile(run.workload_text(w, want), threads=args.threads)
        calls = [lambda: static(data, idx)]
        firsts = []
        for dynamic in (False, True):
            call = op_function(w, data, idx, dynamic)
            t0 = time.perf_counter()
            got = call()
            firsts.append(time.perf_counter() - t0)
            if not np.array_equal(got, want):
                sys.exit(f"{name}: op function (dynamic={dynamic}) differs from numpy")
            calls.append(call)
        if not np.array_equal(static(data, idx), want):
            sys.exit(f"{name}: static program differs from numpy")
        # Each timed call after an untimed one of the same function.
        times = time_in_turns(calls, args.calls, warm=1)
        s, d, a = (statistics.median(t) for t in times)
        print(f"| {name} | {s * 1e3:.3f} | {d * 1e3:.3f} | {d / s:.2f} | {firsts[0]:.2f} "
              f"| {a * 1e3:.3f} | {a / s:.2f} | {firsts[1]:.2f} |", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
