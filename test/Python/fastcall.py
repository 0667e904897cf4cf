# The C call of python/gather/jit.py (_gather_fastcall, built from
# lib/Bindings/Python): a program's calls on numpy arrays of its signature
# go through one C function, with no ctypes work (asserted: the plain path's
# argument conversion raises if it runs). Its results equal numpy's and
# the plain path's, own their memory after the program is gone, and take
# the dtype asked for; its errors are the plain path's. What it does not
# take (lists, strided or byte-swapped arrays, subclasses, wrong dtypes,
# ranks or sizes) goes the plain way, with the plain path's conversions and
# messages. Calls from several threads at once on one program give each its
# own result.
# REQUIRES: python-fastcall
# RUN: env GATHER_CAPI_LIBRARY=%gather_lib/libGatherCAPI.so %python %s | FileCheck %s
# RUN: env GATHER_CAPI_LIBRARY=%gather_lib/libGatherCAPI.so GATHER_PYTHON_FASTCALL=0 %python %s off | FileCheck %s --check-prefix=OFF
# CHECK: fast call: True
# CHECK: static f32: equal True, writeable True, after the program True
# CHECK: dynamic: f32 True, f16 True, i1 True, i8 True, u8 True, i32 indices True
# CHECK: result dtype asked for: uint8 True, int8 True
# CHECK: empty result: (0, 7) True
# CHECK: two results: equal True True, own memory True
# CHECK: out=: equal True, returns out True, tuple True True
# CHECK: error: gather.block at <gather module>:4:8: index 9 at indices[1] is out of range [-4, 3] for dimension 0 (size 4)
# CHECK: out error: output 0: dimension 0 is 3 but the result's is 40
# CHECK: plain way: list True, strided True, byte-swapped error True, subclass True, out strided error True
# CHECK: messages as the plain path's: True
# CHECK: threads: 4x25 calls equal True
# CHECK-NOT: False
# OFF: fast call: False
import gc
import sys
import threading

import numpy as np

import gather
from gather import jit

fast = jit.uses_fastcall()
print(f"fast call: {fast}")
if len(sys.argv) > 1:
    sys.exit(0)


class PlainPathTaken(AssertionError):
    pass


def plain_inputs(self, arrays, selected):
    raise PlainPathTaken("the plain path ran")


plain = jit.Program._inputs
jit.Program._inputs = plain_inputs  # (put back for the fallback cases)

rng = np.random.default_rng(11)
data = rng.standard_normal((64, 5)).astype(np.float32)
ids = rng.integers(-64, 64, 40)
STATIC = """
func.func @main(%d: tensor<64x5xf32>, %i: tensor<40xi64>) -> tensor<40x5xf32> {
  %e = tensor.empty() : tensor<40x5xf32>
  %0 = gather.block %d[%i] axis = 0 into %e : tensor<64x5xf32>, tensor<40xi64> into tensor<40x5xf32>
  return %0 : tensor<40x5xf32>
}
"""
program = jit.compile(STATIC)
got = program(data, ids)
want = np.take(data, ids, axis=0)
equal, writeable = np.array_equal(got, want), got.flags.writeable
del program
gc.collect()
# (A new program's compilation reuses freed memory.)
again = jit.compile(STATIC)(data, ids)
got[0, 0] = 7.0
print(f"static f32: equal {equal}, writeable {writeable}, after the program "
      f"{np.array_equal(got[1:], want[1:]) and got[0, 0] == 7.0 and again[0, 0] == want[0, 0]}")

# The op functions compile dynamic sizes: one program per dtype and rank.
table = rng.standard_normal((30, 7))
idx = rng.integers(-30, 30, (4, 6))
cases = {}
for name, array in (("f32", table.astype(np.float32)), ("f16", table.astype(np.float16)),
                    ("i1", table > 0), ("i8", (table * 20).astype(np.int8)),
                    ("u8", (table * 20 + 100).astype(np.uint8))):
    cases[name] = np.array_equal(gather.block(array, idx, axis=0),
                                 np.take(array, idx, axis=0))
along = rng.integers(0, 30, (4, 7))
cases["i32 indices"] = np.array_equal(gather.elements(table, along.astype(np.int32), axis=0),
                                      np.take_along_axis(table, along, axis=0))
print("dynamic: " + ", ".join(f"{k} {v}" for k, v in cases.items()))

# uint8 and int8 data share one compiled program (i8): the dtype asked for
# is the result's.
u8 = (table * 20 + 100).astype(np.uint8)
a, b = gather.block(u8, idx, axis=0), gather.block(u8.view(np.int8), idx, axis=0)
print(f"result dtype asked for: {a.dtype} {np.array_equal(a, np.take(u8, idx, axis=0))}, "
      f"{b.dtype} {np.array_equal(b, np.take(u8.view(np.int8), idx, axis=0))}")

