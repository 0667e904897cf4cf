# A loop whose generic does not read its iteration argument compiles and
# runs (bufferization lets the loop yield a new buffer): the result is
# rows * (n - 1) after n > 0 iterations, zeros after none. Under glibc's
# heap checks: each iteration's buffer is freed once.
# RUN: %malloc_check env GATHER_CAPI_LIBRARY=%gather_lib/libGatherCAPI.so %python %s 2>&1 | FileCheck %s
# CHECK: n=0: ok
# CHECK-NEXT: n=1: ok
# CHECK-NEXT: n=5: ok
# CHECK-NEXT: n=40: ok
import os

import numpy as np

from gather import jit

here = os.path.dirname(os.path.abspath(__file__))
with open(os.path.join(here, "..", "Integration", "Inputs", "loop-fresh-output.mlir")) as f:
    program = jit.compile(f.read(), entry="main")
rng = np.random.default_rng(0)
table = rng.standard_normal((300, 70)).astype(np.float32)
ids = rng.integers(-300, 300, 500, dtype=np.int64)
rows = table[ids]
for n in (0, 1, 5, 40):
    result = program(table, ids, np.array(n, np.int64))
    result = result[0] if isinstance(result, tuple) else result
    want = rows * np.float32(n - 1) if n > 0 else np.zeros_like(rows)
    print(f"n={n}:", "ok" if np.array_equal(result, want) else "differs")
