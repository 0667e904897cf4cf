#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
"""Two vector widths of the lowering, paired: each workload of
bench/run.py compiled twice in one process (jit.compile, default policy,
results written in place), once planned for the host's vector width and
once for `--bits` (a `#dlti.target_system_spec` with
`max_vector_op_width` on the module: docs/Lowering.md, "Target
description"; LLVM generates code for the host either way), the two
called alternately, call by call. The printed ratio is the median over the
pairs of host-width time / `--bits` time (above 1: the narrower plan is
faster), with its quartiles. Both results are compared with numpy.

    /usr/bin/python3 bench/width_ab.py [--bits 128] [--calls 100]
        [--threads 2] [--only W1,W4]
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


def with_width(text, bits):
    return ('module attributes {dlti.target_system_spec = #dlti.target_system_spec<'
            f'"CPU" = #dlti.target_device_spec<"max_vector_op_width" = {bits} : i64>>}} {{\n'
            f"{text}}}\n")


def main():
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--bits", type=int, default=128)
    p.add_argument("--calls", type=int, default=100)
    p.add_argument("--threads", type=int, default=2)
    p.add_argument("--only", default="", help="comma-separated workload names")
    args = p.parse_args()
    print(f"target: {' '.join(f'{k}={v}' for k, v in jit.target_description().items())}")
    print(f"threads={args.threads}, calls={args.calls} of each, alternated")
    print(f"| workload | host width (ms, median) | {args.bits} bits (ms, median) "
          f"| host / {args.bits}, paired median | quartiles |")
    print("| --- | ---: | ---: | ---: | ---: |")
    for name, w in run.workloads(np.random.default_rng(0)).items():
        if args.only and name not in args.only.split(","):
            continue
        want = w["numpy"]()
        text = run.workload_text(w, want)
        progs = [jit.compile(t, threads=args.threads, destination_entries=True)
                 for t in (text, with_width(text, args.bits))]
        (host, narrow), (median, low, high) = paired.compare_programs(
            name, w, want, progs, args.calls)
        print(f"| {name} | {host * 1e3:.3f} | {narrow * 1e3:.3f} "
              f"| {median:.3f} | {low:.3f}-{high:.3f} |")
    return 0


if __name__ == "__main__":
    sys.exit(main())
