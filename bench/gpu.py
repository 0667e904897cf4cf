#!/usr/bin/env python3
"""GPU benchmark: the five workloads of bench/run.py through
gather-run --device gpu --bench N on this machine's NVIDIA GPU.

For each, gather-run reports the median kernel time (CUDA events around each
launch) and the achieved bandwidth, counting each output element read once
and written once plus the indices read once, against a device-to-device copy
of the same number of bytes timed in the same process. The compiled result is
compared with numpy.

    /usr/bin/python3 bench/gpu.py --runs 50
"""

import argparse
import os
import re
import subprocess
import sys
import tempfile

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
from run import workloads, write_workload  # noqa: E402


def main():
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--runs", type=int, default=50)
    p.add_argument("--bin", default=os.path.join(HERE, "..", "build", "bin"))
    p.add_argument("--only", default="", help="comma-separated workloads")
    args = p.parse_args()
    work = tempfile.mkdtemp(prefix="gather-gpu-bench-")
    rows = []
    device = ""
    for name, w in workloads(np.random.default_rng(0)).items():
        if args.only and name not in args.only.split(","):
            continue
        want = w["numpy"]()
        src = write_workload(work, name, w, want)
        out = os.path.join(work, f"{name}_out.npy")
        r = subprocess.run([os.path.join(args.bin, "gather-run"), src, "--device", "gpu",
                            "--input", os.path.join(work, f"{name}_d.npy"),
                            "--input", os.path.join(work, f"{name}_i.npy"),
                            "--output", out, "--bench", str(args.runs)],
                           capture_output=True, text=True)
        if r.returncode != 0:
            print(r.stderr.strip(), file=sys.stderr)
            return 1
        if not np.array_equal(np.load(out), want):
            print(f"{name}: GPU result differs from numpy", file=sys.stderr)
            return 1
        kernel = float(re.search(r"median ([0-9.]+) ms kernel time", r.stdout).group(1))
        device = re.search(r"kernel time over \d+ runs \(@\w+, (.*)\)", r.stdout).group(1)
        m = re.search(r"bandwidth ([0-9.]+) GB/s for (\d+) bytes; device copy of the same bytes "
                      r"([0-9.]+) ms, ([0-9.]+) GB/s", r.stdout)
        rows.append((name, kernel, float(m.group(1)), float(m.group(3)), float(m.group(4))))
    print(f"device: {device}, runs={args.runs}, median kernel ms")
    print("| workload | gather (ms) | gather GB/s | copy (ms) | copy GB/s | gather / copy bandwidth |")
    print("| --- | ---: | ---: | ---: | ---: | ---: |")
    for name, kernel, gbps, copy_ms, copy_gbps in rows:
        print(f"| {name} | {kernel:.4f} | {gbps:.1f} | {copy_ms:.4f} | {copy_gbps:.1f} | {gbps / copy_gbps:.2f} |")
    return 0


if __name__ == "__main__":
    sys.exit(main())
