"""Compile gather functions with --gather-gpu-pipeline and assemble every
kernel's PTX with ptxas, for each requested chip.

    python3 -m gather.ptxcheck --bin build/bin --chips sm_80,sm_90 FILE.mlir ...
    python3 -m gather.ptxcheck --bin build/bin --random 50 --seed 1

--random N adds N random cases per op from the differential-test generator
(all four ops, every policy, dynamic shapes, empty dimensions). Prints one
line per failure and a count; exit status 1 if anything failed.
"""

import argparse
import os
import re
import shutil
import subprocess
import sys
import tempfile

import numpy as np

_OBJECT = re.compile(r'#gpu\.object<#nvvm\.target<[^>]*>,[^"]*?assembly = "((?:[^"\\]|\\.)*)"')


def decode_mlir_string(text):
    """Undo MLIR's string escapes: \\XX (hex), \\\\, \\", \\n, \\t."""
    out = bytearray()
    i = 0
    while i < len(text):
        c = text[i]
        if c != "\\":
            out += c.encode()
            i += 1
            continue
        nxt = text[i + 1]
        if nxt in "\\\"":
            out += nxt.encode()
            i += 2
        elif nxt == "n":
            out += b"\n"
            i += 2
        elif nxt == "t":
            out += b"\t"
            i += 2
        else:
            out.append(int(text[i + 1:i + 3], 16))
            i += 3
    return out.decode()


def extract_ptx(module_text):
    """The PTX of every gpu.binary object in a module printed by gather-opt."""
    return [decode_mlir_string(m.group(1)) for m in _OBJECT.finditer(module_text)]


def check_file(path, chips, tools, work):
    """Returns (kernels assembled, list of problems)."""
    problems, kernels = [], 0
    for chip in chips:
        r = subprocess.run([tools["gather-opt"], path,
                            f"--gather-gpu-pipeline=chip={chip} format=isa"],
                           capture_output=True, text=True)
        if r.returncode != 0:
            problems.append(f"{path} ({chip}): gather-gpu-pipeline failed: {r.stderr.strip()}")
            continue
        ptxs = extract_ptx(r.stdout)
        if not ptxs:
            # A function whose gathers all folded away has no kernel; that
            # is only fine if no gather op reached the lowering.
            if "gpu.launch_func" in r.stdout:
                problems.append(f"{path} ({chip}): launches kernels but no PTX was found")
            continue
        for k, ptx in enumerate(ptxs):
            ptx_path = os.path.join(work, f"{os.path.basename(path)}.{chip}.{k}.ptx")
            with open(ptx_path, "w") as f:
                f.write(ptx)
            a = subprocess.run([tools["ptxas"], f"-arch={chip}", ptx_path,
                                "-o", ptx_path + ".cubin"], capture_output=True, text=True)
            if a.returncode != 0:
                problems.append(f"{path} ({chip}) kernel {k}: ptxas: {a.stderr.strip()}")
            else:
                kernels += 1
    return kernels, problems


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("files", nargs="*")
    parser.add_argument("--bin", default="build/bin")
    parser.add_argument("--chips", default="sm_80,sm_90")
    parser.add_argument("--ptxas", default=shutil.which("ptxas") or "/usr/local/cuda/bin/ptxas")
    parser.add_argument("--random", type=int, default=0, help="random cases per op")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args(argv)
    tools = {"gather-opt": os.path.join(args.bin, "gather-opt"), "ptxas": args.ptxas}
    chips = args.chips.split(",")
    work = tempfile.mkdtemp(prefix="gather-ptx-")
    files = list(args.files)
    if args.random:
        from gather import difftest
        rng = np.random.default_rng(args.seed)
        for op in ("multiaxis", "block", "elements", "nd"):
            for i in range(args.random):
                case = difftest.make_case(op, rng)
                try:
                    want = case.expected()
                except Exception:
                    want = None
                path = os.path.join(work, f"{op}{i}.mlir")
                with open(path, "w") as f:
                    f.write(case.mlir(difftest.output_shape(case, want)))
                files.append(path)
    total, problems = 0, []
    for path in files:
        kernels, file_problems = check_file(path, chips, tools, work)
        total += kernels
        problems += file_problems
    for p in problems:
        print("FAIL", p)
    print(f"ptxcheck: {len(files)} files, {total} kernels assembled for {','.join(chips)}, "
          f"{len(problems)} failed")
    if not problems:
        shutil.rmtree(work, ignore_errors=True)
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
