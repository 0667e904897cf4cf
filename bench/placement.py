#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
"""Where the data sits in its page, paired: each workload's gather (the JIT,
default policy, written in place) and baseline.cpp's C++ prefetch loop (the
same plan: bench/paired.py's "C++ prefetch") on copies of the data placed
at several offsets past a 4 KiB page boundary, every (offset, contender)
pair called in one turn in an order drawn afresh each turn, each timed call
after `--warm` untimed ones. The output is the C++ library's (one library
per offset, since each binds its data); its offset is printed too. With
`--output-offsets`, the gather also writes into outputs placed at each of
those offsets past a page (a contender per data offset and output offset,
against the C++ loop of the same data offset). Every result is compared
with numpy before and after the turns.

    /usr/bin/python3 bench/placement.py [--only W2] [--target x86-64-v3]
        [--offsets 0,16,32,48,64,80] [--output-offsets 0,64] [--calls 20]
        [--threads 2] [--warm 4] [--entry KEY=VALUE]

Why: numpy's large arrays start 16 bytes past a page boundary, the outputs
of the compiled code's allocator and of baseline.cpp 64 past one. On the
Zen 4 VM of 2026-12-04 (AVX2, W2's 1 KiB rows) the compiled row copies ran
8-30% slower with the data 16 past a page than at the other offsets, until
a row prefetched whole also prefetched the line of its last element
(docs/Lowering.md, "prefetched lines per block"; bench/README.md,
sixty-sixth session).
"""
import argparse
import os
import random
import shutil
import statistics
import sys
import tempfile
import time

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "python"))
sys.path.insert(0, HERE)
from gather import jit  # noqa: E402
import paired  # noqa: E402
import run  # noqa: E402

PREFETCH = paired.CPP.index("C++ prefetch")


def main():
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--only", default="W2", help="comma-separated workload names")
    p.add_argument("--target", default="native")
    p.add_argument("--offsets", default="0,16,32,48,64,80",
                   help="the data's bytes past a 4 KiB page boundary, comma-separated")
    p.add_argument("--output-offsets", default="",
                   help="also the gather into outputs this many bytes past a 4 KiB page boundary, "
                        "comma-separated")
    p.add_argument("--calls", type=int, default=20)
    p.add_argument("--threads", type=int, default=2)
    p.add_argument("--warm", type=int, default=paired.DEFAULT_WARM)
    p.add_argument("--libomp", default="/usr/lib/llvm-22/lib/libomp.so.5")
    p.add_argument("--entry", action="append", default=[],
                   help="KEY=VALUE: the gather planned with this integer entry of the CPU's "
                        "description replaced (bench/target_ab.py's form); the C++ loop keeps "
                        "the host's")
    args = p.parse_args()
    offsets = [int(o) for o in args.offsets.split(",")]
    output_offsets = [int(o) for o in args.output_offsets.split(",") if o]
    if any(o < 0 or o >= 4096 for o in offsets + output_offsets):
        sys.exit("--offsets, --output-offsets: each in [0, 4096)")
    described = jit.target_description(args.target)
    print(f"target: {' '.join(f'{k}={v}' for k, v in described.items())}")
    run.peer_environment(described)
    entries = run.parse_entries(args.entry)
    print(f"threads={args.threads}, {args.calls} turns, policy=error; C++ prefetch time / "
          "gather time, median over the turns [quartiles]"
          + "".join(f"; gather planned with {k}={v}" for k, v in entries))
    workloads = run.workloads(np.random.default_rng(0))
    with tempfile.TemporaryDirectory(prefix="gather-placement-") as work:
        library = paired.build_library(work, args.target, args.libomp)
        for name in args.only.split(","):
            if name not in workloads or name == "W6":
                sys.exit(f"{name}: not a workload of bench/run.py (W6 is left to run.py)")
            w = workloads[name]
            want = w["numpy"]()
            gather = jit.compile(run.with_target_entries(run.workload_text(w, want), entries),
                                 threads=args.threads,
                                 destination_entries=True, target_cpu=args.target)
            idx = np.ascontiguousarray(w["idx"])
            calls, checks, rows = [], [], []
            for k, offset in enumerate(offsets):
                data = paired.placed_copy(np.ascontiguousarray(w["data"]), offset)
                # A library of its own per offset: baseline_open binds the data.
                copy = os.path.join(work, f"libbaseline-{name}-{k}.so")
                shutil.copy(library, copy)
                lib = paired.load_library(copy)
                out = paired.open_workload(lib, name, work, args.threads, data, idx, want)
                loop = (lambda lib=lib: lib.baseline_call(PREFETCH))
                checks.append((loop, out, f"C++ prefetch ({offset})"))
                calls.append(loop)
                at = len(calls) - 1
                # The gather into the library's output, then into each placed one.
                for target in [out] + [paired.placed_copy(np.zeros_like(want), o)
                                       for o in output_offsets]:
                    bound = gather.bind(data, idx, out=target)
                    checks.append((bound, target, f"the gather ({offset})"))
                    calls.append(bound)
                    rows.append((data, target, len(calls) - 1, at, lib))
            for check in range(2):
                for call, out, who in checks:
                    out.view(np.uint8)[...] = 0xA5
                    call()
                    if not np.array_equal(out, want):
                        sys.exit(f"{name}: {who} differs from numpy")
                if check == 0:
                    times = [[] for _ in calls]
                    order = random.Random(0)
                    for _ in range(args.calls):
                        for c in order.sample(range(len(calls)), len(calls)):
                            for _ in range(args.warm):
                                calls[c]()
                            t0 = time.perf_counter()
                            calls[c]()
                            times[c].append(time.perf_counter() - t0)
            print(f"\n{name}\n| data past a page | gather's output past a page | gather (ms) "
                  "| C++ prefetch (ms) | C++ prefetch / gather |\n| ---: | ---: | ---: | ---: "
                  "| ---: |")
            for data, out, gather_at, loop_at, _ in rows:
                g, c = times[gather_at], times[loop_at]
                m, lo, hi = paired.quartiles([b / a for a, b in zip(g, c)])
                print(f"| {data.ctypes.data % 4096} | {out.ctypes.data % 4096} "
                      f"| {statistics.median(g) * 1e3:.3f} | {statistics.median(c) * 1e3:.3f} "
                      f"| {m:.2f} [{lo:.2f}, {hi:.2f}] |")
    return 0


if __name__ == "__main__":
    sys.exit(main())
