# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
"""Compile gather functions with --gather-gpu-pipeline and assemble every
kernel's PTX with ptxas, for each requested chip.

    python3 -m gather_testing.ptxcheck --bin build/bin --chips sm_80,sm_90 FILE.mlir ...
    python3 -m gather_testing.ptxcheck --bin build/bin --random 50 --seed 1

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


_HEADER_END = re.compile(r"^\.address_size \d+\s*$", re.M)
_TOP_LEVEL_NAME = re.compile(
    r"^(?:\.visible |\.extern |\.weak )?(?:\.entry|\.func(?: \([^)]*\))?|\.global[^;(]*?|"
    r"\.const[^;(]*?|\.shared[^;(]*?)\s+([A-Za-z_$][\w$]*)", re.M)


def merge_ptx(ptxs):
    """One PTX module holding the kernels of several (each module's
    top-level names made unique), so that one ptxas call assembles them
    all. None when a module has no recognizable header."""
    header, bodies = None, []
    for n, ptx in enumerate(ptxs):
        m = _HEADER_END.search(ptx)
        if not m:
            return None
        if header is None:
            header = ptx[:m.end()]
        body = ptx[m.end():]
        for name in set(_TOP_LEVEL_NAME.findall(body)):
            body = re.sub(r"(?<![\w$])" + re.escape(name) + r"(?![\w$])", f"{name}_m{n}", body)
        bodies.append(body)
    return header + "\n".join(bodies)


def assemble(tools, chip, path, ptx):
    with open(path, "w") as f:
        f.write(ptx)
    a = subprocess.run([tools["ptxas"], f"-arch={chip}", path, "-o", path + ".cubin"],
                       capture_output=True, text=True)
    return a.returncode == 0, a.stderr.strip()


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
        base = os.path.join(work, f"{os.path.basename(path)}.{chip}")
        # All kernels of the file in one ptxas call; one by one only to
        # name the culprit when that fails.
        merged = merge_ptx(ptxs) if len(ptxs) > 1 else None
        if merged is not None and assemble(tools, chip, base + ".all.ptx", merged)[0]:
            kernels += len(ptxs)
            continue
        for k, ptx in enumerate(ptxs):
            ok, stderr = assemble(tools, chip, f"{base}.{k}.ptx", ptx)
            if ok:
                kernels += 1
            else:
                problems.append(f"{path} ({chip}) kernel {k}: ptxas: {stderr}")
    return kernels, problems


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("files", nargs="*")
    parser.add_argument("--bin", default="build/bin")
    parser.add_argument("--chips", default="sm_80,sm_90")
    parser.add_argument("--ptxas", default=shutil.which("ptxas") or "/usr/local/cuda/bin/ptxas")
    parser.add_argument("--random", type=int, default=0, help="random cases per op")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--consumers", type=float, default=0.0,
                        help="the share of random cases followed by a consumer "
                        "(elementwise or a reduction, which the pipeline fuses)")
    args = parser.parse_args(argv)
    tools = {"gather-opt": os.path.join(args.bin, "gather-opt"), "ptxas": args.ptxas}
    chips = args.chips.split(",")
    work = tempfile.mkdtemp(prefix="gather-ptx-")
    files = list(args.files)
    if args.random:
        from gather_testing import difftest
        rng = np.random.default_rng(args.seed)
        # One module per op with every case as its own function: one
        # pipeline run per op and chip.
        for op in ("multiaxis", "block", "elements", "nd"):
            functions = []
            for i in range(args.random):
                case = difftest.make_case(op, rng, consumers=args.consumers)
                try:
                    want = case.expected()
                except Exception:
                    want = None
                functions.append(difftest.function_text(case, f"{op}{i}",
                                                        difftest.output_shape(case, want)))
            path = os.path.join(work, f"{op}.mlir")
            with open(path, "w") as f:
                f.write("\n".join(functions))
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
