# A program's own scf.parallel loops with reductions, compiled for two
# threads (test/Pipelines/cpu-loop-reductions.mlir's programs: OpenMP
# reductions for an i64 sum and maximum and an unsigned i32 minimum, serial
# loops for a float maximum with a sum and for a count in index values),
# run on 4 Mi elements against numpy. Before, none of them compiled
# ("unconverted operation found", or an invalid LLVM type for index).
# RUN: env GATHER_CAPI_LIBRARY=%gather_lib/libGatherCAPI.so %python %s 2>&1 | FileCheck %s
# CHECK:      sum_and_max: ok
# CHECK-NEXT: sum_and_max, negative values: ok
# CHECK-NEXT: unsigned_min: ok
# CHECK-NEXT: unsigned_min, with zero: ok
# CHECK-NEXT: float_max_and_sum: ok
# CHECK-NEXT: float_max_and_sum, with NaN: ok
# CHECK-NEXT: count_positive: ok
# CHECK-NEXT: count_positive, empty: ok
import os

import numpy as np

from gather import jit

here = os.path.dirname(os.path.abspath(__file__))
with open(os.path.join(here, "..", "Pipelines", "cpu-loop-reductions.mlir")) as f:
    texts = f.read().split("// -----")
entries = ("sum_and_max", "unsigned_min", "float_max_and_sum", "count_positive")
programs = {e: jit.compile(t, entry=e, raise_linalg=False, threads=2) for t, e in zip(texts, entries)}
rng = np.random.default_rng(3)
n = 1 << 22


def check(label, got, want):
    got = np.asarray(got[0] if isinstance(got, tuple) else got)
    same = np.array_equal(got, want, equal_nan=got.dtype.kind == "f")
    print(f"{label}:", "ok" if same else f"{got} != {want}")


table = rng.integers(0, 1 << 40, 4096, dtype=np.int64)
ids = rng.integers(0, 4096, n, dtype=np.int64)
check("sum_and_max", programs["sum_and_max"](table, ids), np.array([table[ids].sum(), table[ids].max()]))
table = -table
check("sum_and_max, negative values", programs["sum_and_max"](table, ids),
      np.array([table[ids].sum(), table[ids].max()]))

x = rng.integers(1, 1 << 32, n, dtype=np.uint64).astype(np.uint32)
check("unsigned_min", programs["unsigned_min"](x.view(np.int32)).view(np.uint32), np.array([x.min()]))
x[n - 5] = 0
check("unsigned_min, with zero", programs["unsigned_min"](x.view(np.int32)).view(np.uint32), np.array([x.min()]))

# Small integers: every order of the float sum is exact.
f = rng.integers(-8, 9, n).astype(np.float32)
check("float_max_and_sum", programs["float_max_and_sum"](f), np.array([f.max(), f.sum(dtype=np.float64)], np.float32))
f[n // 3] = np.nan
check("float_max_and_sum, with NaN", programs["float_max_and_sum"](f), np.array([np.nan, np.nan], np.float32))

f = rng.standard_normal(n).astype(np.float32)
check("count_positive", programs["count_positive"](f), np.array([(f > 0).sum()]))
check("count_positive, empty", programs["count_positive"](f[:0]), np.array([0]))
