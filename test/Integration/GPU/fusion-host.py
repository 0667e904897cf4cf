# The GPU lowering's loops and their fused consumers, run on the host
# against numpy (no GPU needed): random cases of the four ops from the
# differential-test generator, each followed by a consumer (elementwise:
# double, convert, compare, a bias along the last dimension; or a sum or
# maximum over one dimension), every policy, negative and out-of-range
# indices, static and dynamic sizes, i1..i64 and f16..f64 data, through
# --convert-gather-to-gpu --gather-fuse-device-consumers. The device's
# memset and copies of the error flag become host operations
# (gather_testing.hostrun), so the fused loops and the flag's path run as
# on the device, in one thread; mlir-runner prints each result, compared
# with numpy's (integers exactly, floats to the printed precision). A case
# with an invalid index under `error` runs alone and must exit with the
# report of an invalid value at its position (difftest's check). i1 data
# is made of bytes, i1 and i8 results are printed as i32; empty shapes
# included.
# RUN: %python %s %gather_bin %mlir_runner %llvm_lib | FileCheck %s
# CHECK-NOT: FAIL
# CHECK: gpu fusion on the host: {{[1-9][0-9]*}} cases run ({{[1-9][0-9]*}} with an invalid index), 0 failed
import os
import subprocess
import sys

import numpy as np

from gather_testing import difftest, hostrun

bin_dir, runner, llvm_lib = sys.argv[1:4]
opt = os.path.join(bin_dir, "gather-opt")
runtime_lib = os.path.join(bin_dir, os.pardir, "lib", "libgather_runtime.so")
CASES = 100  # per op


def run(text):
    """mlir-runner's run of `text` through the GPU lowering and fusion on
    the host."""
    staged = subprocess.run([opt, "--gather-canonicalize", "--convert-gather-to-gpu",
                             "--gather-fuse-device-consumers"], input=text,
                            capture_output=True, text=True)
    if staged.returncode:
        raise RuntimeError(f"the GPU lowering: {staged.stderr}")
    return hostrun.lower_and_run(opt, runner, llvm_lib, runtime_lib,
                                 hostrun.bufferize(opt, staged.stdout))


def matches(printed, want):
    want = np.asarray(want)
    if want.dtype.kind == "f":
        got = np.array([float(v) for v in printed], np.float64)
        return got.size == want.size and np.allclose(
            got, want.astype(np.float64).ravel(), rtol=2e-5, atol=1e-30, equal_nan=True)
    got = np.array([int(float(v)) if "e" in v or "." in v else int(v) for v in printed])
    return got.size == want.size and np.array_equal(got, want.astype(np.int64).ravel())


def main():
    rng = np.random.default_rng(75)
    failed = ran = invalid = 0
    for op in ("block", "elements", "nd", "multiaxis"):
        functions, lines, printers, wants, names = [], [], set(), [], []
        for k in range(CASES):
            case = difftest.make_case(op, rng, consumers=1.0)
            want = difftest.reference_or_error(case.expected)
            shape = difftest.output_shape(case, None if isinstance(want, Exception) else want)
            function = difftest.function_text(case, f"c{k}", shape)
            call, printer = hostrun.call_lines(k, function, case.arguments())
            if isinstance(want, Exception):
                # Alone: the report ends the run.
                result = run(hostrun.module_text([function], call, {printer}))
                problem = difftest.expect_error_text(case, result.stderr)
                if result.returncode != 1 or problem or "Unranked" in result.stdout:
                    print(f"FAIL {op} {k}: {case.describe()}: exit {result.returncode}, "
                          f"{problem or 'a result printed'}")
                    failed += 1
                invalid += 1
                ran += 1
                continue
            functions.append(function)
            lines += call
            printers.add(printer)
            wants.append(want)
            names.append(f"{op} {k}: {case.describe()}")
        result = run(hostrun.module_text(functions, lines, printers))
        if result.returncode:
            print(f"FAIL {op}: mlir-runner: {result.stderr.strip()[:2000]}")
            failed += len(wants)
            continue
        printed = hostrun.printed_values(result.stdout)
        if len(printed) != len(wants):
            print(f"FAIL {op}: {len(printed)} results printed, expected {len(wants)}")
            failed += len(wants)
            continue
        for values, want, name in zip(printed, wants, names):
            if not matches(values, want):
                print(f"FAIL {name}: got {values[:16]}, want {np.asarray(want).ravel()[:16]}")
                failed += 1
            ran += 1
    print(f"gpu fusion on the host: {ran} cases run ({invalid} with an invalid index), "
          f"{failed} failed")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
