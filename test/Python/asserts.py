# A cf.assert of the program that fails inside a parallel loop, where the
# lowering cannot make it skip what it guards (here nested in an scf.if of
# a generic's body), ends the Python process: with the assert's message and
# location on stderr and status 1, after the calls before it returned their
# results. Code past a failed assert is not safe to run, and a parallel
# region cannot be left early. One in the body itself is a GatherError
# (parallel-asserts.py), as is one at a function's top level
# (shape-asserts.py).
# RUN: env GATHER_CAPI_LIBRARY=%gather_lib/libGatherCAPI.so not %python %s 2>&1 | FileCheck %s
# CHECK: in range: [9.0, 10.0, 11.0]
# CHECK-NEXT: error: cf.assert at <gather module>:20:7: assertion failed: index must be larger or equal to 0{{$}}
# CHECK-NOT: not reached
import os
import sys

import numpy as np

from gather import jit

here = os.path.dirname(os.path.abspath(__file__))
with open(os.path.join(here, "..", "Integration", "Inputs", "nested-assert.mlir")) as f:
    program = jit.compile(f.read(), entry="main", raise_linalg=False)
table = np.arange(12, dtype=np.float32).reshape(4, 3)
print("in range:", program(table, np.array([3], np.int64))[0].tolist(), flush=True)
program(table, np.array([1, -1], np.int64))
print("not reached")
sys.exit(0)
