#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
"""GPU benchmark: the workloads of bench/run.py through
gather-run --device gpu --bench N on this machine's NVIDIA GPU.

For each workload and policy (the default, `error`, and `unchecked`),
gather-run reports the median kernel time (CUDA events around `--launches`
launches of the kernel back to back, divided by their number, so that the
launch latency hides behind the kernels before it; `--launches 1`: events
around each launch, which include it; under `error` the time includes the
index check) and the achieved bandwidth,
counting each output element read once and written once plus the indices
read once, against a device-to-device copy of the same number of bytes
timed in the same process, and the median time of the whole call on the host
clock. torch on the same GPU (where it is installed and has the op) runs
the same gather, timed three ways: CUDA events around `--launches` calls back
to back (against our kernel time, timed the same way), its kernels' device
time from the profiler (a check on the first) and the whole call on the host
clock, synchronized (against our call). Every result
is compared with numpy.

    python3 bench/gpu.py --runs 50 --rounds 3 [--launches 20] [--only W1,W3]
        [--policies error,unchecked,fill,dynamic]

`dynamic` in --policies is the default policy with every size of the
function dynamic (bench/dynamic_shapes.py's "everything" variant): its
kernels take their sizes at run time (32-bit index arithmetic where the
sizes allow it, chosen at launch).
"""

import argparse
import atexit
import os
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
import time

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
from run import torch_peer, torch_result, workloads, write_workload  # noqa: E402


def gather_run(args, work, name, src, want):
    out = os.path.join(work, f"{name}_out.npy")
    r = subprocess.run([os.path.join(args.bin, "gather-run"), src, "--device", "gpu",
                        "--input", os.path.join(work, f"{name}_d.npy"),
                        "--input", os.path.join(work, f"{name}_i.npy"),
                        "--output", out, "--bench", str(args.runs),
                       "--bench-launches", str(args.launches)],
                       capture_output=True, text=True)
    if r.returncode != 0:
        sys.exit(f"{src}: {r.stderr.strip()}")
    if not np.array_equal(np.load(out), want):
        sys.exit(f"{src}: GPU result differs from numpy")
    kernel = float(re.search(r"median ([0-9.]+) ms kernel time", r.stdout).group(1))
    device = re.search(r"kernel time over \d+ runs \(@\w+, (.*)\)", r.stdout).group(1)
    m = re.search(r"bandwidth ([0-9.]+) GB/s for (\d+) bytes; device copy of the same bytes "
                  r"([0-9.]+) ms, ([0-9.]+) GB/s", r.stdout)
    call = float(re.search(r"call ([0-9.]+) ms with launches", r.stdout).group(1))
    return device, kernel, float(m.group(1)), float(m.group(3)), float(m.group(4)), call


def torch_cuda_ms(torch, w, want, runs, launches):
    """torch's own gather on the GPU, three ways, or None: CUDA events around
    `launches` calls back to back, divided by their number (as our kernel is
    timed; with one call, as this table timed torch until 2026-11-27, torch's
    host work and the launch show up while the GPU waits), the kernels alone
    (the profiler's device durations summed per call) and the whole call on
    the host clock, synchronized (compare with our call)."""
    if torch is None:
        return None
    fn = torch_peer(torch, w, device="cuda")
    if fn is None:
        return None
    if not np.array_equal(torch_result(fn), want):
        sys.exit("torch's GPU result differs from numpy")
    for _ in range(3):
        fn()
    torch.cuda.synchronize()
    events = []
    for _ in range(runs):
        start, stop = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
        start.record()
        for _ in range(launches):
            fn()
        stop.record()
        stop.synchronize()
        events.append(start.elapsed_time(stop) / launches)
    calls = []
    for _ in range(runs):
        t0 = time.perf_counter()
        fn()
        torch.cuda.synchronize()
        calls.append((time.perf_counter() - t0) * 1e3)
    return {"events": statistics.median(events), "kernel": torch_kernel_ms(torch, fn, runs),
            "call": statistics.median(calls)}


def torch_kernel_ms(torch, fn, runs):
    """Median per call of the summed durations of the device activities
    (kernels, copies) torch's profiler records for `runs` calls; None where
    the profiler records none."""
    from torch.profiler import ProfilerActivity, profile
    try:
        with profile(activities=[ProfilerActivity.CPU, ProfilerActivity.CUDA]) as prof:
            for _ in range(runs):
                fn()
            torch.cuda.synchronize()
        device = [e for e in prof.events() if e.device_type == torch.autograd.DeviceType.CUDA]
    except Exception as e:  # noqa: BLE001 (a profiler that cannot run here)
        print(f"torch profiler: {e}", file=sys.stderr)
        return None
    if not device:
        return None
    device.sort(key=lambda e: e.time_range.start)
    if len(device) % runs:
        return sum(e.time_range.elapsed_us() for e in device) / runs / 1e3
    per = len(device) // runs
    return statistics.median(
        sum(e.time_range.elapsed_us() for e in device[k:k + per]) / 1e3
        for k in range(0, len(device), per))


