# A failed assert that cannot skip what it guards (one nested in an scf.if
# of a generic's body, one in the program's own scf.forall, the barrier of
# a generic in a function that a forall calls) is a GatherError, also where
# the loop around it would run in parallel: such loops run on the calling
# thread. Before, the first two ended the process from a worker thread and
# the third went on past its barrier and divided by zero (SIGFPE). The
# fourth is a program's scf.parallel with two reductions (the serial loops
# carry them). The programs are test/Pipelines/cpu-loop-leaving-asserts.mlir's.
# RUN: %malloc_check env GATHER_CAPI_LIBRARY=%gather_lib/libGatherCAPI.so %python %s 2>&1 | FileCheck %s
# CHECK:      nested_assert valid: ok
# CHECK-NEXT: nested_assert ids[0] = 1000: GatherError: cf.assert at <gather module>:{{[0-9]+}}:7: assertion failed: index must be smaller than dim size{{$}}
# CHECK-NEXT: nested_assert ids[786432] = 1000: GatherError: cf.assert at <gather module>:{{[0-9]+}}:7: assertion failed: index must be smaller than dim size{{$}}
# CHECK-NEXT: nested_assert valid again: ok
# CHECK-NEXT: forall_assert valid: ok
# CHECK-NEXT: forall_assert ids[0] = 1000: GatherError: cf.assert at <gather module>:{{[0-9]+}}:5: assertion failed: index out of range{{$}}
# CHECK-NEXT: forall_assert ids[786432] = 1000: GatherError: cf.assert at <gather module>:{{[0-9]+}}:5: assertion failed: index out of range{{$}}
# CHECK-NEXT: forall_assert valid again: ok
# CHECK-NEXT: calls_asserted valid: ok
# CHECK-NEXT: calls_asserted ids[0] = 1000: GatherError: cf.assert at <gather module>:{{[0-9]+}}:5: assertion failed: index out of range{{$}}
# CHECK-NEXT: calls_asserted ids[786432] = 1000: GatherError: cf.assert at <gather module>:{{[0-9]+}}:5: assertion failed: index out of range{{$}}
# CHECK-NEXT: calls_asserted valid again: ok
# CHECK-NEXT: reduction_assert valid: ok
# CHECK-NEXT: reduction_assert ids[0] = 1000: GatherError: cf.assert at <gather module>:{{[0-9]+}}:5: assertion failed: index out of range{{$}}
# CHECK-NEXT: reduction_assert ids[786432] = 1000: GatherError: cf.assert at <gather module>:{{[0-9]+}}:5: assertion failed: index out of range{{$}}
# CHECK-NEXT: reduction_assert valid again: ok
import os

import numpy as np

import gather
from gather import jit

here = os.path.dirname(os.path.abspath(__file__))
with open(os.path.join(here, "..", "Pipelines", "cpu-loop-leaving-asserts.mlir")) as f:
    programs = f.read().split("// -----")
rng = np.random.default_rng(0)
table = rng.integers(1, 100, 1000, dtype=np.int64)
ids = rng.integers(0, 1000, 1 << 20, dtype=np.int64)  # 8 MiB: parallel


def want(entry, ids):
    y = table[ids]
    if entry == "reduction_assert":
        return np.array([y.sum(), max(-1, y.max())])
    if entry != "calls_asserted":
        return y
    rows = y.reshape(-1, 64)
    return (rows + 1000 // rows[:, :1]).reshape(-1)


def run(program, entry, label, ids):
    try:
        result = program(table, ids)
    except gather.GatherError as e:
        print(f"{entry} {label}: GatherError: {e}")
        return
    result = result[0] if isinstance(result, tuple) else result
    print(f"{entry} {label}:", "ok" if np.array_equal(result, want(entry, ids)) else result)


for text, entry in zip(programs, ("nested_assert", "forall_assert", "calls_asserted", "reduction_assert")):
    program = jit.compile(text, entry=entry, raise_linalg=False, threads=2)
    run(program, entry, "valid", ids)
    # Row starts (calls_asserted then divides by the zero its body yields):
    # the calling thread's part and the other thread's, were it parallel.
    for position in (0, 3 * len(ids) // 4):
        bad = ids.copy()
        bad[position] = 1000
        run(program, entry, f"ids[{position}] = 1000", bad)
    run(program, entry, "valid again", ids)
