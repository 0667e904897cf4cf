# The host side of an index error on the GPU, run without a GPU: against the
# stand-in driver (test/Runtime/Inputs/fake-cuda-driver.c, host memory,
# kernels launch without running) with every 32-bit memset writing 1, so
# that each device error flag reads raised as if a kernel had found an
# invalid index. The host then copies the indices back from device memory
# and scans them for the report, which must be the CPU's text word for word
# (value, position in the indices as written, dimension, size, valid range)
# for random cases of every op with an invalid index, through the C API and
# through gather-run. With every index valid, a raised flag still fails the
# call, with the unspecific text (the scan finds nothing to name). The
# kernels that raise the flag are run by Integration/GPU/execution.test on a
# machine with a GPU.
# RUN: env LD_LIBRARY_PATH=%gather_obj_root/test/Runtime/fake-cuda FAKE_CUDA_MEMSET_D32=1 %python %s %gather_bin | FileCheck %s
# CHECK-NOT: FAIL
# CHECK: gpu error reports (host side): 40 precise, 4 unspecific, 2 through gather-run, 0 failed
import os
import shutil
import subprocess
import sys
import tempfile

import numpy as np

from gather import jit
from gather import reference as ref
from gather.difftest import (expect_error_text, function_text, make_case, output_shape)

bin_dir = sys.argv[1]
rng = np.random.default_rng(31)
OPS = ["multiaxis", "block", "elements", "nd"]


def draw(op, invalid):
    """A random case of `op` under `error` with (or without) an invalid index."""
    while True:
        case = make_case(op, rng)
        if case.oob != "error":
            continue
        try:
            want = case.expected()
        except ref.GatherIndexError:
            if invalid:
                return case, None
            continue
        if not invalid and case.indices.size and want.size and (
                op != "multiaxis" or case.attrs["axes"]):
            return case, want


def error_text(program, name, case):
    program.select(name)
    try:
        program(case.data, case.indices)
    except jit.GatherError as e:
        return str(e)
    return None


precise, unspecific, through_run, failed = 0, 0, 0, 0
cases = []
for op in OPS:
    cases += [(f"bad_{op}_{n}", *draw(op, True)) for n in range(10)]
    cases += [(f"valid_{op}_{n}", *draw(op, False)) for n in range(1)]
texts = {name: function_text(case, name, output_shape(case, want)) for name, case, want in cases}
module = "\n".join(texts.values())
gpu = jit.compile(module, entry=cases[0][0], device="gpu")
cpu = jit.compile(module, entry=cases[0][0], device="cpu")
for name, case, want in cases:
    got = error_text(gpu, name, case)
    if want is None:
        on_cpu = error_text(cpu, name, case)
        problem = expect_error_text(case, got or "", texts[name], check_details=True)
        if problem or got != on_cpu:
            print(f"FAIL {name}: {case.describe()}\n  gpu {got!r}\n  cpu {on_cpu!r}\n  {problem}")
            failed += 1
        else:
            precise += 1
    elif got is None or "index out of bounds" not in got or "at indices" in got:
        print(f"FAIL {name}: {case.describe()}: expected the unspecific error, got {got!r}")
        failed += 1
    else:
        unspecific += 1

# gather-run prints one line, the same on both devices.
work = tempfile.mkdtemp()
try:
    for op in ("block", "nd"):
        name, case, _ = next(c for c in cases if c[0] == f"bad_{op}_0")
        path = os.path.join(work, f"{op}.mlir")
        with open(path, "w") as f:
            f.write(texts[name].replace(f"@{name}(", "@main(", 1))
        np.save(os.path.join(work, "d.npy"), case.data)
        np.save(os.path.join(work, "i.npy"), case.indices)
        out = os.path.join(work, "o.npy")
        runs = {}
        for device in ("gpu", "cpu"):
            runs[device] = subprocess.run(
                [os.path.join(bin_dir, "gather-run"), path, "--device", device, "--input",
                 os.path.join(work, "d.npy"), "--input", os.path.join(work, "i.npy"),
                 "--output", out], capture_output=True, text=True)
        r = runs["gpu"]
        lines = r.stderr.strip().splitlines()
        problem = expect_error_text(case, r.stderr, texts[name], check_details=True)
        if (r.returncode != 1 or len(lines) != 1 or problem or os.path.exists(out)
                or r.stderr != runs["cpu"].stderr):
            print(f"FAIL gather-run {op}: rc={r.returncode} {r.stderr.strip()!r}, "
                  f"cpu {runs['cpu'].stderr.strip()!r} {problem}")
            failed += 1
        else:
            through_run += 1
finally:
    shutil.rmtree(work)
print(f"gpu error reports (host side): {precise} precise, {unspecific} unspecific, "
      f"{through_run} through gather-run, {failed} failed")
