#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
"""Fused-consumer benchmark: an embedding lookup followed by a bias add and
tanh, written as the TOSA graph tosa.gather -> tosa.add -> tosa.tanh and
imported with --convert-tosa-gather-to-gather and upstream tosa-to-linalg.
The CPU pipeline fuses the elementwise consumer into the gather's loops
(gather-fuse-consumers); timed in one run against the unfused pipeline
(gather-run --no-fusion: three loop nests, an intermediate tensor) and
against torch (index_select, then add_ and tanh_ in place: three passes,
the output allocated each call as the compiled function does).

    /usr/bin/python3 bench/fused.py [--runs 15] [--threads 2] [--rounds 3]
        [--other-bin DIR] [--device gpu [--launches 20]] [--workload bag]

--workload bag times an embedding bag instead (a 200000x128 f32 table,
2048 bags of 32 i64 indices, a tenth negative; gather.block, then
linalg.reduce's sum over the rows into a zero fill): fused, the sums are
added as the rows are gathered (on the GPU one thread per sum,
gather-gpu-reduction-loops); unfused, the gathered rows (32 MiB) are
written and read back. torch: embedding_bag (mode sum) of the same rows.
--workload offsets-bag times the same bags as torch-mlir writes
aten.embedding_bag with offsets (one generic over bags, every index and
row), raised: on the CPU a loop over the bags of gathers and sums, on the
GPU one gather of all the rows and a loop nest of the bags' sums
(segment-sums-of-gathered-rows). Its unraised generic (bags x indices x
row) is not timed here (bench/embedding_bag.py --unraised-bags times it on
a few bags): no unfused column.

--device gpu runs the same on this machine's NVIDIA GPU (the GPU pipeline
fuses the gather, the add and tanh into one kernel,
gather-fuse-device-consumers; unfused: three kernels and two intermediate
buffers) against torch on CUDA (the same three calls), timed two ways: the
kernels (CUDA events around `--launches` launches back to back, per launch:
our kernels from gather-run --bench-launches, torch's calls the same way)
and the whole call on the host clock, synchronized.

--other-bin times a second build's gather-run (fused and unfused) in the
same alternating rounds, for an A/B of a change.

Every compiled result is compared with numpy (within 1e-6: tanh is not
correctly rounded).
"""

import argparse
import atexit
import os
import re
import shutil
import subprocess
import sys
import tempfile

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
from run import median_ms  # noqa: E402
from embedding_bag import program_text as bag_program_text  # noqa: E402
from gather_testing.torch_mlir import embedding_bag_text  # noqa: E402

ROWS, WIDTH, LOOKUPS = 50000, 768, 16384
BAG_ROWS, BAG_WIDTH, BAGS, BAG_LENGTH = 200000, 128, 2048, 32


def tosa_module():
    t, i, b = f"tensor<1x{ROWS}x{WIDTH}xf32>", f"tensor<1x{LOOKUPS}xi32>", f"tensor<1x1x{WIDTH}xf32>"
    o = f"tensor<1x{LOOKUPS}x{WIDTH}xf32>"
    return (f"func.func @main(%table: {t}, %ids: {i}, %bias: {b}) -> {o} {{\n"
            f"  %g = tosa.gather %table, %ids : ({t}, {i}) -> {o}\n"
            f"  %a = tosa.add %g, %bias : ({o}, {b}) -> {o}\n"
            f"  %y = tosa.tanh %a : ({o}) -> {o}\n"
            f"  return %y : {o}\n}}\n")


