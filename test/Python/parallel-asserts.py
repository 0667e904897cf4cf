# A cf.assert of the program in a generic left unraised (torch-mlir's bound
# asserts), whose loop runs in parallel, that fails is a GatherError: the
# body skips what the assert guards, the loop ends, and the barrier after
# it ends the call (1000 / y[0] past the loop would trap were the call to
# go on after ids[0] failed). Failures on the calling thread's part of the
# loop and on another's; then the program's results are right again.
# RUN: %malloc_check env GATHER_CAPI_LIBRARY=%gather_lib/libGatherCAPI.so %python %s 2>&1 | FileCheck %s
# CHECK: valid: ok
# CHECK-NEXT: ids[0] = -1: GatherError: cf.assert at <gather module>:19:5: assertion failed: index must be larger or equal to 0{{$}}
# CHECK-NEXT: ids[524291] = -7: GatherError: cf.assert at <gather module>:19:5: assertion failed: index must be larger or equal to 0{{$}}
# CHECK-NEXT: ids[1048571] = 1000: GatherError: cf.assert at <gather module>:16:5: assertion failed: index must be smaller than dim size{{$}}
# CHECK-NEXT: valid again: ok
# CHECK-NEXT: one thread, ids[0] = -1: GatherError: cf.assert at <gather module>:19:5: assertion failed: index must be larger or equal to 0{{$}}
# CHECK-NEXT: one thread, valid: ok
import os

import numpy as np

import gather
from gather import jit

here = os.path.dirname(os.path.abspath(__file__))
with open(os.path.join(here, "..", "Integration", "Inputs", "parallel-asserted.mlir")) as f:
    text = f.read()
rng = np.random.default_rng(0)
table = rng.integers(1, 100, 1000, dtype=np.int64)
ids = rng.integers(0, 1000, 1 << 20, dtype=np.int64)  # 8 MiB: parallel


def want(ids):
    y = table[ids]
    return y + 1000 // y[0]


def run(program, label, ids):
    try:
        result = program(table, ids)
    except gather.GatherError as e:
        print(f"{label}: GatherError: {e}")
        return
    result = result[0] if isinstance(result, tuple) else result
    print(f"{label}:", "ok" if np.array_equal(result, want(ids)) else result)


program = jit.compile(text, entry="main", raise_linalg=False, threads=2)
run(program, "valid", ids)
for position, value in ((0, -1), (len(ids) // 2 + 3, -7), (len(ids) - 5, 1000)):
    bad = ids.copy()
    bad[position] = value
    run(program, f"ids[{position}] = {value}", bad)
run(program, "valid again", ids)
# One thread: a team of the calling thread alone (still a parallel region).
serial = jit.compile(text, entry="main", raise_linalg=False, threads=1)
bad = ids.copy()
bad[0] = -1
run(serial, "one thread, ids[0] = -1", bad)
run(serial, "one thread, valid", ids)
