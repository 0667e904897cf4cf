/*===- GatherGpuRuntime.h - CUDA driver runtime for compiled gathers -*- C
-*-===*\
|*                                                                            *|
|* Part of the gather project, under the Apache License v2.0 with LLVM       *|
|* Exceptions. See LICENSE for license information.                          *|
|* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception                   *|
|*                                                                            *|
|* Host code from --gather-gpu-pipeline calls the mgpu* functions that        *|
|* MLIR's gpu-to-llvm lowering emits (module load, launch, streams, device    *|
|* memory). libgather_gpu_runtime implements them over the CUDA driver API,   *|
|* which it loads with dlopen("libcuda.so.1") on first use: the library       *|
|* builds and links everywhere, and only fails, with a message, when a        *|
|* program actually needs a GPU that is not there.                            *|
|*                                                                            *|
|* The gather_gpu_* functions below serve runners (gather-run --device gpu).  *|
|* A CUDA failure inside an mgpu* call prints "error: CUDA ..." and exits     *|
|* with status 1: compiled code has no way to receive an error.               *|
|*                                                                            *|
\*===----------------------------------------------------------------------===*/

#ifndef GATHER_RUNTIME_GATHERGPURUNTIME_H
#define GATHER_RUNTIME_GATHERGPURUNTIME_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* The entry points gpu-to-llvm emits calls to (MLIR 22 signatures). */
void *mgpuModuleLoad(void *data, size_t size);
void *mgpuModuleLoadJIT(void *data, int optLevel);
void mgpuModuleUnload(void *module);
void *mgpuModuleGetFunction(void *module, const char *name);
void mgpuLaunchKernel(void *function, intptr_t gridX, intptr_t gridY,
                      intptr_t gridZ, intptr_t blockX, intptr_t blockY,
                      intptr_t blockZ, int32_t sharedBytes, void *stream,
                      void **params, void **extra, size_t paramsCount);
void *mgpuStreamCreate(void);
void mgpuStreamDestroy(void *stream);
void mgpuStreamSynchronize(void *stream);
void mgpuStreamWaitEvent(void *stream, void *event);
void *mgpuEventCreate(void);
void mgpuEventDestroy(void *event);
void mgpuEventSynchronize(void *event);
void mgpuEventRecord(void *event, void *stream);
void *mgpuMemAlloc(uint64_t bytes, void *stream, bool hostShared);
void mgpuMemFree(void *pointer, void *stream);
void mgpuMemcpy(void *dst, void *src, size_t bytes, void *stream);
void mgpuMemset32(void *dst, unsigned int value, size_t count, void *stream);
void mgpuMemset16(void *dst, unsigned short value, size_t count, void *stream);
void mgpuSetDefaultDevice(int32_t device);

/* Loads the driver and makes device 0's primary context current. Returns 0
   on success; otherwise 1 with the reason (no libcuda.so.1, no device, ...)
   in `message`. Safe to call repeatedly. */
int gather_gpu_init(char *message, size_t size);

/* The name of device 0 ("" before a successful init). */
const char *gather_gpu_device_name(void);

/* Device 0's compute capability as 10 * major + minor (90 for sm_90). */
int gather_gpu_compute_capability(void);

/* Device memory; sizes of 0 give NULL. */
void *gather_gpu_alloc(size_t bytes);
void gather_gpu_free(void *pointer);

/* Synchronous copy between host and device, either direction. */
void gather_gpu_copy(void *dst, const void *src, size_t bytes);

/* With timing on (`launches` > 0), every kernel launch is bracketed by CUDA
   events and its time added to a counter that gather_gpu_take_kernel_ms
   reads and clears. With `launches` > 1 the kernel is launched that many
   times back to back between the events and the counter gets their mean:
   the launch latency, which a single launch's events include, then hides
   behind the kernels before it (as in a stream of kernels). Benchmarks
   only: the kernel must give the same result when repeated, as a gather's
   does. */
void gather_gpu_set_kernel_timing(int launches);
double gather_gpu_take_kernel_ms(void);

/* Median time in ms of `runs` device-to-device copies of `bytes` bytes,
   each timed as the mean of `launches` copies back to back between events
   (1: the copy alone, as a single kernel launch is timed). */
double gather_gpu_time_device_copy_ms(size_t bytes, int runs, int launches);

#ifdef __cplusplus
}
#endif

#endif /* GATHER_RUNTIME_GATHERGPURUNTIME_H */