def main():
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--runs", type=int, default=15)
    p.add_argument("--threads", type=int, default=2)
    p.add_argument("--rounds", type=int, default=3)
    p.add_argument("--bin", default=os.path.join(HERE, "..", "build", "bin"))
    p.add_argument("--other-bin", default="", help="a second build's bin directory, timed alongside")
    p.add_argument("--device", choices=["cpu", "gpu"], default="cpu")
    p.add_argument("--launches", type=int, default=20,
                   help="GPU: kernels timed as this many launches back to back")
    p.add_argument("--workload", choices=["embedding", "bag", "offsets-bag"],
                   default="embedding")
    args = p.parse_args()
    work = tempfile.mkdtemp(prefix="gather-fused-")
    atexit.register(shutil.rmtree, work, True)
    opt = os.path.join(args.bin, "gather-opt")
    src = os.path.join(work, "fused.mlir")
    rng = np.random.default_rng(0)
    if args.workload == "offsets-bag":
        table = rng.standard_normal((BAG_ROWS, BAG_WIDTH), dtype=np.float32)
        ids = rng.integers(0, BAG_ROWS, size=BAGS * BAG_LENGTH)
        offsets = np.arange(BAGS, dtype=np.int64) * BAG_LENGTH
        with open(src, "w") as f:
            f.write(embedding_bag_text(BAG_ROWS, BAG_WIDTH, ids.size, BAGS))
        want = table[ids].reshape(BAGS, BAG_LENGTH, BAG_WIDTH).sum(axis=1, dtype=np.float32)
        arrays = (("t", table), ("i", ids), ("o", offsets))
        bias = None
    elif args.workload == "bag":
        table = rng.standard_normal((BAG_ROWS, BAG_WIDTH), dtype=np.float32)
        ids = rng.integers(0, BAG_ROWS, size=(BAGS, BAG_LENGTH))
        ids[rng.random(ids.shape) < 0.1] -= BAG_ROWS
        with open(src, "w") as f:
            f.write(bag_program_text(BAG_ROWS, BAG_WIDTH, BAGS, BAG_LENGTH))
        want = table[np.where(ids < 0, ids + BAG_ROWS, ids)].sum(axis=1, dtype=np.float32)
        arrays = (("t", table), ("i", ids))
        bias = None
    else:
        tosa = os.path.join(work, "tosa.mlir")
        with open(tosa, "w") as f:
            f.write(tosa_module())
        imported = subprocess.run([opt, tosa, "--convert-tosa-gather-to-gather"], check=True,
                                  capture_output=True, text=True).stdout
        linalg = subprocess.run(
            [opt, "--pass-pipeline=builtin.module(func.func(tosa-to-linalg))"],
            input=imported, check=True, capture_output=True, text=True).stdout
        with open(src, "w") as f:
            f.write(linalg)
        table = rng.standard_normal((1, ROWS, WIDTH), dtype=np.float32)
        ids = rng.integers(0, ROWS, size=(1, LOOKUPS)).astype(np.int32)
        bias = rng.standard_normal((1, 1, WIDTH), dtype=np.float32)
        want = np.tanh(table[0][ids[0]] + bias[0])[None]
        arrays = (("t", table), ("i", ids), ("b", bias))
    # Sums of 32 rows in another order than numpy's: within 1e-4.
    tolerance = 1e-4 if args.workload != "embedding" else 1e-6
    inputs = []
    for name, array in arrays:
        path = os.path.join(work, f"{name}.npy")
        np.save(path, array)
        inputs += ["--input", path]
    out = os.path.join(work, "out.npy")

    def time_gather(extra, bin_dir=args.bin):
        where = (["--device", "gpu", "--bench-launches", str(args.launches)]
                 if args.device == "gpu" else ["--threads", str(args.threads)])
        r = subprocess.run([os.path.join(bin_dir, "gather-run"), src, *inputs, "--output", out,
                            "--bench", str(args.runs), *where, *extra],
                           capture_output=True, text=True)
        if r.returncode:
            sys.exit(f"gather-run {' '.join(extra)} failed: {r.stderr.strip()}")
        got = np.load(out)
        if got.shape != want.shape or not np.allclose(got, want, rtol=0, atol=tolerance):
            sys.exit(f"compiled result ({extra or 'fused'}) differs from numpy")
        if args.device == "gpu":
            return (float(re.search(r"median ([0-9.]+) ms kernel time", r.stdout).group(1)),
                    float(re.search(r"call ([0-9.]+) ms with launches", r.stdout).group(1)))
        return float(re.search(r"median ([0-9.]+) ms", r.stdout).group(1))

    if args.device == "gpu":
        return gpu_main(args, time_gather, table, ids, bias, want, tolerance)

    contenders = {"fused": float("inf"), "unfused": float("inf")}
    if args.other_bin:
        contenders.update({"other fused": float("inf"), "other unfused": float("inf")})
    torch_ms = None
    try:
        import torch
        torch.set_num_threads(args.threads)
        torch_run, torch_result = torch_contender(torch, args.workload, table, ids, bias, "cpu")
        if not np.allclose(torch_result(torch_run()), want, rtol=0, atol=tolerance):
            sys.exit("torch result differs from numpy")
        torch_ms = float("inf")
    except ImportError:
        print("(torch not installed: no torch column)")
    unfused_runs = args.workload != "offsets-bag"
    for _ in range(args.rounds):
        contenders["fused"] = min(contenders["fused"], time_gather([]))
        if unfused_runs:
            contenders["unfused"] = min(contenders["unfused"], time_gather(["--no-fusion"]))
        if args.other_bin:
            contenders["other fused"] = min(contenders["other fused"],
                                            time_gather([], args.other_bin))
            contenders["other unfused"] = min(contenders["other unfused"],
                                              time_gather(["--no-fusion"], args.other_bin))
        if torch_ms is not None:
            torch_ms = min(torch_ms, median_ms(torch_run, args.runs))
    print(f"{describe(args.workload)}; threads={args.threads}, "
          f"runs={args.runs}, rounds={args.rounds}, best median ms")
    print("| fused (ms) | unfused (ms) | torch (ms) | unfused / fused | torch / fused |")
    print("| ---: | ---: | ---: | ---: | ---: |")
    fused, unfused = contenders["fused"], contenders["unfused"]
    torch_text = f"{torch_ms:.3f}" if torch_ms is not None else "-"
    torch_ratio = f"{torch_ms / fused:.2f}" if torch_ms is not None else "-"
    unfused_text, unfused_ratio = ((f"{unfused:.3f}", f"{unfused / fused:.2f}")
                                   if unfused_runs else ("-", "-"))
    print(f"| {fused:.3f} | {unfused_text} | {torch_text} | {unfused_ratio} | {torch_ratio} |")
    if args.other_bin:
        of, ou = contenders["other fused"], contenders["other unfused"]
        print("| other fused (ms) | other unfused (ms) | other fused / fused | other unfused / unfused |")
        print("| ---: | ---: | ---: | ---: |")
        print(f"| {of:.3f} | {ou:.3f} | {of / fused:.2f} | {ou / unfused:.2f} |")
    print("(ratios above 1: the fused pipeline is faster)")
    return 0


