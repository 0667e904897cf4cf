# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
"""gather.block from Python against np.take: both allocating their result,
and both writing into a given array (`out=`, which np.take also takes).

Rows of 768 f32 out of a 50000-row table for results of 4, 24 and 48 MiB;
the median of 15 calls each, alternating the contenders. The Python
functions compile the first result size's sizes, then the number of rows
dynamic for the other two (python/gather/jit.py); with `out=` the program
also has the entry that writes into the array
(gather-destination-entries). np.take with out= and
its default mode='raise' first gathers into a buffer of its own and then
copies it ("out is always buffered if mode='raise'"); mode='wrap' writes
directly but wraps every index (not numpy's indexing), so it is timed too.

    PYTHONPATH=python GATHER_CAPI_LIBRARY=build/lib/libGatherCAPI.so \\
        /usr/bin/python3 bench/python_api.py [label]

Every result is compared with np.take's before timing.
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
    want = np.take(table, ids, axis=0)
    out = np.empty_like(want)
    contenders = {
        "gather.block": lambda: gather.block(table, ids, axis=0),
        "np.take": lambda: np.take(table, ids, axis=0),
        "gather.block out=": lambda: gather.block(table, ids, axis=0, out=out),
        "np.take out=": lambda: np.take(table, ids, axis=0, out=out),
        "np.take out= mode=wrap": lambda: np.take(table, ids, axis=0, out=out, mode="wrap"),
    }
    for name, run in contenders.items():
        out.fill(np.nan)
        if not np.array_equal(run(), want):
            sys.exit(f"{label}: {name} differs from np.take for {rows} rows")
    times = {name: [] for name in contenders}
    for _ in range(15):
        for name, run in contenders.items():
            start = time.perf_counter()
            result = run()
            times[name].append(time.perf_counter() - start)
            del result
    print(f"{label} {rows * 768 * 4 / 2**20:.0f} MiB: " +
          ", ".join(f"{name} {1e3 * np.median(t):.2f} ms" for name, t in times.items()))
