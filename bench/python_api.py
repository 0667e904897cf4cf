"""gather.block from Python against np.take, both allocating their result.

Rows of 768 f32 out of a 50000-row table for results of 4, 24 and 48 MiB;
the median of 15 calls each, alternating the two. The Python functions
compile one program with dynamic sizes for every shape (python/gather/jit.py).

    PYTHONPATH=python GATHER_CAPI_LIBRARY=build/lib/libGatherCAPI.so \\
        /usr/bin/python3 bench/python_api.py [label]

Both results are compared with each other before timing.
"""
import sys
import time

import numpy as np

import gather

label = sys.argv[1] if len(sys.argv) > 1 else "gather"
rng = np.random.default_rng(0)
table = rng.standard_normal((50000, 768)).astype(np.float32)
for rows in (1365, 8192, 16384):
    ids = rng.integers(-50000, 50000, size=rows)
    if not np.array_equal(gather.block(table, ids, axis=0), np.take(table, ids, axis=0)):
        sys.exit(f"{label}: gather.block differs from np.take for {rows} rows")
    ours, numpy = [], []
    for _ in range(15):
        start = time.perf_counter()
        result = gather.block(table, ids, axis=0)
        ours.append(time.perf_counter() - start)
        del result
        start = time.perf_counter()
        result = np.take(table, ids, axis=0)
        numpy.append(time.perf_counter() - start)
        del result
    print(f"{label} {rows * 768 * 4 / 2**20:.0f} MiB: gather.block {1e3 * np.median(ours):.2f} ms, "
          f"np.take {1e3 * np.median(numpy):.2f} ms")