def describe(workload):
    if workload == "offsets-bag":
        return (f"embedding bag with offsets as torch-mlir writes it: table {BAG_ROWS}x"
                f"{BAG_WIDTH} f32, {BAGS} bags of {BAG_LENGTH} i64 indices, sum")
    if workload == "bag":
        return (f"embedding bag: table {BAG_ROWS}x{BAG_WIDTH} f32, {BAGS} bags of {BAG_LENGTH} "
                f"i64 indices (a tenth negative), sum")
    return f"embedding {ROWS}x{WIDTH} f32, {LOOKUPS} lookups, + bias, tanh"


def torch_contender(torch, workload, table, ids, bias, device):
    """torch's form of the workload on `device`, and how to turn its
    result into the compiled result's numpy array."""
    if workload in ("bag", "offsets-bag"):
        tt = torch.from_numpy(table).to(device)
        flat = np.where(ids < 0, ids + BAG_ROWS, ids).reshape(-1)
        ti = torch.from_numpy(flat).to(device)
        offsets = torch.from_numpy(np.arange(BAGS, dtype=np.int64) * BAG_LENGTH).to(device)

        def torch_run():
            return torch.nn.functional.embedding_bag(ti, tt, offsets, mode="sum")
        return torch_run, lambda y: y.cpu().numpy()
    tt = torch.from_numpy(table[0]).to(device)
    ti = torch.from_numpy(ids[0].astype(np.int64)).to(device)
    tb = torch.from_numpy(bias[0, 0]).to(device)

    def torch_run():
        y = torch.index_select(tt, 0, ti)
        y.add_(tb)
        y.tanh_()
        return y
    return torch_run, lambda y: y.cpu().numpy()[None]