empty = gather.block(table, np.zeros((0,), np.int64), axis=0)
print(f"empty result: {empty.shape} {empty.dtype == table.dtype}")

PASS_THROUGH = """
func.func @main(%d: tensor<64x5xf32>, %i: tensor<40xi64>) -> (tensor<64x5xf32>, tensor<40x5xf32>) {
  %e = tensor.empty() : tensor<40x5xf32>
  %0 = gather.block %d[%i] axis = 0 into %e : tensor<64x5xf32>, tensor<40xi64> into tensor<40x5xf32>
  return %d, %0 : tensor<64x5xf32>, tensor<40x5xf32>
}
"""
same, gathered = jit.compile(PASS_THROUGH)(data, ids)
print(f"two results: equal {np.array_equal(same, data)} {np.array_equal(gathered, want)}, "
      f"own memory {not np.shares_memory(same, data)}")

program = jit.compile(STATIC, destination_entries=True)
out = np.full((40, 5), np.nan, np.float32)
returned = program(data, ids, out=out)
two = jit.compile(PASS_THROUGH, destination_entries=True)
outs = (np.zeros_like(data), np.zeros((40, 5), np.float32))
two(data, ids, out=outs)
print(f"out=: equal {np.array_equal(out, want)}, returns out {returned is out}, tuple "
      f"{np.array_equal(outs[0], data)} {np.array_equal(outs[1], want)}")

ERROR = """
func.func @main(%d: tensor<4x3xf32>, %i: tensor<2xi64>) -> tensor<2x3xf32> {
  %e = tensor.empty() : tensor<2x3xf32>
  %0 = gather.block %d[%i] axis = 0 into %e : tensor<4x3xf32>, tensor<2xi64> into tensor<2x3xf32>
  return %0 : tensor<2x3xf32>
}
"""
small = np.arange(12, dtype=np.float32).reshape(4, 3)
erring = jit.compile(ERROR, destination_entries=True)
messages = {}
try:
    erring(small, np.array([1, 9]))
except jit.GatherError as e:
    messages["run"] = str(e)
    print(f"error: {e}")
try:
    program(data, ids, out=np.zeros((3, 5), np.float32))
except jit.GatherError as e:
    messages["out"] = str(e)
    print(f"out error: {e}")

# The plain way: what the C call does not take.
jit.Program._inputs = plain
program = jit.compile(STATIC, destination_entries=True)
fallback = {}
fallback["list"] = np.array_equal(program(data, ids.tolist()), want)
wide = np.zeros((64, 10), np.float32)
wide[:, ::2] = data
fallback["strided"] = np.array_equal(program(wide[:, ::2], ids), want)
try:
    program(data.astype(">f4"), ids)
    fallback["byte-swapped error"] = False
except jit.GatherError as e:
    fallback["byte-swapped error"] = "dtype >f4 does not match element type f32" in str(e)


class Sub(np.ndarray):
    pass


fallback["subclass"] = np.array_equal(program(data.view(Sub), ids), want)
try:
    program(data, ids, out=np.zeros((40, 10), np.float32)[:, ::2])
    fallback["out strided error"] = False
except jit.GatherError as e:
    fallback["out strided error"] = "C-contiguous" in str(e)
print("plain way: " + ", ".join(f"{k} {v}" for k, v in fallback.items()))

# The same errors with the C call turned off on these programs.
plain_messages = {}
erring._selected.fast = None
program._selected.fast = None
try:
    erring(small, np.array([1, 9]))
except jit.GatherError as e:
    plain_messages["run"] = str(e)
try:
    program(data, ids, out=np.zeros((3, 5), np.float32))
except jit.GatherError as e:
    plain_messages["out"] = str(e)
print(f"messages as the plain path's: {messages == plain_messages and len(messages) == 2}")

# One program, four threads: the runs overlap (the GIL is released while
# each runs), every result its own.
jit.Program._inputs = plain_inputs
program = jit.compile(STATIC)
tables = [rng.standard_normal((64, 5)).astype(np.float32) for _ in range(4)]
good = []


def worker(k):
    for _ in range(25):
        good.append(np.array_equal(program(tables[k], ids), np.take(tables[k], ids, axis=0)))


threads = [threading.Thread(target=worker, args=(k,)) for k in range(4)]
for t in threads:
    t.start()
for t in threads:
    t.join()
print(f"threads: 4x25 calls equal {len(good) == 100 and all(good)}")
