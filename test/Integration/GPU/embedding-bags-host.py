# torch-mlir's embedding bags with offsets in the GPU pipeline's form, run
# on the host against numpy (no GPU needed): convert-linalg-to-gather with
# segment-sums-of-gathered-rows (the rows of all the indices gathered, then
# a loop nest over (bag, column) summing each bag's range), then
# --convert-gather-to-gpu --gather-fuse-device-consumers; the device's
# memset and copies of the error flag made host operations
# (gather_testing.hostrun), bufferized and run by mlir-runner. 40 random
# bags (offsets sorted or not, below 0 and past the indices, empty bags,
# no bags or no indices; f32 and i32 tables; static and dynamic sizes; the
# body's operands either way), each raised (one gather, no generic over the indices left) and
# equal to the generic's own loops (embedding_bag_reference: each bag adds
# its rows in the order of j); and 3 with an invalid index in a bag,
# reported with its value and position in all the indices.
# RUN: %python %s %gather_bin %mlir_runner %llvm_lib | FileCheck %s
# CHECK-NOT: FAIL
# CHECK: embedding bags in the GPU form on the host: 43 passed, 0 failed
import os
import subprocess
import sys

import numpy as np

from gather_testing import hostrun
from gather_testing.torch_mlir import (EMBEDDING_BAG_MAPS, embedding_bag_reference,
                                       random_embedding_bag)

bin_dir, runner, llvm_lib = sys.argv[1:4]
opt = os.path.join(bin_dir, "gather-opt")
runtime_lib = os.path.join(bin_dir, os.pardir, "lib", "libgather_runtime.so")
rng = np.random.default_rng(75)


def random_case(k, least=0):
    return random_embedding_bag(rng, f"bag{k}", least)


def module(texts, calls):
    """The bags `texts` and @main of the lines `calls` (hostrun.call_lines)."""
    return hostrun.module_text(texts, [line for lines, _ in calls for line in lines],
                               {printer for _, printer in calls}, prefix=EMBEDDING_BAG_MAPS)


def run(text):
    """The raised GPU form of `text` (and its run on the host)."""
    raised = subprocess.run([opt, "--convert-linalg-to-gather=segment-sums-of-gathered-rows"],
                            input=text, capture_output=True, text=True)
    staged = subprocess.run([opt, "--convert-gather-to-gpu", "--gather-fuse-device-consumers"],
                            input=raised.stdout, capture_output=True, text=True)
    if raised.returncode or staged.returncode:
        sys.exit(f"FAIL: the GPU form: {raised.stderr}{staged.stderr}")
    return raised.stdout, hostrun.lower_and_run(opt, runner, llvm_lib, runtime_lib,
                                                 hostrun.bufferize(opt, staged.stdout))


def main():
    passed = failed = 0
    cases = [random_case(k) for k in range(40)]
    calls = [hostrun.call_lines(k, text, args) for k, (text, args, _, _) in enumerate(cases)]
    raised, result = run(module([c[0] for c in cases], calls))
    # Each bag: one gather of all its indices, no loop over (bag, index, row).
    gathers, left = raised.count("= gather.block"), raised.count('"reduction"')
    if gathers != len(cases) or left:
        print(f"FAIL: {gathers} gathers for {len(cases)} bags, {left} reductions left")
        failed += 1
    if result.returncode:
        sys.exit(f"FAIL: mlir-runner: {result.stderr[:2000]}")
    printed = hostrun.printed_arrays(result.stdout)
    if len(printed) != len(cases):
        sys.exit(f"FAIL: {len(printed)} results printed, expected {len(cases)}")
    for k, ((_, args, swap_add, _), got) in enumerate(zip(cases, printed)):
        want = embedding_bag_reference(*args, swap_add)
        if np.array_equal(np.array(got, np.float64), want.astype(np.float64).ravel()):
            passed += 1
        elif want.dtype == np.float32 and np.allclose(got, want.ravel(), rtol=2e-5, atol=1e-5):
            passed += 1  # printed to 6 digits
        else:
            print(f"FAIL bag{k}: {len(args[2])} bags, offsets {args[2]} of {len(args[1])} "
                  f"indices: got {got[:8]}, want {want.ravel()[:8]}")
            failed += 1
    # An invalid index inside a bag: reported with its position.
    for k in range(40, 43):
        text, (table, indices, offsets), _, _ = random_case(k, least=1)
        offsets = np.sort(np.clip(offsets, 0, len(indices) - 1))
        offsets[0] = 0
        position = int(rng.integers(0, len(indices)))
        indices = indices.copy()
        indices[position] = table.shape[0] + 5
        _, result = run(module([text], [hostrun.call_lines(k, text, (table, indices, offsets))]))
        report = f"index {table.shape[0] + 5} at indices[{position}] is out of range"
        if result.returncode == 1 and report in result.stderr and "Unranked" not in result.stdout:
            passed += 1
        else:
            print(f"FAIL bag{k} with an invalid index: exit {result.returncode}, expected "
                  f"{report!r} in {result.stderr.strip()!r}")
            failed += 1
    print(f"embedding bags in the GPU form on the host: {passed} passed, {failed} failed")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