def gpu_main(args, time_gather, table, ids, bias, want, tolerance):
    """The fused and unfused GPU pipelines and torch on CUDA: kernels
    (launches back to back) and whole calls, best of the rounds."""
    import statistics
    import time
    best = {k: float("inf") for k in ("fused", "fused call", "unfused", "unfused call",
                                      "torch", "torch call")}
    torch_ok = False
    try:
        import torch
        torch_ok = torch.cuda.is_available()
    except ImportError:
        pass
    if torch_ok:
        torch_run, torch_result = torch_contender(torch, args.workload, table, ids, bias, "cuda")
        if not np.allclose(torch_result(torch_run()), want, rtol=0, atol=tolerance):
            sys.exit("torch's CUDA result differs from numpy")
        for _ in range(3):
            torch_run()
        torch.cuda.synchronize()
    for _ in range(args.rounds):
        for name, extra in (("fused", []), ("unfused", ["--no-fusion"])):
            if name == "unfused" and args.workload == "offsets-bag":
                continue
            kernel, call = time_gather(extra)
            best[name] = min(best[name], kernel)
            best[name + " call"] = min(best[name + " call"], call)
        if torch_ok:
            events, calls = [], []
            for _ in range(args.runs):
                start = torch.cuda.Event(enable_timing=True)
                stop = torch.cuda.Event(enable_timing=True)
                start.record()
                for _ in range(args.launches):
                    torch_run()
                stop.record()
                stop.synchronize()
                events.append(start.elapsed_time(stop) / args.launches)
            for _ in range(args.runs):
                t0 = time.perf_counter()
                torch_run()
                torch.cuda.synchronize()
                calls.append((time.perf_counter() - t0) * 1e3)
            best["torch"] = min(best["torch"], statistics.median(events))
            best["torch call"] = min(best["torch call"], statistics.median(calls))
    print(f"GPU: {describe(args.workload)}; runs={args.runs}, "
          f"rounds={args.rounds}, kernels as {args.launches} launches back to back (per launch), "
          f"calls on the host clock; best median ms")
    print("| fused kernel | unfused kernels | torch kernels | unfused / fused | torch / fused "
          "| fused call | unfused call | torch call | torch call / fused call |")
    print("| ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |")
    f, u, t = best["fused"], best["unfused"], best["torch"]
    fc, uc, tc = best["fused call"], best["unfused call"], best["torch call"]
    tk = f"{t:.4f}" if torch_ok else "-"
    ran = u != float("inf")  # (no unfused form of the offsets bag)
    uk, ur, ucall = ((f"{u:.4f}", f"{u / f:.2f}", f"{uc:.4f}") if ran else ("-", "-", "-"))
    print(f"| {f:.4f} | {uk} | {tk} | {ur} | "
          f"{(t / f) if torch_ok else float('nan'):.2f} | {fc:.4f} | {ucall} | "
          f"{(f'{tc:.4f}') if torch_ok else '-'} | {(tc / fc) if torch_ok else float('nan'):.2f} |")
    print("(ratios above 1: the fused pipeline is faster)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
