#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
"""Whether streaming stores still pay when the next op reads the output:
the workloads whose output lies between the streaming bound and the L3
(W1, W7, W2 on a 32 MiB L3) under the host's plan (streamed) and under
`nontemporal_stores = 0` (stores through the caches), each followed by a
consumer that reads the whole output, in two forms:

  * in the function: the gather, then a second gather.block reading every
    eighth column of its output's rows (its last dimension: two floats of
    every cache line, an output under the streaming bound), compiled as
    one function; the intermediate is the function's own allocation and
    the result is written in place;
  * by the caller: the gather written in place into a preallocated array,
    then torch's row sums over it (2 threads).

The four programs of each form (two plans, with and without the consumer)
are called in turns in one process (paired.time_in_turns), each timed call
after an untimed one of its own; each line gives the median times, the
median over the turns of streamed / cached (above 1: the caches' stores
win) with its quartiles, and what the consumer added after each plan.
Results are compared with numpy.

    /usr/bin/python3 bench/consumer_reuse.py [--calls 40] [--only W1,W7,W2]
        [--rows N,D,K ...] [--no-torch]

`--rows N,D,K` adds W7's row gather on other sizes (K random rows of an
N x D f32 table, named rows-N-D-xK, as in bench/target_ab.py); list it
in `--only` too.

libomp (ours) and torch's OpenMP runtime would spin against each other on
the 2 cores, so both are told to sleep at once (KMP_BLOCKTIME=0,
OMP_WAIT_POLICY=PASSIVE), for both plans alike.
"""
import argparse
import os
import statistics
import sys

os.environ.setdefault("KMP_BLOCKTIME", "0")
os.environ.setdefault("OMP_WAIT_POLICY", "PASSIVE")

import numpy as np  # noqa: E402

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "python"))
sys.path.insert(0, HERE)
from gather import jit  # noqa: E402
from gather.mlir_text import gather_op_text  # noqa: E402
import paired  # noqa: E402
import run  # noqa: E402
import target_ab  # noqa: E402

CACHED = [("nontemporal_stores", "0")]


def columns(width):
    return list(range(0, width, 8))


def with_consumer(w, want):
    """@main: the workload's gather, its output seen as rows of its last
    dimension, and a second gather of every eighth column of them."""
    rows = want.reshape(-1, want.shape[-1])
    count = len(columns(rows.shape[1]))
    dt, it = run.ttype(w["data"].shape, "f32"), run.ttype(w["idx"].shape, "i64")
    ot, flat = run.ttype(want.shape, "f32"), run.ttype(rows.shape, "f32")
    rt = run.ttype((rows.shape[0], count), "f32")
    cols = ", ".join(str(c) for c in columns(rows.shape[1]))
    reassociation = "[[" + ", ".join(str(d) for d in range(want.ndim - 1)) + f"], [{want.ndim - 1}]]"
    return (f"func.func @main(%d: {dt}, %i: {it}) -> {rt} {{\n"
            + gather_op_text(w["op"], "%0", "%d", "%i", dt, it, ot, attrs=w["attr"]) + "\n"
            + f"  %rows = tensor.collapse_shape %0 {reassociation} : {ot} into {flat}\n"
            + f"  %cols = arith.constant dense<[{cols}]> : tensor<{count}xi64>\n"
            + gather_op_text("block", "%r", "%rows", "%cols", flat, f"tensor<{count}xi64>", rt,
                             attrs="axis = 1") + "\n"
            + f"  return %r : {rt}\n}}\n")


def report(name, form, times):
    m = [statistics.median(t) * 1e3 for t in times]
    both = paired.quartiles([a / b for a, b in zip(times[0], times[1])])
    alone = paired.quartiles([a / b for a, b in zip(times[2], times[3])])
    print(f"| {name} | {form} | {m[0]:.3f} | {m[1]:.3f} | {both[0]:.3f} | {both[1]:.3f}-{both[2]:.3f} "
          f"| {m[2]:.3f} | {m[3]:.3f} | {alone[0]:.3f} | {m[0] - m[2]:.3f} | {m[1] - m[3]:.3f} |",
          flush=True)


def main():
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--calls", type=int, default=40)
    p.add_argument("--threads", type=int, default=2)
    p.add_argument("--only", default="W1,W7,W2")
    p.add_argument("--rows", action="append", default=[],
                   help="N,D,K: one more workload, W7's row gather on other sizes")
    p.add_argument("--no-torch", action="store_true", help="leave out the caller's consumer")
    args = p.parse_args()
    torch = None
    if not args.no_torch:
        try:
            import torch
            torch.set_num_threads(args.threads)
        except ImportError:
            print("torch not found: the caller's consumer is left out")
    print(f"target: {' '.join(f'{k}={v}' for k, v in jit.target_description().items())}")
    print(f"threads={args.threads}, calls={args.calls} of each, in turns, warm=1; streamed: the host's "
          "plan, cached: nontemporal_stores=0")
    print("| workload | consumer | streamed + consumer (ms) | cached + consumer (ms) "
          "| streamed / cached, paired median | quartiles | streamed alone (ms) | cached alone (ms) "
          "| streamed / cached alone | consumer after streamed (ms) | after cached (ms) |")
    print("| --- | --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |")
    workloads = run.workloads(np.random.default_rng(0))
    for text in args.rows:
        workloads.update(target_ab.rows_workload(*(int(v) for v in text.split(","))))
    for name in args.only.split(","):
        w = workloads[name]
        want = w["numpy"]()
        rows = want.reshape(-1, want.shape[-1])
        alone = run.workload_text(w, want)
        texts = [run.with_target_entries(t, e) for t in (with_consumer(w, want), alone)
                 for e in ([], CACHED)]
        progs = [jit.compile(t, threads=args.threads, destination_entries=True) for t in texts]
        consumed = rows[:, columns(rows.shape[1])]
        outs = [paired.aligned_empty(consumed.shape, want.dtype) for _ in range(2)]
        outs += [paired.aligned_empty(want.shape, want.dtype) for _ in range(2)]
        calls = [prog.bind(w["data"], w["idx"], out=out) for prog, out in zip(progs, outs)]
        for call in calls:
            call()
        expected = [consumed, consumed, want, want]
        if not all(np.array_equal(o, e) for o, e in zip(outs, expected)):
            sys.exit(f"{name}: compiled result differs from numpy")
        report(name, "second gather, in the function",
               paired.time_in_turns(calls, args.calls, 1))
        if torch is None:
            continue
        sums = torch.empty(rows.shape[0])
        views = [torch.from_numpy(o.reshape(-1, o.shape[-1])) for o in outs[2:]]
        for view in views:
            torch.sum(view, dim=1, out=sums)
            if not np.allclose(sums.numpy(), rows.sum(axis=1, dtype=np.float64), rtol=1e-4,
                               atol=1e-3):
                sys.exit(f"{name}: row sums differ from numpy's")
        def then_sum(call, view):
            return lambda: (call(), torch.sum(view, dim=1, out=sums))
        report(name, "row sums, by the caller",
               paired.time_in_turns([then_sum(c, v) for c, v in zip(calls[2:], views)]
                                    + calls[2:], args.calls, 1))
    return 0


if __name__ == "__main__":
    sys.exit(main())
