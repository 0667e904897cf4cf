# A cf.assert of the program at a function's top level (torch-mlir's shape
# asserts) that fails is a GatherError: the call ends at the assert, its
# results never built, and the program and the process go on (the next
# call's results are right). One that fails inside a parallel loop still
# ends the process (asserts.py).
# RUN: %malloc_check env GATHER_CAPI_LIBRARY=%gather_lib/libGatherCAPI.so %python %s 2>&1 | FileCheck %s
# CHECK: same lengths: ok
# CHECK-NEXT: GatherError: cf.assert at <gather module>:10:3: assertion failed: mismatched size for broadcast{{$}}
# CHECK-NEXT: same lengths again: ok
# CHECK-NEXT: 100 failed calls, then: ok
import os

import numpy as np

import gather
from gather import jit

here = os.path.dirname(os.path.abspath(__file__))
with open(os.path.join(here, "..", "Integration", "Inputs", "shape-asserted.mlir")) as f:
    program = jit.compile(f.read(), entry="main")
table = np.arange(12, dtype=np.float32).reshape(4, 3)
a = np.array([1, 2, 0], np.int64)
b = np.array([1, 0, 0], np.int64)


def check(label):
    result = program(table, a, b)
    result = result[0] if isinstance(result, tuple) else result
    print(label + ":", "ok" if np.array_equal(result, table[a + b]) else result)


check("same lengths")
try:
    program(table, a, b[:2])
    print("no error")
except gather.GatherError as e:
    print("GatherError:", e)
check("same lengths again")
for _ in range(100):
    try:
        program(table, a, b[:1])
    except gather.GatherError:
        pass
check("100 failed calls, then")
