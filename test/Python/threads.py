# `threads`: each program's OpenMP loops run on the threads it was created
# for, whatever other programs of the process asked for. libomp reads
# OMP_NUM_THREADS once, when it starts: a count passed that way was ignored
# for every program after the first call (two programs of 2 and 1 threads
# both ran on 2). Each function here returns what its OpenMP loops would
# start with (libomp's omp_get_max_threads, called inside the compiled
# function) next to a gather with a parallel loop, compared with numpy;
# the calling thread's own count must be the same after each call, and a
# thread of the caller's own gets the program's count too.
# RUN: env GATHER_CAPI_LIBRARY=%gather_lib/libGatherCAPI.so OMP_NUM_THREADS=4 %python %s | FileCheck %s
# RUN: env GATHER_CAPI_LIBRARY=%gather_lib/libGatherCAPI.so OMP_NUM_THREADS=4 GATHER_PYTHON_FASTCALL=0 %python %s | FileCheck %s
# CHECK: threads 2: loops start 2, gather equal True, caller keeps 4
# CHECK-NEXT: threads 1: loops start 1, gather equal True, caller keeps 4
# CHECK-NEXT: threads 3: loops start 3, gather equal True, caller keeps 4
# CHECK-NEXT: threads 0: loops start 4, gather equal True, caller keeps 4
# CHECK-NEXT: threads 2: loops start 2, gather equal True, caller keeps 4
# CHECK-NEXT: out=, threads 1: loops start 1, gather equal True, caller keeps 4
# CHECK-NEXT: another thread, threads 3: loops start 3, gather equal True
# CHECK-NOT: FAIL
import ctypes
import threading

import numpy as np

from gather import jit

# 256 rows of 768 f32 (768 KiB stored): a parallel loop on every target.
MODULE = """
func.func private @omp_get_max_threads() -> i32
func.func @main(%d: tensor<512x768xf32>, %i: tensor<256xi64>)
    -> (tensor<256x768xf32>, tensor<1xi32>) {
  %e = tensor.empty() : tensor<256x768xf32>
  %g = gather.block %d[%i] axis = 0 into %e : tensor<512x768xf32>, tensor<256xi64> into tensor<256x768xf32>
  %n = func.call @omp_get_max_threads() : () -> i32
  %t = tensor.from_elements %n : tensor<1xi32>
  return %g, %t : tensor<256x768xf32>, tensor<1xi32>
}
"""

rng = np.random.default_rng(3)
table = rng.standard_normal((512, 768)).astype(np.float32)
rows = rng.integers(0, 512, 256)
want = np.take(table, rows, axis=0)


def run_and_report(label, program, threads, out=None):
    if out is None:
        got, count = program(table, rows)
    else:
        got, count = program(table, rows, out=out)
    line = f"{label}threads {threads}: loops start {int(count[0])}, gather equal " \
           f"{np.array_equal(got, want)}"
    return line


# Compiled first: loads libomp into the process's global scope.
programs = {t: jit.compile(MODULE, threads=t) for t in (2, 1, 3, 0)}
omp = ctypes.CDLL(None)
caller = omp.omp_get_max_threads()
for t in (2, 1, 3, 0, 2):
    line = run_and_report("", programs[t], t)
    print(f"{line}, caller keeps {omp.omp_get_max_threads()}")

into = jit.compile(MODULE, threads=1, destination_entries=True)
outs = (np.full(want.shape, np.nan, np.float32), np.zeros(1, np.int32))
line = run_and_report("out=, ", into, 1, outs)
print(f"{line}, caller keeps {omp.omp_get_max_threads()}")
if caller != 4:
    print(f"FAIL: OMP_NUM_THREADS=4 but the caller starts {caller}")

lines = []
worker = threading.Thread(target=lambda: lines.append(
    run_and_report("another thread, ", programs[3], 3)))
worker.start()
worker.join()
print(lines[0])
