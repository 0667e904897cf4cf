# The GPU runtime keeps device memory and streams for reuse (compiled
# functions allocate their output and create a stream around every GPU
# operation on each call). Run against a stand-in driver with host memory
# (Inputs/fake-cuda-driver.c), so that it needs no GPU: a freed block comes
# back for a request of the same rounded size without a driver allocation,
# other sizes allocate, managed memory is not cached, a failed allocation
# gives the cache back to the driver and succeeds, a destroyed stream is
# handed out again, and a block freed on a stream is reused only after the
# host synchronized with that stream (no synchronization in the free).
# RUN: env LD_LIBRARY_PATH=%gather_obj_root/test/Runtime/fake-cuda %python %s %gather_lib/libgather_gpu_runtime.so | FileCheck %s
# CHECK: init: ok
# CHECK-NEXT: same size reused: True, driver allocations 1
# CHECK-NEXT: rounded size reused: True, driver allocations 1
# CHECK-NEXT: other size: new block True, driver allocations 2
# CHECK-NEXT: managed: driver frees 1, not reused True
# CHECK-NEXT: after a failed allocation: pointer True, driver frees 4, live 1
# CHECK-NEXT: stream reused: True, driver streams 1
# CHECK-NEXT: freed on a stream: reused before its synchronization False, after True
# CHECK-NEXT: freed on a destroyed stream: reused True
import ctypes
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "Inputs"))
from fake_driver import load_runtime  # noqa: E402

lib, fake = load_runtime(sys.argv[1])
lib.mgpuMemAlloc.restype = ctypes.c_void_p
lib.mgpuMemAlloc.argtypes = [ctypes.c_uint64, ctypes.c_void_p, ctypes.c_bool]
lib.mgpuMemFree.argtypes = [ctypes.c_void_p, ctypes.c_void_p]
lib.mgpuStreamCreate.restype = ctypes.c_void_p
lib.mgpuStreamDestroy.argtypes = [ctypes.c_void_p]


def counts():
    c = (ctypes.c_int * 5)()
    fake.fake_cuda_counts(c)
    return dict(zip(["allocations", "frees", "managed", "streams", "live"], c))


a = lib.mgpuMemAlloc(1000, None, False)
lib.mgpuMemFree(a, None)
b = lib.mgpuMemAlloc(1000, None, False)
print(f"same size reused: {a == b}, driver allocations {counts()['allocations']}")
lib.mgpuMemFree(b, None)
c = lib.mgpuMemAlloc(900, None, False)  # the same 512-byte granules
print(f"rounded size reused: {c == a}, driver allocations {counts()['allocations']}")
d = lib.mgpuMemAlloc(5000, None, False)
print(f"other size: new block {d not in (a, c)}, driver allocations {counts()['allocations']}")
m = lib.mgpuMemAlloc(1000, None, True)
lib.mgpuMemFree(m, None)
m2 = lib.mgpuMemAlloc(1000, None, True)
print(f"managed: driver frees {counts()['frees']}, not reused {counts()['managed'] == 2}")
lib.mgpuMemFree(m2, None)
# Two blocks cached (c, d); the driver refuses a third live block, so the
# runtime frees its cache and asks again.
lib.mgpuMemFree(c, None)
lib.mgpuMemFree(d, None)
fake.fake_cuda_set_live_limit(counts()["live"])
e = lib.mgpuMemAlloc(70000, None, False)
state = counts()
print(f"after a failed allocation: pointer {bool(e)}, driver frees {state['frees']}, "
      f"live {state['live']}")
s1 = lib.mgpuStreamCreate()
lib.mgpuStreamDestroy(s1)
s2 = lib.mgpuStreamCreate()
print(f"stream reused: {s1 == s2}, driver streams {counts()['streams']}")
lib.mgpuStreamSynchronize.argtypes = [ctypes.c_void_p]
fake.fake_cuda_set_live_limit(1 << 30)
s3 = lib.mgpuStreamCreate()
f = lib.mgpuMemAlloc(3000, s3, False)
lib.mgpuMemFree(f, s3)
g = lib.mgpuMemAlloc(3000, s3, False)
lib.mgpuStreamSynchronize(s3)
h = lib.mgpuMemAlloc(3000, s3, False)
print(f"freed on a stream: reused before its synchronization {g == f}, after {h == f}")
lib.mgpuMemFree(h, s3)
lib.mgpuStreamDestroy(s3)
k = lib.mgpuMemAlloc(3000, None, False)
print(f"freed on a destroyed stream: reused {k == f}")
