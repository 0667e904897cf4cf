# A call that a failed cf.assert ends frees what it had allocated: the
# output of the gather before the assert (4 MiB a call here) is not leaked.
# The compiled code's malloc and free are the runtime's, which list the
# blocks of a call with a return point until they are freed or returned. A
# block the call freed before the assert (the bad index's report) is not
# freed again (glibc's checks would abort).
# RUN: %malloc_check env GATHER_CAPI_LIBRARY=%gather_lib/libGatherCAPI.so %python %s 2>&1 | FileCheck %s
# CHECK: first call: ok
# CHECK-NEXT: GatherError: cf.assert at <gather module>:22:3: assertion failed: mismatched size for broadcast{{$}}
# CHECK-NEXT: 50 failed calls, then: ok
# CHECK-NEXT: heap growth under one call's output: yes
# CHECK-NEXT: GatherError: gather.block at <gather module>:20:11: index 1000 at indices[7] is out of range [-1000, 999] for dimension 0 (size 1000){{$}}
# CHECK-NEXT: a bad index, then the assert, then: ok
import ctypes
import os

import numpy as np

import gather
from gather import jit


class MallInfo2(ctypes.Structure):
    _fields_ = [(name, ctypes.c_size_t) for name in (
        "arena", "ordblks", "smblks", "hblks", "hblkhd", "usmblks",
        "fsmblks", "uordblks", "fordblks", "keepcost")]


libc = ctypes.CDLL(None)
libc.mallinfo2.restype = MallInfo2


def heap_in_use():
    info = libc.mallinfo2()
    return info.uordblks + info.hblkhd  # the heap's and mmap's blocks


here = os.path.dirname(os.path.abspath(__file__))
with open(os.path.join(here, "..", "Integration", "Inputs", "assert-after-alloc.mlir")) as f:
    program = jit.compile(f.read(), entry="main")
rng = np.random.default_rng(0)
table = rng.standard_normal((1000, 16)).astype(np.float32)
rows = 1 << 16
output_bytes = rows * 16 * 4
a = rng.integers(0, 1000, rows, dtype=np.int64)
b = rng.integers(0, rows, rows, dtype=np.int64)


def check(label):
    result = program(table, a, b)
    result = result[0] if isinstance(result, tuple) else result
    print(label + ":", "ok" if np.array_equal(result, table[a][b]) else result)


check("first call")
try:
    program(table, a, b[:5])
    print("no error")
except gather.GatherError as e:
    print("GatherError:", e)
before = heap_in_use()
for _ in range(50):
    try:
        program(table, a, b[:5])
    except gather.GatherError:
        pass
growth = heap_in_use() - before
check("50 failed calls, then")
print("heap growth under one call's output:",
      "yes" if growth < output_bytes else f"no: {growth} bytes")
bad = a.copy()
bad[7] = 1000
try:
    program(table, bad, b[:5])
    print("no error")
except gather.GatherError as e:
    print("GatherError:", e)
check("a bad index, then the assert, then")
