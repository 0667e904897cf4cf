#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
"""Compile-time scaling: functions that chain N gathers of all four kinds
through the CPU pipeline (gather-opt --gather-cpu-pipeline, which verifies
the IR after every pass; `cpu, no verify` is the same with
--verify-each=false, as the JIT runs it), the GPU pipeline
(--gather-gpu-pipeline, PTX) and gather-run (JIT to machine code and one
run), printing the seconds and the growth exponent between sizes
(log(t2 / t1) / log(n2 / n1): 1.0 is linear).

    /usr/bin/python3 bench/compile_time.py [--sizes 100,1000,10000]
        [--variants static-error,dynamic-error,static-mixed] [--bin build/bin]
        [--run-sizes 100,1000] [--gpu-sizes 100,1000,10000] [--repeat 3]
        [--compile-threads N] [--phases]

Each function takes x: 64x64 f32 and four index tensors and applies, in turn,
gather.block (axis 0, 64 indices), gather.elements (axis 1, 64x64),
gather.nd (64x1 coordinates) and gather.multiaxis (axes [0, 1], 64x128), each
keeping the 64x64 shape, so gather i reads the result of gather i - 1.
Variants: `static` or `dynamic` shapes (every size `?`), and the policy
`error` (the default), `unchecked`, or `mixed` (the four out_of_bounds
policies and both negative_indices policies in turn). The chain repeats 4
gathers (20 with `mixed`), which the CPU pipeline lowers once each
(gather-outline-duplicates); a third part `inline` (`static-error-inline`)
turns that off, which is what a chain of N distinct gathers costs.
"""

import argparse
import atexit
import math
import os
import shutil
import subprocess
import sys
import tempfile
import time

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "python"))
from gather.mlir_text import gather_op_text, tensor_type  # noqa: E402
POLICIES = ["", " out_of_bounds = clamp", " negative_indices = out_of_bounds out_of_bounds = fill",
            " out_of_bounds = unchecked", " negative_indices = out_of_bounds"]


def ttype(shape, ety, dynamic):
    return tensor_type([None if dynamic else s for s in shape], ety)


def chain_module(n, dynamic, policy):
    """The MLIR text of @main chaining `n` gathers."""
    x = ttype((64, 64), "f32", dynamic)
    ib, ie = ttype((64,), "i64", dynamic), ttype((64, 64), "i64", dynamic)
    ind, im = ttype((64, 1), "i64", False) if not dynamic else "tensor<?x1xi64>", ttype((64, 128), "i64", dynamic)
    lines = [f"func.func @main(%x0: {x}, %ib: {ib}, %ie: {ie}, %in: {ind}, %im: {im}) -> {x} {{"]
    for i in range(n):
        if policy == "error":
            pol = ""
        elif policy == "unchecked":
            pol = " out_of_bounds = unchecked"
        else:
            pol = POLICIES[i % len(POLICIES)]
        src, dst = f"%x{i}", f"%x{i + 1}"
        kind = i % 4
        if kind == 0:
            lines.append(gather_op_text("block", dst, src, "%ib", x, ib, x, attrs=f"axis = 0{pol}", axis=0))
        elif kind == 1:
            lines.append(gather_op_text("elements", dst, src, "%ie", x, ie, x, attrs=f"axis = 1{pol}", axis=1))
        elif kind == 2:
            lines.append(gather_op_text("nd", dst, src, "%in", x, ind, x, attrs=f"{pol}"))
        else:
            lines.append(gather_op_text("multiaxis", dst, src, "%im", x, im, x, attrs=f"axes = [0, 1]{pol}", axes=[0, 1]))
    lines.append(f"  return %x{n} : {x}")
    lines.append("}")
    return "\n".join(lines) + "\n"


def write_inputs(work):
    rng = np.random.default_rng(0)
    paths = []
    arrays = [rng.standard_normal((64, 64), dtype=np.float32),
              rng.integers(0, 64, size=64), rng.integers(0, 64, size=(64, 64)),
              rng.integers(0, 64, size=(64, 1)), rng.integers(0, 64, size=(64, 128))]
    for k, a in enumerate(arrays):
        path = os.path.join(work, f"in{k}.npy")
        np.save(path, a)
        paths.append(path)
    return paths


def timed(cmd, timeout):
    """(seconds, error, stderr) of one run of `cmd`."""
    t0 = time.perf_counter()
    try:
        r = subprocess.run(cmd, capture_output=True, text=True, timeout=timeout)
    except subprocess.TimeoutExpired:
        return None, f"timed out after {timeout} s", ""
    elapsed = time.perf_counter() - t0
    if r.returncode != 0:
        return None, (r.stderr.strip().splitlines()[-1] if r.stderr.strip() else f"exit {r.returncode}"), r.stderr
    return elapsed, None, r.stderr


