# A cf.assert of the program that cannot skip what it guards (here nested
# in an scf.if of a generic's body, whose loop would otherwise run in
# parallel) is a GatherError like the others: gather-serial-leaving-loops
# keeps its loop on the calling thread, from which the failed assert
# returns to the call's return point. Before, it ended the Python process
# from inside the parallel region. One in the body itself skips what it
# guards (parallel-asserts.py); one at a function's top level leaves
# directly (shape-asserts.py).
# RUN: env GATHER_CAPI_LIBRARY=%gather_lib/libGatherCAPI.so %python %s 2>&1 | FileCheck %s
# CHECK: in range: [9.0, 10.0, 11.0]
# CHECK-NEXT: GatherError: cf.assert at <gather module>:20:7: assertion failed: index must be larger or equal to 0{{$}}
# CHECK-NEXT: in range again: [3.0, 4.0, 5.0, 9.0, 10.0, 11.0]
import os

import numpy as np

import gather
from gather import jit

here = os.path.dirname(os.path.abspath(__file__))
with open(os.path.join(here, "..", "Integration", "Inputs", "nested-assert.mlir")) as f:
    program = jit.compile(f.read(), entry="main", raise_linalg=False, threads=2)
table = np.arange(12, dtype=np.float32).reshape(4, 3)
print("in range:", program(table, np.array([3], np.int64))[0].tolist(), flush=True)
try:
    program(table, np.array([1, -1], np.int64))
    print("no error")
except gather.GatherError as e:
    print(f"GatherError: {e}")
print("in range again:", program(table, np.array([1, 3], np.int64)).reshape(-1).tolist())
