# The host side of an index error on the GPU, run without a GPU: against the
# stand-in driver (test/Runtime/Inputs/fake-cuda-driver.c, host memory,
# kernels launch without running) with every 32-bit memset writing 1, so
# that each device error flag reads raised as if a kernel had found an
# invalid index. The host then copies the indices back from device memory
# and scans them for the report, which must be the CPU's text word for word
# (value, position in the indices as written, dimension, size, valid range)
# for random cases of every op with an invalid index, through the C API and
# through gather-run. With every index valid, a raised flag still fails the
# call, with the unspecific text (the scan finds nothing to name). Shape
# errors found at run time (checked on the host before any kernel) give the
# CPU's text with the operand, dimension and both sizes. The
# kernels that raise the flag are run by Integration/GPU/execution.test on a
# machine with a GPU.
# RUN: env LD_LIBRARY_PATH=%gather_obj_root/test/Runtime/fake-cuda FAKE_CUDA_MEMSET_D32=1 %python %s %gather_bin | FileCheck %s
# CHECK-NOT: FAIL
# CHECK: gpu error reports (host side): 40 precise, 4 unspecific, 4 shape errors, 2 through gather-run, 0 failed
import os
import shutil
import subprocess
import sys
import tempfile

import numpy as np

from gather import jit
from gather import reference as ref
from gather_testing.difftest import (expect_error_text, function_text, make_case, output_shape)

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


precise, unspecific, shape_errors, through_run, failed = 0, 0, 0, 0, 0
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
        problem = expect_error_text(case, got or "")
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

# One function per run-time shape error kind: its arguments and the phrase
# its message holds.
SHAPE_ERRORS = {
    "broadcast": ("""
func.func @broadcast(%d: tensor<?x?xf32>, %i: tensor<?x?xi64>) -> tensor<?x?xf32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %n0 = tensor.dim %i, %c0 : tensor<?x?xi64>
  %n1 = tensor.dim %d, %c1 : tensor<?x?xf32>
  %init = tensor.empty(%n0, %n1) : tensor<?x?xf32>
  %0 = gather.multiaxis %d[%i] axes = [0] into %init : tensor<?x?xf32>, tensor<?x?xi64> into tensor<?x?xf32>
  return %0 : tensor<?x?xf32>
}""", np.zeros((4, 3), np.float32), np.zeros((2, 2), np.int64),
        "data dimension 1 (size 3) is not broadcast-compatible with its indices dimension (size 2)"),
    "elements_tall": ("""
func.func @elements_tall(%d: tensor<?x?xf32>, %i: tensor<?x?xi64>) -> tensor<?x?xf32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %rows = tensor.dim %i, %c0 : tensor<?x?xi64>
  %cols = tensor.dim %i, %c1 : tensor<?x?xi64>
  %init = tensor.empty(%rows, %cols) : tensor<?x?xf32>
  %0 = gather.elements %d[%i] axis = 1 into %init : tensor<?x?xf32>, tensor<?x?xi64> into tensor<?x?xf32>
  return %0 : tensor<?x?xf32>
}""", np.zeros((2, 3), np.float32), np.zeros((3, 2), np.int64),
        "indices dimension 0 (size 3) is larger than data dimension 0 (size 2)"),
    "init_size": ("""
func.func @init_size(%d: tensor<?x3xf32>, %i: tensor<?xi64>) -> tensor<?x3xf32> {
  %c0 = arith.constant 0 : index
  %n = tensor.dim %d, %c0 : tensor<?x3xf32>
  %init = tensor.empty(%n) : tensor<?x3xf32>
  %0 = gather.block %d[%i] axis = 0 into %init : tensor<?x3xf32>, tensor<?xi64> into tensor<?x3xf32>
  return %0 : tensor<?x3xf32>
}""", np.zeros((4, 3), np.float32), np.zeros(2, np.int64),
        "init dimension 0 has size 4 but the output's is 2"),
    "coordinates": ("""
func.func @coordinates(%d: tensor<4x5xf32>, %i: tensor<3x?xi64>) -> tensor<3x?xf32> {
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %k = tensor.dim %i, %c1 : tensor<3x?xi64>
  %n = arith.divui %k, %c2 : index
  %init = tensor.empty(%n) : tensor<3x?xf32>
  %0 = gather.multiaxis %d[%i] axes = [0, 1] into %init : tensor<4x5xf32>, tensor<3x?xi64> into tensor<3x?xf32>
  return %0 : tensor<3x?xf32>
}""", np.zeros((4, 5), np.float32), np.zeros((3, 3), np.int64),
        "indices dimension 1 (size 3) is not a multiple of the coordinate size 2"),
}
shape_module = "\n".join(text for text, _, _, _ in SHAPE_ERRORS.values())
programs = {device: jit.compile(shape_module, entry="broadcast", device=device)
            for device in ("gpu", "cpu")}
for name, (_, data, indices, phrase) in SHAPE_ERRORS.items():
    texts_by_device = {}
    for device, program in programs.items():
        program.select(name)
        try:
            program(data, indices)
            texts_by_device[device] = None
        except jit.GatherError as e:
            texts_by_device[device] = str(e)
    got = texts_by_device["gpu"]
    if got is None or phrase not in got or got != texts_by_device["cpu"]:
        print(f"FAIL {name}: gpu {got!r}, cpu {texts_by_device['cpu']!r}, want {phrase!r}")
        failed += 1
    else:
        shape_errors += 1

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
        problem = expect_error_text(case, r.stderr)
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
      f"{shape_errors} shape errors, {through_run} through gather-run, {failed} failed")
