"""The cost of gather-serial-leaving-loops on a valid call: a program of
test/Pipelines/cpu-loop-leaving-asserts.mlir (one split of it, the file
and the entry given) on 4M int64 indices, 2 threads, the median of 41
calls. Run it with the C API library of the build to measure
(GATHER_CAPI_LIBRARY) against one from before the pass.

  csplit -z -f /tmp/prog test/Pipelines/cpu-loop-leaving-asserts.mlir \
      '/^\/\/ -----/' '{*}'
  /usr/bin/python3 bench/leaving_loops_cost.py /tmp/prog00 nested_assert
"""
import sys, time
import numpy as np
from gather import jit
text = open(sys.argv[1]).read()
rng = np.random.default_rng(0)
table = rng.integers(1, 100, 1000, dtype=np.int64)
ids = rng.integers(0, 1000, 1 << 22, dtype=np.int64)
p = jit.compile(text, entry=sys.argv[2], raise_linalg=False, threads=2)
for _ in range(5): p(table, ids)
ts = []
for _ in range(41):
    t = time.perf_counter(); p(table, ids); ts.append(time.perf_counter() - t)
print(f"{sys.argv[2]} median {np.median(ts)*1e3:.2f} ms")
