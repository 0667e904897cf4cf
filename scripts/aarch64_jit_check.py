#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
"""The checks of scripts/aarch64-jit.sh: gather-run built for AArch64, run
under QEMU through WORK/gather-run (which shows it WORK/cpuinfo-<cpu> as
/proc/cpuinfo and gives QEMU the CPU in QEMU_CPU), on emulated Neoverse V1
hosts with 128-, 256- and 512-bit SVE and a Neoverse N1 host.

    PYTHONPATH=python:test/lib /usr/bin/python3 scripts/aarch64_jit_check.py WORK HOST_BIN
        [--random N] [--seed S]

HOST_BIN holds this machine's gather-run, whose error report the AArch64
JIT's must equal. Each result is compared with python/gather/reference.py.
`--random N` adds N random valid cases of the differential tests (every
element type, ranks 1 to 6, every policy, dynamic and empty sizes), run on
the 256-bit SVE host and on the N1 at 2 threads.
"""

import argparse
import os
import subprocess
import sys

import numpy as np

from gather import reference
from gather.mlir_text import gather_op_text, tensor_type
from gather_testing import difftest

parser = argparse.ArgumentParser()
parser.add_argument("work")
parser.add_argument("host_bin")
parser.add_argument("--random", type=int, default=0)
parser.add_argument("--seed", type=int, default=1)
options = parser.parse_args()
work, host_bin = options.work, options.host_bin
run_dir = os.path.join(work, "run")
os.makedirs(run_dir, exist_ok=True)
rng = np.random.default_rng(7)
failures = 0
ETYPES = {np.float32: "f32", np.float16: "f16", np.int8: "i8", np.int32: "i32", np.int64: "i64"}


def case(name, op, attrs, data, indices, dynamic=False, **args):
    """A module whose @main applies one gather to (data, indices), its
    inputs written as .npy files; returns the name and the reference result
    (None where the reference raises the `error` policy's error)."""
    shape_args = {k: v for k, v in args.items() if k in ("axis", "axes", "batch_dims")}
    policy = {k: v for k, v in args.items() if k in ("negative", "out_of_bounds")}
    try:
        want = getattr(reference, op)(data, indices, **shape_args, **policy)
    except reference.GatherIndexError:
        want = None
        if not dynamic:
            raise ValueError("an error case needs dynamic shapes")
    dtype, itype = ETYPES[data.dtype.type], ETYPES[indices.dtype.type]
    out_rank = want.ndim if want is not None else data.ndim
    dt = tensor_type([None] * data.ndim if dynamic else data.shape, dtype)
    # gather.nd's coordinate size (the last indices dimension) is static.
    ishape = [None] * indices.ndim if dynamic else list(indices.shape)
    if op == "nd":
        ishape[-1] = indices.shape[-1]
    it = tensor_type(ishape, itype)
    ot = tensor_type([None] * out_rank if dynamic else want.shape, dtype)
    text = [f"func.func @main(%data: {dt}, %indices: {it}) -> {ot} {{",
            gather_op_text(op, "%r", "%data", "%indices", dt, it, ot, attrs=attrs, **shape_args),
            f"  return %r : {ot}", "}"]
    path = os.path.join(run_dir, name)
    with open(path + ".mlir", "w") as f:
        f.write("\n".join(text) + "\n")
    np.save(path + ".data.npy", data)
    np.save(path + ".indices.npy", indices)
    return name, want


f32 = rng.standard_normal((300, 100)).astype(np.float32)
CASES = [
    # Element rows: SVE's gathers at 256 bits and more.
    case("elements", "elements", "axis = 1", f32, rng.integers(-100, 100, (300, 37)), axis=1),
    # Row copies, and a gather.nd of rows.
    case("block", "block", "axis = 0", f32, rng.integers(-300, 300, 53), axis=0),
    case("nd", "nd", "", f32, rng.integers(-300, 300, (41, 1))),
    # Sizes known at run time: i32 indices; tiles of f16 blocks of 40 with
    # fill; offset-table rows (NHWC, axes [0, 3]) with clamp; batched i8
    # rows.
    case("elements_dynamic_i32", "elements", "axis = 0", f32,
         rng.integers(-300, 300, (77, 100)).astype(np.int32), dynamic=True, axis=0),
    case("block_f16_fill", "block", "axis = 0 out_of_bounds = fill",
         rng.standard_normal((50, 40)).astype(np.float16), rng.integers(-60, 60, 90),
         dynamic=True, axis=0, out_of_bounds="fill"),
    case("multiaxis_clamp", "multiaxis", "axes = [0, 3] out_of_bounds = clamp",
         rng.standard_normal((6, 9, 9, 64)).astype(np.float32),
         rng.integers(-70, 70, (4, 1, 1, 32)), dynamic=True, axes=(0, 3), out_of_bounds="clamp"),
    case("nd_i8_batch", "nd", "batch_dims = 1",
         rng.integers(-128, 127, (8, 200, 33)).astype(np.int8), rng.integers(-200, 200, (8, 19, 1)),
         dynamic=True, batch_dims=1),
    # An index out of bounds under the default policy: the error report.
    case("block_error", "block", "axis = 0", f32, np.array([3, 299, 300, 1]), dynamic=True, axis=0),
]


def run_command(command, env=None):
    """The finished process, or one with status -1 where it ran past the
    limit (QEMU's own assertion once hung after the program crashed)."""
    try:
        return subprocess.run(command, env=env, capture_output=True, text=True, cwd=run_dir,
                              timeout=300)
    except subprocess.TimeoutExpired:
        return subprocess.CompletedProcess(command, -1, "", "timed out after 300 s")