def main():
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--runs", type=int, default=50)
    p.add_argument("--bin", default=os.path.join(HERE, "..", "build", "bin"))
    p.add_argument("--only", default="", help="comma-separated workloads")
    p.add_argument("--rounds", type=int, default=3,
                   help="alternating rounds over the policies; each keeps its best median")
    p.add_argument("--work", default="", help="keep the inputs and programs in this directory")
    p.add_argument("--launches", type=int, default=20,
                   help="kernels (and torch calls) back to back between the events of one timing")
    p.add_argument("--policies", default="error,unchecked",
                   help="comma-separated out_of_bounds policies to time")
    args = p.parse_args()
    try:
        import torch
        if not torch.cuda.is_available():
            torch = None
    except ImportError:
        torch = None
    work = args.work
    if not work:
        work = tempfile.mkdtemp(prefix="gather-gpu-bench-")
        atexit.register(shutil.rmtree, work, True)  # the inputs take gigabytes
    os.makedirs(work, exist_ok=True)
    rows = []
    device = ""
    policies = args.policies.split(",")
    for name, w in workloads(np.random.default_rng(0)).items():
        if args.only and name not in args.only.split(","):
            continue
        want = w["numpy"]()
        row = {"name": name}
        sources = {}
        for policy in policies:
            text = "" if policy in ("error", "dynamic") else f" out_of_bounds = {policy}"
            src = write_workload(work, name, w, want, text)
            sources[policy] = os.path.join(work, f"{name}_{policy}.mlir")
            os.replace(src, sources[policy])
            if policy == "dynamic":
                from dynamic_shapes import variant_text, variants
                with open(sources[policy], "w") as f:
                    f.write(variant_text(w, variants(w)["everything"]))
        # Rounds alternate the policies, so that a slow spell of the GPU (its
        # clocks, the L2's contents) hits all of them; each keeps its best.
        for _ in range(args.rounds):
            for policy in policies:
                device, kernel, gbps, copy_ms, copy_gbps, call = gather_run(
                    args, work, name, sources[policy], want)
                best = row.setdefault(policy, [float("inf"), 0.0, float("inf")])
                if kernel < best[0]:
                    best[0], best[1] = kernel, gbps
                best[2] = min(best[2], call)
                if "copy" not in row or copy_ms < row["copy"][0]:
                    row["copy"] = (copy_ms, copy_gbps)
        row["torch"] = torch_cuda_ms(torch, w, want, args.runs, args.launches)
        rows.append(row)
    print(f"device: {device}, runs={args.runs}, rounds={args.rounds} (best median), median kernel ms "
          f"(CUDA events around {args.launches} launches back to back, per launch); "
          f"bandwidth counts each output element read and written once plus the indices read "
          f"once; call: the whole compiled function on the host clock (launches, allocation, "
          f"the error flag's copy back)")
    head = "| workload |"
    for policy in policies:
        head += f" {policy} (ms) | {policy} GB/s | {policy} / copy bandwidth | {policy} call (ms) |"
    head += (" copy (ms) | copy GB/s | torch (ms) | torch / gather |"
             " torch kernel (ms) | torch kernel / gather kernel | torch call (ms) |"
             " torch call / gather call |")
    if "error" in policies and "unchecked" in policies:
        head += " error / unchecked time |"
    print(head)
    print("| --- |" + " ---: |" * (head.count("|") - 2))
    for row in rows:
        copy_ms, copy_gbps = row["copy"]
        line = f"| {row['name']} |"
        for policy in policies:
            kernel, gbps, call = row[policy]
            line += f" {kernel:.4f} | {gbps:.1f} | {gbps / copy_gbps:.2f} | {call:.3f} |"
        first = row[policies[0]][0]
        torch_ms = row["torch"]
        line += f" {copy_ms:.4f} | {copy_gbps:.1f} | "
        if torch_ms:
            line += f"{torch_ms['events']:.4f} | {torch_ms['events'] / first:.2f} |"
            kernel = torch_ms["kernel"]
            line += f" {kernel:.4f} | {kernel / first:.2f} |" if kernel else " - | - |"
            call = row[policies[0]][2]
            line += f" {torch_ms['call']:.3f} | {torch_ms['call'] / call:.2f} |"
        else:
            line += "- | - | - | - | - | - |"
        if "error" in policies and "unchecked" in policies:
            line += f" {row['error'][0] / row['unchecked'][0]:.2f} |"
        print(line)
    return 0


if __name__ == "__main__":
    sys.exit(main())
