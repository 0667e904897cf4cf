#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
"""Two target descriptions of the lowering, paired: each workload of
bench/run.py compiled twice in one process (jit.compile, default policy,
results written in place into 64-byte aligned arrays), once planned for
the host (with the --base entries) and once with entries of its
description replaced (a `#dlti.target_system_spec` on the module, device
"CPU": docs/Lowering.md, "Target description"; LLVM generates code for
the host either way), the two called alternately, call by call. The
printed ratio is the median over the pairs of host-plan time /
other-plan time (above 1: the other plan is faster), with its quartiles.
Both results are compared with numpy.

    /usr/bin/python3 bench/target_ab.py [--entry KEY=VALUE ...] [--base KEY=VALUE ...] [--calls 100] [--threads 2] [--only W1,W4] [--policy fill] [--nhwc N,H,W,C,ROWS ...] [--rows N,D,K ...]

For example `--entry max_vector_op_width=128` (128-bit vectors),
`--entry L3_cache_size_in_bytes=4294967296` (an L3 no output reaches: no
streaming stores); `--entry` repeated puts every entry in the other plan.
`--base` entries go into both plans (the other's `--entry` of the same key
wins): `--base long_offset_tiles=0 --entry long_offset_tiles=1`.
`--nhwc N,H,W,C,ROWS` adds a lookup shaped like W5 (`gather.multiaxis`
over axes [0, 3] of an NHWC f32 image, ROWS index rows of 16 (n, c)
pairs, broadcast over the pixels), named nhwc-N-H-W-C-xROWS; `--nhwc
32,56,56,64,16` is W5 with 16 index rows. `--rows N,D,K` adds W7's row
gather (K random rows of an N x D f32 table), named rows-N-D-xK; `--rows
100000,64,65536` is W7; `--rows N,R,D,K` gathers blocks of R rows of D
(an N x R x D table), named rows-N-R-D-xK. With `--only`, list them there
too.
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


def main():
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--entry", action="append",
                   help="KEY=VALUE, an integer entry of the CPU's target device spec "
                        "(repeated: all of them in the other plan; default "
                        "max_vector_op_width=128)")
    p.add_argument("--calls", type=int, default=100)
    p.add_argument("--threads", type=int, default=2)
    p.add_argument("--only", default="", help="comma-separated workload names")
    p.add_argument("--target", default="native",
                   help="the CPU both plans are for (x86-64-v3: AVX2), on this host")
    p.add_argument("--warm", type=int, default=paired.DEFAULT_WARM,
                   help="untimed calls of each program right before its timed one, as in "
                        "paired.py (0: each timed call follows the other program's, whose "
                        "output pushed this one's out of the caches)")
    p.add_argument("--policy", default="error", choices=("error", "fill", "clamp", "unchecked"),
                   help="out_of_bounds policy of both plans (the workloads' indices are all "
                        "valid: the same result)")
    p.add_argument("--base", action="append", default=[],
                   help="KEY=VALUE, an entry of both plans (repeated: all of them)")
    p.add_argument("--nhwc", action="append", default=[],
                   help="N,H,W,C,ROWS: one more workload, W5's lookup on that image")
    p.add_argument("--rows", action="append", default=[],
                   help="N,D,K or N,R,D,K: one more workload, W7's row gather on other sizes")
    args = p.parse_args()
    policy = "" if args.policy == "error" else f" out_of_bounds = {args.policy}"
    base = run.parse_entries(args.base)
    entries = run.parse_entries(args.entry or ["max_vector_op_width=128"])
    other = " ".join(f"{key}={value}" for key, value in entries)
    # The other plan: the base's entries with --entry's in their place.
    entries = list(dict(base + entries).items())
    workloads = run.workloads(np.random.default_rng(0))
    for text in args.nhwc:
        workloads.update(nhwc_workload(*(int(v) for v in text.split(","))))
    for text in args.rows:
        workloads.update(rows_workload(*(int(v) for v in text.split(","))))
    print(f"target: {' '.join(f'{k}={v}' for k, v in jit.target_description(args.target).items())}")
    print(f"threads={args.threads}, calls={args.calls} of each, alternated, warm={args.warm}, "
          f"policy={args.policy}" + (f", both plans: {' '.join(args.base)}" if base else ""))
    first = "base" if base else "host"
    print(f"| workload | {first} plan (ms, median) | {other} (ms, median) "
          f"| {first} / other, paired median | quartiles |")
    print("| --- | ---: | ---: | ---: | ---: |")
    for name, w in workloads.items():
        if args.only and name not in args.only.split(","):
            continue
        want = w["numpy"]()
        text = run.workload_text(w, want, policy)
        progs = [jit.compile(t, threads=args.threads, destination_entries=True,
                             target_cpu=args.target)
                 for t in (run.with_target_entries(text, base),
                           run.with_target_entries(text, entries))]
        (host, other), (median, low, high) = paired.compare_programs(
            name, w, want, progs, args.calls, args.warm)
        print(f"| {name} | {host * 1e3:.3f} | {other * 1e3:.3f} "
              f"| {median:.3f} | {low:.3f}-{high:.3f} |")
    return 0


def nhwc_workload(n, h, w, c, rows):
    """W5's lookup (bench/run.py) on an NHWC f32 image of n x h x w x c:
    `rows` index rows of 16 (n, c) pairs broadcast over the pixels."""
    rng = np.random.default_rng(5)
    d = rng.standard_normal((n, h, w, c), dtype=np.float32)
    ns, cs = rng.integers(0, n, size=(rows, 16)), rng.integers(0, c, size=(rows, 16))
    return {f"nhwc-{n}-{h}-{w}-{c}-x{rows}": run.nhwc_lookup(d, ns, cs)}


def rows_workload(n, *sizes):
    """W7's gather (bench/run.py) on other sizes: `k` random blocks (rows of
    d, or r rows of d) of an n x d or n x r x d f32 table (`gather.block`,
    axis 0), sizes (d, k) or (r, d, k)."""
    rng = np.random.default_rng(6)
    *block, k = sizes
    data = rng.standard_normal((n, *block), dtype=np.float32)
    i = rng.integers(0, n, size=k)
    name = "-".join(str(v) for v in (n, *block))
    return {f"rows-{name}-x{k}": dict(data=data, idx=i, op="block", attr="axis = 0",
                                      numpy=lambda: np.take(data, i, axis=0))}


if __name__ == "__main__":
    sys.exit(main())
