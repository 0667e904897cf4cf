# libgather_gpu_runtime.so builds without CUDA and exports every entry point
# that the GPU pipeline's host code calls; without a GPU it loads, and
# gather_gpu_init reports why it cannot run instead of crashing.
# RUN: %python %s %gather_lib/libgather_gpu_runtime.so | FileCheck %s
# CHECK: exports: 20 of 20
# CHECK: init: {{(ok|no GPU: .+)}}
import ctypes
import sys

lib = ctypes.CDLL(sys.argv[1])
names = ["mgpuModuleLoad", "mgpuModuleLoadJIT", "mgpuModuleUnload", "mgpuModuleGetFunction",
         "mgpuLaunchKernel", "mgpuStreamCreate", "mgpuStreamDestroy", "mgpuStreamSynchronize",
         "mgpuStreamWaitEvent", "mgpuEventCreate", "mgpuEventDestroy", "mgpuEventSynchronize",
         "mgpuEventRecord", "mgpuMemAlloc", "mgpuMemFree", "mgpuMemcpy", "mgpuMemset32",
         "mgpuMemset16", "mgpuSetDefaultDevice", "gather_gpu_init"]
present = [n for n in names if hasattr(lib, n)]
print(f"exports: {len(present)} of {len(names)}")
message = ctypes.create_string_buffer(512)
rc = lib.gather_gpu_init(message, ctypes.c_size_t(len(message)))
print("init: ok" if rc == 0 else f"init: no GPU: {message.value.decode()}")
