#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
"""Two target descriptions of the lowering, paired: each workload of
bench/run.py compiled twice in one process (jit.compile, default policy,
results written in place into 64-byte aligned arrays), once planned for
the host and once with one entry of its description replaced (a
`#dlti.target_system_spec` on the module, device "CPU": docs/Lowering.md,
"Target description"; LLVM generates code for the host either way), the
two called alternately, call by call. The printed ratio is the median over
the pairs of host-plan time / other-plan time (above 1: the other plan is
faster), with its quartiles. Both results are compared with numpy.

    /usr/bin/python3 bench/target_ab.py [--entry KEY=VALUE ...] [--calls 100] [--threads 2] [--only W1,W4] [--policy fill]

For example `--entry max_vector_op_width=128` (128-bit vectors),
`--entry L3_cache_size_in_bytes=4294967296` (an L3 no output reaches: no
streaming stores); `--entry` repeated puts every entry in the other plan.
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
    p.add_argument("--warm", type=int, default=1,
                   help="untimed calls of each program right before its timed one, as in "
                        "paired.py (0: each timed call follows the other program's, whose "
                        "output pushed this one's out of the caches)")
    p.add_argument("--policy", default="error", choices=("error", "fill", "clamp", "unchecked"),
                   help="out_of_bounds policy of both plans (the workloads' indices are all "
                        "valid: the same result)")
    args = p.parse_args()
    policy = "" if args.policy == "error" else f" out_of_bounds = {args.policy}"
    entries = run.parse_entries(args.entry or ["max_vector_op_width=128"])
    other = " ".join(f"{key}={value}" for key, value in entries)
    print(f"target: {' '.join(f'{k}={v}' for k, v in jit.target_description(args.target).items())}")
    print(f"threads={args.threads}, calls={args.calls} of each, alternated, warm={args.warm}, "
          f"policy={args.policy}")
    print(f"| workload | host plan (ms, median) | {other} (ms, median) "
          f"| host / other, paired median | quartiles |")
    print("| --- | ---: | ---: | ---: | ---: |")
    for name, w in run.workloads(np.random.default_rng(0)).items():
        if args.only and name not in args.only.split(","):
            continue
        want = w["numpy"]()
        text = run.workload_text(w, want, policy)
        progs = [jit.compile(t, threads=args.threads, destination_entries=True,
                             target_cpu=args.target)
                 for t in (text, run.with_target_entries(text, entries))]
        (host, other), (median, low, high) = paired.compare_programs(
            name, w, want, progs, args.calls, args.warm)
        print(f"| {name} | {host * 1e3:.3f} | {other * 1e3:.3f} "
              f"| {median:.3f} | {low:.3f}-{high:.3f} |")
    return 0


if __name__ == "__main__":
    sys.exit(main())