def exponent(sizes, times):
    out = []
    for (n1, t1), (n2, t2) in zip(zip(sizes, times), zip(sizes[1:], times[1:])):
        if t1 and t2:
            out.append(f"{math.log(t2 / t1) / math.log(n2 / n1):.2f}")
        else:
            out.append("-")
    return out


def main():
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--bin", default=os.path.join(HERE, "..", "build", "bin"))
    p.add_argument("--sizes", default="100,1000,10000")
    p.add_argument("--run-sizes", default="100,1000", help="sizes also run with gather-run")
    p.add_argument("--gpu-sizes", default="100,1000,10000", help="sizes also put through the GPU pipeline")
    p.add_argument("--variants", default="static-error,dynamic-error,static-mixed,dynamic-unchecked")
    p.add_argument("--timeout", type=float, default=600)
    p.add_argument("--repeat", type=int, default=1,
                   help="run each command this many times and print the fastest (this VM's noise is 10-30%%)")
    p.add_argument("--compile-threads", type=int, default=0,
                   help="gather-run's --compile-threads (0: one per core)")
    p.add_argument("--phases", action="store_true",
                   help="under each gather-run row, the phases of its fastest run (gather-run --compile-times)")
    args = p.parse_args()
    sizes = [int(s) for s in args.sizes.split(",")]
    run_sizes = {int(s) for s in args.run_sizes.split(",") if s}
    gpu_sizes = {int(s) for s in args.gpu_sizes.split(",") if s}
    opt = os.path.join(args.bin, "gather-opt")
    run = os.path.join(args.bin, "gather-run")
    work = tempfile.mkdtemp(prefix="gather-compile-time-")
    atexit.register(shutil.rmtree, work, True)
    inputs = write_inputs(work)
    print(f"{'variant':<20} {'what':<14} " + " ".join(f"{'N=' + str(n):>10}" for n in sizes)
          + "   growth exponents")
    failed = False
    for variant in args.variants.split(","):
        shapes, policy, *rest = variant.split("-")
        inline = rest == ["inline"]
        cpu = "--gather-cpu-pipeline=outline-duplicates=false" if inline else "--gather-cpu-pipeline"
        run_pipeline = ["--no-outline"] if inline else []
        files = {}
        for n in sizes:
            path = os.path.join(work, f"{variant}_{n}.mlir")
            with open(path, "w") as f:
                f.write(chain_module(n, shapes == "dynamic", policy))
            files[n] = path
        # gather-opt verifies after every pass; the JIT (gather-run, the C
        # API) verifies the pipeline's input and output only.
        rows = [("cpu pipeline", lambda n: [opt, files[n], cpu, "-o", os.devnull], sizes),
                ("cpu, no verify", lambda n: [opt, files[n], cpu, "--verify-each=false", "-o",
                                              os.devnull], sizes),
                ("gpu pipeline", lambda n: [opt, files[n], "--gather-gpu-pipeline=format=isa", "-o", os.devnull],
                 [n for n in sizes if n in gpu_sizes]),
                ("gather-run", lambda n: [run, files[n], *run_pipeline, "--compile-times",
                                          f"--compile-threads={args.compile_threads}",
                                          *sum([["--input", i] for i in inputs], []),
                                          "--output", os.path.join(work, "out.npy")],
                 [n for n in sizes if n in run_sizes])]
        for what, cmd, ns in rows:
            if not ns:
                continue
            times, notes, phases = [], [], []
            for n in sizes:
                if n not in ns:
                    times.append(None)
                    continue
                runs = [timed(cmd(n), args.timeout) for _ in range(max(args.repeat, 1))]
                err = next((e for _, e, _ in runs if e), None)
                t = None if err else min(t for t, _, _ in runs)
                times.append(t)
                if err:
                    notes.append(f"N={n}: {err}")
                    failed = True
                elif args.phases and what == "gather-run":
                    fastest = min(runs, key=lambda r: r[0])[2]
                    line = next((l for l in fastest.splitlines() if l.startswith("compile: ")), "")
                    phases.append(f"N={n}: {line[len('compile: '):]}")
            cells = " ".join(f"{t:>9.2f}s" if t is not None else f"{'-':>10}" for t in times)
            present = [(n, t) for n, t in zip(sizes, times) if t is not None]
            exps = exponent([n for n, _ in present], [t for _, t in present])
            print(f"{variant:<20} {what:<14} {cells}   {' '.join(exps)}", flush=True)
            for note in notes + phases:
                print(f"    {note}", flush=True)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
