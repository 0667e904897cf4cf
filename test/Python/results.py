# Results come back without a copy: a result buffer that the compiled code
# allocated for itself (row-major contiguous, shared with no argument and no
# other result) becomes the numpy array's memory, writable, valid after the
# program is gone, and freed when the last view of it goes (a leak of 150
# results of 8 MB, 1.2 GB, would show in the peak memory; 400 MB allow for
# ASan's quarantine of freed memory, 256 MB, in the sanitized build).
# Results that share a buffer with an argument or with each other are
# copied, so that each array owns its memory. A function that inserts into its argument does not
# change the caller's array (the arguments are read-only to bufferization).
# A result of 4 MiB or more lies in memory marked for transparent huge pages
# (the JIT binds the compiled code's malloc to gather_runtime_malloc): the
# mapping that holds it has the "hg" flag in /proc/self/smaps.
# Run twice: through the C call (_gather_fastcall) where built, and through
# the ctypes path alone (GATHER_PYTHON_FASTCALL=0).
# RUN: env GATHER_CAPI_LIBRARY=%gather_lib/libGatherCAPI.so %python %s | FileCheck %s
# RUN: env GATHER_CAPI_LIBRARY=%gather_lib/libGatherCAPI.so GATHER_PYTHON_FASTCALL=0 %python %s | FileCheck %s
# CHECK: own buffer: equal True, writable True, after the program True
# CHECK: returned argument: equal True, input unchanged True
# CHECK: one value twice: equal True, independent True
# CHECK: inserted into an argument: equal True, input unchanged True
# CHECK: huge pages asked for: True
# CHECK: freed: peak grew by less than 400 MB True
# CHECK-NOT: False
import gc
import resource

import numpy as np

import gather
from gather import jit
from gather_testing.memory import has_transparent_huge_pages, vm_flags

rng = np.random.default_rng(5)
data = rng.standard_normal((64, 5)).astype(np.float32)
ids = rng.integers(-64, 64, 40)
want = np.take(data, ids, axis=0)

ONE = """
func.func @main(%d: tensor<64x5xf32>, %i: tensor<40xi64>) -> tensor<40x5xf32> {
  %e = tensor.empty() : tensor<40x5xf32>
  %0 = gather.block %d[%i] axis = 0 into %e : tensor<64x5xf32>, tensor<40xi64> into tensor<40x5xf32>
  return %0 : tensor<40x5xf32>
}
"""
program = jit.compile(ONE)
got = program(data, ids)
equal = np.array_equal(got, want)
writable = got.flags.writeable
got[0, 0] += 1  # the caller's memory now
del program
gc.collect()
got[0, 0] -= 1
print(f"own buffer: equal {equal}, writable {writable}, after the program "
      f"{np.array_equal(got, want)}")

PASS_THROUGH = """
func.func @main(%d: tensor<64x5xf32>, %i: tensor<40xi64>) -> (tensor<64x5xf32>, tensor<40x5xf32>) {
  %e = tensor.empty() : tensor<40x5xf32>
  %0 = gather.block %d[%i] axis = 0 into %e : tensor<64x5xf32>, tensor<40xi64> into tensor<40x5xf32>
  return %d, %0 : tensor<64x5xf32>, tensor<40x5xf32>
}
"""
same, gathered = jit.compile(PASS_THROUGH)(data, ids)
before = data.copy()
same[:] = 0
print(f"returned argument: equal {np.array_equal(gathered, want)}, input unchanged "
      f"{np.array_equal(data, before)}")

TWICE = """
func.func @main(%d: tensor<64x5xf32>, %i: tensor<40xi64>) -> (tensor<40x5xf32>, tensor<40x5xf32>) {
  %e = tensor.empty() : tensor<40x5xf32>
  %0 = gather.block %d[%i] axis = 0 into %e : tensor<64x5xf32>, tensor<40xi64> into tensor<40x5xf32>
  return %0, %0 : tensor<40x5xf32>, tensor<40x5xf32>
}
"""
first, second = jit.compile(TWICE)(data, ids)
equal = np.array_equal(first, want) and np.array_equal(second, want)
first[:] = 0
print(f"one value twice: equal {equal}, independent {np.array_equal(second, want)}")

INSERT = """
func.func @main(%a: tensor<7x4xf32>, %b: tensor<7x4xf32>) -> tensor<7x4xf32> {
  %s = tensor.extract_slice %a[0, 1] [7, 2] [1, 1] : tensor<7x4xf32> to tensor<7x2xf32>
  %r = tensor.insert_slice %s into %b[0, 2] [7, 2] [1, 1] : tensor<7x2xf32> into tensor<7x4xf32>
  return %r : tensor<7x4xf32>
}
"""
a = rng.standard_normal((7, 4)).astype(np.float32)
b = rng.standard_normal((7, 4)).astype(np.float32)
b_before = b.copy()
inserted = jit.compile(INSERT)(a, b)
want_inserted = b_before.copy()
want_inserted[:, 2:] = a[:, 1:3]
print(f"inserted into an argument: equal {np.array_equal(inserted, want_inserted)}, "
      f"input unchanged {np.array_equal(b, b_before)}")

# 150 results of 8 MB each, dropped one by one.
table = rng.standard_normal((4096, 1024)).astype(np.float32)
rows = rng.integers(0, 4096, 2048)
gather.block(table, rows, axis=0)


big = gather.block(table, rows, axis=0)
# (A kernel without transparent huge pages has nothing to ask for.)
thp = has_transparent_huge_pages()
print(f"huge pages asked for: {not thp or 'hg' in vm_flags(big.ctypes.data + big.nbytes // 2)}")
del big
peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
for _ in range(150):
    out = gather.block(table, rows, axis=0)
    del out
grown = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss - peak
print(f"freed: peak grew by less than 400 MB {grown < 400 * 1024}")
