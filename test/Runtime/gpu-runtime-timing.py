# Kernel timing for benchmarks (gather-run --bench --bench-launches): with
# timing set to N launches, one mgpuLaunchKernel call launches the kernel N
# times back to back between its events, and the device copy baseline
# copies N times per timed run; with timing off or 1, once. Run against the
# stand-in driver (Inputs/fake-cuda-driver.c), which counts launches and
# asynchronous copies, so that it needs no GPU; the timed figures come from
# bench/gpu.py on a GPU.
# RUN: env LD_LIBRARY_PATH=%gather_obj_root/test/Runtime/fake-cuda %python %s %gather_lib/libgather_gpu_runtime.so | FileCheck %s
# CHECK: init: ok
# CHECK-NEXT: timing off: 1 launches
# CHECK-NEXT: timing 1: 1 launches, 0.0 ms taken
# CHECK-NEXT: timing 4: 4 launches, 0.0 ms taken
# CHECK-NEXT: timing -3: 1 launches
# CHECK-NEXT: copy, 3 runs of 1: 3 copies
# CHECK-NEXT: copy, 3 runs of 5: 15 copies
# CHECK-NEXT: copy, 3 runs of 0: 3 copies
import ctypes
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "Inputs"))
from fake_driver import load_runtime  # noqa: E402

lib, fake = load_runtime(sys.argv[1])
lib.mgpuLaunchKernel.argtypes = [ctypes.c_void_p] + [ctypes.c_ssize_t] * 6 + [
    ctypes.c_int32, ctypes.c_void_p, ctypes.c_void_p, ctypes.c_void_p, ctypes.c_size_t]
lib.gather_gpu_take_kernel_ms.restype = ctypes.c_double
lib.gather_gpu_time_device_copy_ms.restype = ctypes.c_double
lib.gather_gpu_time_device_copy_ms.argtypes = [ctypes.c_size_t, ctypes.c_int, ctypes.c_int]


def counts():
    c = (ctypes.c_int * 2)()
    fake.fake_cuda_launches(c)
    return c[0], c[1]


def launches_of_one_call():
    before = counts()[0]
    lib.mgpuLaunchKernel(None, 1, 1, 1, 32, 1, 1, 0, None, None, None, 0)
    return counts()[0] - before


print(f"timing off: {launches_of_one_call()} launches")
for n in (1, 4):
    lib.gather_gpu_set_kernel_timing(n)
    print(f"timing {n}: {launches_of_one_call()} launches, "
          f"{lib.gather_gpu_take_kernel_ms():.1f} ms taken")
lib.gather_gpu_set_kernel_timing(-3)
print(f"timing -3: {launches_of_one_call()} launches")
lib.gather_gpu_set_kernel_timing(0)
for n in (1, 5, 0):
    before = counts()[1]
    lib.gather_gpu_time_device_copy_ms(1024, 3, n)
    print(f"copy, 3 runs of {n}: {counts()[1] - before} copies")