def emulated(cpu, qemu_cpu):
    """Runs gather-run on the emulated host."""
    env = dict(os.environ, CPUINFO=os.path.join(work, "cpuinfo-" + cpu), QEMU_CPU=qemu_cpu)
    return lambda *args: run_command([os.path.join(work, "gather-run"), *args], env)


def on_this_machine(*args):
    return run_command([os.path.join(host_bin, "gather-run"), *args])


def check(what, ok, detail=""):
    global failures
    print(("ok    " if ok else "FAIL  ") + what + ("" if ok else ": " + detail))
    failures += not ok


def run_case(name, runner, *extra):
    out = os.path.join(run_dir, name + ".out.npy")
    if os.path.exists(out):
        os.remove(out)
    result = runner(name + ".mlir", "--input", name + ".data.npy", "--input",
                    name + ".indices.npy", "--output", out, *extra)
    return result, out


def wrong_results(cases, runner, threads):
    """What differs: a result from the reference's (bit for bit), or an
    error report from this machine's JIT's for the same module."""
    wrong = []
    for name, want in cases:
        result, out = run_case(name, runner, "--threads", threads)
        if want is None:
            expected = run_case(name, on_this_machine)[0].stderr
            ok = result.returncode != 0 and result.stderr == expected and expected
        else:
            ok = result.returncode == 0 and difftest.same_bits(np.load(out), want)
        if not ok:
            wrong.append(f"{name}: {result.stderr.strip()[-300:]!r}")
    return wrong


HOSTS = [("neoverse-v1", 16, 128, 0), ("neoverse-v1", 32, 256, 2),
         ("neoverse-v1", 64, 512, 4), ("neoverse-n1", 0, 128, 0)]
for cpu, sve_bytes, bits, vscale in HOSTS:
    qemu_cpu = f"max,sve-default-vector-length={sve_bytes}" if sve_bytes else "max,sve=off"
    host = f"{cpu}, {sve_bytes * 8}-bit SVE" if sve_bytes else f"{cpu}, no SVE"
    runner = emulated(cpu, qemu_cpu)
    target = runner("--print-target").stdout
    fields = dict(item.split("=", 1) for item in target.split())
    check(f"{host}: plans cpu={cpu} vector-bits={bits} vscale-min={vscale}",
          (fields.get("cpu"), fields.get("vector-bits"), fields.get("vscale-min")) ==
          (cpu, str(bits), str(vscale)), target.strip())
    for threads in ("1", "2"):
        wrong = wrong_results(CASES, runner, threads)
        check(f"{host}, {threads} thread(s): {len(CASES)} gathers equal the reference's "
              "(the error report this machine's JIT's)", not wrong, "; ".join(wrong))

# Random cases of the differential tests, each function as difftest
# writes it (the output's sizes dynamic).
random_rng = np.random.default_rng(options.seed)
RANDOM = []
for k in range(options.random):
    op = ("block", "elements", "nd", "multiaxis")[k % 4]
    rcase = difftest.make_case(op, random_rng)
    want = difftest.reference_or_error(rcase.expected)
    failed = isinstance(want, Exception)
    shape = difftest.output_shape(rcase, None if failed else want)
    name = f"random{k}_{op}"
    path = os.path.join(run_dir, name)
    with open(path + ".mlir", "w") as f:
        f.write(difftest.function_text(rcase, "main", shape))
    np.save(path + ".data.npy", rcase.data)
    np.save(path + ".indices.npy", rcase.indices)
    RANDOM.append((name, None if failed else want))
for cpu, qemu_cpu, host in [("neoverse-v1", "max,sve-default-vector-length=32", "256-bit SVE"),
                            ("neoverse-n1", "max,sve=off", "no SVE")]:
    if not RANDOM:
        break
    wrong = wrong_results(RANDOM, emulated(cpu, qemu_cpu), "2")
    check(f"{cpu}, {host}, 2 threads: {len(RANDOM)} random cases (seed {options.seed}) equal "
          "the reference's", not wrong, "; ".join(wrong))

# The 256-bit plan's code: the body the entry's check calls holds SVE's
# gathers (the instruction selector's output, which LLVM prints).
result, _ = run_case("elements", emulated("neoverse-v1", "max,sve-default-vector-length=32"),
                     "--compile-threads=1", "--print-after=aarch64-isel")
functions = result.stderr.split("# Machine code for function ")
body = next((f for f in functions if f.startswith("main.vl256:")), "")
entry = next((f for f in functions if f.startswith("main:")), "")
check("256-bit SVE: main.vl256 holds SVE gathers (GLD1W)", "GLD1W" in body,
      "no GLD1W in main.vl256" if body else "no main.vl256")
check("256-bit SVE: the entry reads the length (RDVL) and calls main.vl256",
      "RDVL" in entry and "main.vl256" in entry, entry[:400])

# Code planned for 256 bits on 128-bit registers reports the length.
result, _ = run_case("elements", emulated("neoverse-v1", "max,sve-default-vector-length=16"),
                     "--vector-bits=256")
message = "@main: the code needs vector registers of at least 256 bits, this CPU's are 128 bits"
check("vector-bits=256 on 128-bit SVE: reports the length",
      result.returncode != 0 and message in result.stderr, result.stderr.strip()[-400:])
print(f"{failures} failure(s)")
sys.exit(1 if failures else 0)
