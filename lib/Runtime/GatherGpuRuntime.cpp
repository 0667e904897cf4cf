//===- GatherGpuRuntime.cpp - CUDA driver runtime for compiled gathers ----===//
//
// Part of the gather project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// The mgpu* entry points that MLIR's gpu-to-llvm lowering calls, over the
// CUDA driver API loaded with dlopen, so that nothing here needs CUDA at
// build time. Only the driver calls the pipeline's output uses are bound.
//
//===----------------------------------------------------------------------===//

#include "gather/Runtime/GatherGpuRuntime.h"

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <dlfcn.h>
#include <map>
#include <mutex>
#include <string>
#include <unordered_map>
#include <vector>

namespace {
// The few driver types this file needs, as the driver ABI defines them.
using CUresult = int;
using CUdevice = int;
using CUdeviceptr = unsigned long long;
using CUcontext = void *;
using CUmodule = void *;
using CUfunction = void *;
using CUstream = void *;
using CUevent = void *;
constexpr CUresult CUDA_SUCCESS = 0;
constexpr int CU_JIT_ERROR_LOG_BUFFER = 5;
constexpr int CU_JIT_ERROR_LOG_BUFFER_SIZE_BYTES = 6;
constexpr int CU_JIT_OPTIMIZATION_LEVEL = 7;
constexpr unsigned CU_MEM_ATTACH_GLOBAL = 1;

struct Driver {
  CUresult (*cuInit)(unsigned);
  CUresult (*cuGetErrorString)(CUresult, const char **);
  CUresult (*cuDeviceGetCount)(int *);
  CUresult (*cuDeviceGet)(CUdevice *, int);
  CUresult (*cuDeviceGetName)(char *, int, CUdevice);
  CUresult (*cuDeviceGetAttribute)(int *, int, CUdevice);
  CUresult (*cuDevicePrimaryCtxRetain)(CUcontext *, CUdevice);
  CUresult (*cuCtxSetCurrent)(CUcontext);
  CUresult (*cuModuleLoadData)(CUmodule *, const void *);
  CUresult (*cuModuleLoadDataEx)(CUmodule *, const void *, unsigned, int *,
                                 void **);
  CUresult (*cuModuleUnload)(CUmodule);
  CUresult (*cuModuleGetFunction)(CUfunction *, CUmodule, const char *);
  CUresult (*cuLaunchKernel)(CUfunction, unsigned, unsigned, unsigned, unsigned,
                             unsigned, unsigned, unsigned, CUstream, void **,
                             void **);
  CUresult (*cuStreamCreate)(CUstream *, unsigned);
  CUresult (*cuStreamDestroy)(CUstream);
  CUresult (*cuStreamSynchronize)(CUstream);
  CUresult (*cuStreamWaitEvent)(CUstream, CUevent, unsigned);
  CUresult (*cuEventCreate)(CUevent *, unsigned);
  CUresult (*cuEventDestroy)(CUevent);
  CUresult (*cuEventRecord)(CUevent, CUstream);
  CUresult (*cuEventSynchronize)(CUevent);
  CUresult (*cuEventElapsedTime)(float *, CUevent, CUevent);
  CUresult (*cuMemAlloc)(CUdeviceptr *, size_t);
  CUresult (*cuMemAllocManaged)(CUdeviceptr *, size_t, unsigned);
  CUresult (*cuMemFree)(CUdeviceptr);
  CUresult (*cuMemcpy)(CUdeviceptr, CUdeviceptr, size_t);
  CUresult (*cuMemcpyAsync)(CUdeviceptr, CUdeviceptr, size_t, CUstream);
  CUresult (*cuMemsetD32Async)(CUdeviceptr, unsigned, size_t, CUstream);
  CUresult (*cuMemsetD16Async)(CUdeviceptr, unsigned short, size_t, CUstream);
  CUresult (*cuCtxSynchronize)();
};

Driver driver;
std::once_flag initOnce;
bool ready = false;
std::string initError;
char deviceName[256] = "";
int capabilityMajor = 0, capabilityMinor = 0;
constexpr int CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR = 75;
constexpr int CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR = 76;
// Launches per timed kernel (0: no timing); see gather_gpu_set_kernel_timing.
int kernelTimingLaunches = 0;
double kernelMs = 0;

template <typename Fn> bool bind(void *lib, Fn &slot, const char *name) {
  slot = reinterpret_cast<Fn>(dlsym(lib, name));
  if (!slot)
    initError = std::string("libcuda.so.1 has no ") + name;
  return slot != nullptr;
}

std::string errorText(CUresult result) {
  const char *text = nullptr;
  if (driver.cuGetErrorString)
    driver.cuGetErrorString(result, &text);
  return text ? text : "CUDA error " + std::to_string(result);
}

void initialize() {
  void *lib = dlopen("libcuda.so.1", RTLD_NOW | RTLD_GLOBAL);
  if (!lib) {
    initError = "no CUDA driver (cannot load libcuda.so.1): this machine has "
                "no usable NVIDIA GPU";
    return;
  }
  // Versioned names where the driver has several ABIs.
  bool ok =
      bind(lib, driver.cuInit, "cuInit") &&
      bind(lib, driver.cuGetErrorString, "cuGetErrorString") &&
      bind(lib, driver.cuDeviceGetCount, "cuDeviceGetCount") &&
      bind(lib, driver.cuDeviceGet, "cuDeviceGet") &&
      bind(lib, driver.cuDeviceGetName, "cuDeviceGetName") &&
      bind(lib, driver.cuDeviceGetAttribute, "cuDeviceGetAttribute") &&
      bind(lib, driver.cuDevicePrimaryCtxRetain, "cuDevicePrimaryCtxRetain") &&
      bind(lib, driver.cuCtxSetCurrent, "cuCtxSetCurrent") &&
      bind(lib, driver.cuModuleLoadData, "cuModuleLoadData") &&
      bind(lib, driver.cuModuleLoadDataEx, "cuModuleLoadDataEx") &&
      bind(lib, driver.cuModuleUnload, "cuModuleUnload") &&
      bind(lib, driver.cuModuleGetFunction, "cuModuleGetFunction") &&
      bind(lib, driver.cuLaunchKernel, "cuLaunchKernel") &&
      bind(lib, driver.cuStreamCreate, "cuStreamCreate") &&
      bind(lib, driver.cuStreamDestroy, "cuStreamDestroy_v2") &&
      bind(lib, driver.cuStreamSynchronize, "cuStreamSynchronize") &&
      bind(lib, driver.cuStreamWaitEvent, "cuStreamWaitEvent") &&
      bind(lib, driver.cuEventCreate, "cuEventCreate") &&
      bind(lib, driver.cuEventDestroy, "cuEventDestroy_v2") &&
      bind(lib, driver.cuEventRecord, "cuEventRecord") &&
      bind(lib, driver.cuEventSynchronize, "cuEventSynchronize") &&
      bind(lib, driver.cuEventElapsedTime, "cuEventElapsedTime") &&
      bind(lib, driver.cuMemAlloc, "cuMemAlloc_v2") &&
      bind(lib, driver.cuMemAllocManaged, "cuMemAllocManaged") &&
      bind(lib, driver.cuMemFree, "cuMemFree_v2") &&
      bind(lib, driver.cuMemcpy, "cuMemcpy") &&
      bind(lib, driver.cuMemcpyAsync, "cuMemcpyAsync") &&
      bind(lib, driver.cuMemsetD32Async, "cuMemsetD32Async") &&
      bind(lib, driver.cuMemsetD16Async, "cuMemsetD16Async") &&
      bind(lib, driver.cuCtxSynchronize, "cuCtxSynchronize");
  if (!ok)
    return;
  CUresult result = driver.cuInit(0);
  if (result != CUDA_SUCCESS) {
    initError =
        "cuInit failed: " + errorText(result) + " (no usable NVIDIA GPU?)";
    return;
  }
  int count = 0;
  if (driver.cuDeviceGetCount(&count) != CUDA_SUCCESS || count == 0) {
    initError = "the CUDA driver sees no GPU";
    return;
  }
  CUdevice device;
  CUcontext context;
  if ((result = driver.cuDeviceGet(&device, 0)) != CUDA_SUCCESS ||
      (result = driver.cuDevicePrimaryCtxRetain(&context, device)) !=
          CUDA_SUCCESS ||
      (result = driver.cuCtxSetCurrent(context)) != CUDA_SUCCESS) {
    initError = "cannot open device 0: " + errorText(result);
    return;
  }
  driver.cuDeviceGetName(deviceName, sizeof(deviceName), device);
  driver.cuDeviceGetAttribute(
      &capabilityMajor, CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR, device);
  driver.cuDeviceGetAttribute(
      &capabilityMinor, CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR, device);
  ready = true;
}

bool ensureReady() {
  std::call_once(initOnce, initialize);
  return ready;
}

[[noreturn]] void die(const std::string &what) {
  std::fprintf(stderr, "error: CUDA: %s\n", what.c_str());
  std::fflush(stderr);
  std::exit(1);
}

void requireReady() {
  if (!ensureReady())
    die(initError);
}

void check(CUresult result, const char *call) {
  if (result != CUDA_SUCCESS)
    die(std::string(call) + " failed: " + errorText(result));
}

CUdeviceptr devicePtr(const void *p) {
  return static_cast<CUdeviceptr>(reinterpret_cast<uintptr_t>(p));
}
} // namespace

//===----------------------------------------------------------------------===//
// Entry points of MLIR's gpu-to-llvm lowering
//===----------------------------------------------------------------------===//

extern "C" void *mgpuModuleLoad(void *data, size_t /*size*/) {
  requireReady();
  CUmodule module = nullptr;
  check(driver.cuModuleLoadData(&module, data), "cuModuleLoadData");
  return module;
}

extern "C" void *mgpuModuleLoadJIT(void *data, int optLevel) {
  requireReady();
  CUmodule module = nullptr;
  char log[4096] = "";
  int options[] = {CU_JIT_ERROR_LOG_BUFFER, CU_JIT_ERROR_LOG_BUFFER_SIZE_BYTES,
                   CU_JIT_OPTIMIZATION_LEVEL};
  void *values[] = {log, reinterpret_cast<void *>(sizeof(log)),
                    reinterpret_cast<void *>(
                        static_cast<intptr_t>(std::clamp(optLevel, 0, 4)))};
  CUresult result =
      driver.cuModuleLoadDataEx(&module, data, 3, options, values);
  if (result != CUDA_SUCCESS)
    die("cuModuleLoadDataEx (PTX JIT) failed: " + errorText(result) + ": " +
        log);
  return module;
}

extern "C" void mgpuModuleUnload(void *module) {
  if (ready)
    driver.cuModuleUnload(module);
}

extern "C" void *mgpuModuleGetFunction(void *module, const char *name) {
  requireReady();
  CUfunction function = nullptr;
  check(driver.cuModuleGetFunction(&function, module, name),
        "cuModuleGetFunction");
  return function;
}

extern "C" void mgpuLaunchKernel(void *function, intptr_t gridX, intptr_t gridY,
                                 intptr_t gridZ, intptr_t blockX,
                                 intptr_t blockY, intptr_t blockZ,
                                 int32_t sharedBytes, void *stream,
                                 void **params, void **extra,
                                 size_t /*paramsCount*/) {
  requireReady();
  CUevent start = nullptr, stop = nullptr;
  int launches = std::max(1, kernelTimingLaunches);
  if (kernelTimingLaunches) {
    check(driver.cuEventCreate(&start, 0), "cuEventCreate");
    check(driver.cuEventCreate(&stop, 0), "cuEventCreate");
    check(driver.cuEventRecord(start, stream), "cuEventRecord");
  }
  for (int launch = 0; launch < launches; ++launch)
    check(driver.cuLaunchKernel(function, gridX, gridY, gridZ, blockX, blockY,
                                blockZ, sharedBytes, stream, params, extra),
          "cuLaunchKernel");
  if (kernelTimingLaunches) {
    check(driver.cuEventRecord(stop, stream), "cuEventRecord");
    check(driver.cuEventSynchronize(stop), "cuEventSynchronize");
    float ms = 0;
    check(driver.cuEventElapsedTime(&ms, start, stop), "cuEventElapsedTime");
    kernelMs += ms / launches;
    driver.cuEventDestroy(start);
    driver.cuEventDestroy(stop);
  }
}

// Compiled functions create a stream around each GPU operation and destroy
// it after synchronizing; streams are kept for reuse instead (work queued on
// a reused stream stays ordered behind what it already holds).
namespace {
std::mutex streamPoolMutex;
std::vector<CUstream> streamPool;
} // namespace

extern "C" void *mgpuStreamCreate() {
  requireReady();
  {
    std::lock_guard<std::mutex> lock(streamPoolMutex);
    if (!streamPool.empty()) {
      CUstream stream = streamPool.back();
      streamPool.pop_back();
      return stream;
    }
  }
  CUstream stream = nullptr;
  check(driver.cuStreamCreate(&stream, 0), "cuStreamCreate");
  return stream;
}

namespace {
void cacheBlocksFreedOn(CUstream stream);
bool hasBlocksFreedOn(CUstream stream);
} // namespace

extern "C" void mgpuStreamSynchronize(void *stream) {
  // Kernel faults (an illegal address) surface here.
  check(driver.cuStreamSynchronize(stream), "cuStreamSynchronize");
  cacheBlocksFreedOn(stream);
}

extern "C" void mgpuStreamDestroy(void *stream) {
  // Compiled code synchronizes a stream before destroying it; blocks freed
  // on one that was not are made reusable here, after it.
  if (hasBlocksFreedOn(stream))
    mgpuStreamSynchronize(stream);
  std::lock_guard<std::mutex> lock(streamPoolMutex);
  streamPool.push_back(stream);
}

extern "C" void mgpuStreamWaitEvent(void *stream, void *event) {
  check(driver.cuStreamWaitEvent(stream, event, 0), "cuStreamWaitEvent");
}

extern "C" void *mgpuEventCreate() {
  requireReady();
  CUevent event = nullptr;
  check(driver.cuEventCreate(&event, 0), "cuEventCreate");
  return event;
}

extern "C" void mgpuEventDestroy(void *event) {
  check(driver.cuEventDestroy(event), "cuEventDestroy");
}

extern "C" void mgpuEventSynchronize(void *event) {
  check(driver.cuEventSynchronize(event), "cuEventSynchronize");
}

extern "C" void mgpuEventRecord(void *event, void *stream) {
  check(driver.cuEventRecord(event, stream), "cuEventRecord");
}

// Device memory is cached for reuse, as deep-learning frameworks do:
// cuMemAlloc and cuMemFree cost tens of microseconds each, as much as a
// small gather's kernel, and a compiled function allocates its output and
// temporaries on every call. Blocks are reused for requests of the same
// rounded size; all of them go back to the driver when an allocation fails.
// A block freed on a stream is reused only once the host has synchronized
// with that stream (work queued before the free may still use it), so a
// free costs no synchronization of its own: a compiled call waits once, at
// its end.
namespace {
constexpr size_t kAllocationGranule = 512;
std::mutex memoryMutex;
std::unordered_map<CUdeviceptr, size_t> liveBlocks; // pointer -> rounded size
std::multimap<size_t, CUdeviceptr> cachedBlocks;
std::unordered_map<CUstream, std::vector<std::pair<size_t, CUdeviceptr>>>
    blocksFreedOn;

void cacheBlocksFreedOn(CUstream stream) {
  std::lock_guard<std::mutex> lock(memoryMutex);
  auto freed = blocksFreedOn.find(stream);
  if (freed == blocksFreedOn.end())
    return;
  for (auto [size, pointer] : freed->second)
    cachedBlocks.emplace(size, pointer);
  blocksFreedOn.erase(freed);
}

bool hasBlocksFreedOn(CUstream stream) {
  std::lock_guard<std::mutex> lock(memoryMutex);
  return blocksFreedOn.count(stream);
}

/// With memoryMutex held.
void releaseCachedBlocks() {
  if (!blocksFreedOn.empty()) {
    check(driver.cuCtxSynchronize(), "cuCtxSynchronize");
    for (auto &[stream, blocks] : blocksFreedOn)
      for (auto [size, pointer] : blocks)
        cachedBlocks.emplace(size, pointer);
    blocksFreedOn.clear();
  }
  for (auto &[size, pointer] : cachedBlocks)
    check(driver.cuMemFree(pointer), "cuMemFree");
  cachedBlocks.clear();
}
} // namespace

extern "C" void *mgpuMemAlloc(uint64_t bytes, void * /*stream*/,
                              bool hostShared) {
  requireReady();
  if (bytes == 0)
    return nullptr;
  CUdeviceptr pointer = 0;
  if (hostShared) {
    check(driver.cuMemAllocManaged(&pointer, bytes, CU_MEM_ATTACH_GLOBAL),
          "cuMemAllocManaged");
    return reinterpret_cast<void *>(static_cast<uintptr_t>(pointer));
  }
  size_t rounded = (bytes + kAllocationGranule - 1) / kAllocationGranule *
                   kAllocationGranule;
  std::lock_guard<std::mutex> lock(memoryMutex);
  auto cached = cachedBlocks.find(rounded);
  if (cached != cachedBlocks.end()) {
    pointer = cached->second;
    cachedBlocks.erase(cached);
  } else if (driver.cuMemAlloc(&pointer, rounded) != CUDA_SUCCESS) {
    releaseCachedBlocks();
    check(driver.cuMemAlloc(&pointer, rounded), "cuMemAlloc");
  }
  liveBlocks[pointer] = rounded;
  return reinterpret_cast<void *>(static_cast<uintptr_t>(pointer));
}

extern "C" void mgpuMemFree(void *pointer, void *stream) {
  if (!pointer)
    return;
  if (stream) {
    std::lock_guard<std::mutex> lock(memoryMutex);
    auto live = liveBlocks.find(devicePtr(pointer));
    if (live != liveBlocks.end()) {
      // Reused once the stream is synchronized (cacheBlocksFreedOn).
      blocksFreedOn[static_cast<CUstream>(stream)].emplace_back(live->second,
                                                                live->first);
      liveBlocks.erase(live);
      return;
    }
  }
  // Work queued before the free may still use the buffer: on the stream
  // given, or (as cuMemFree would) anywhere on the device. Not under the
  // lock, which other threads' allocations take.
  if (stream)
    check(driver.cuStreamSynchronize(stream), "cuStreamSynchronize");
  else
    check(driver.cuCtxSynchronize(), "cuCtxSynchronize");
  std::lock_guard<std::mutex> lock(memoryMutex);
  auto live = liveBlocks.find(devicePtr(pointer));
  if (live == liveBlocks.end()) {
    // Managed memory, or memory the caller allocated itself.
    check(driver.cuMemFree(devicePtr(pointer)), "cuMemFree");
    return;
  }
  cachedBlocks.emplace(live->second, live->first);
  liveBlocks.erase(live);
}

extern "C" void mgpuMemcpy(void *dst, void *src, size_t bytes, void *stream) {
  if (bytes == 0)
    return;
  check(driver.cuMemcpyAsync(devicePtr(dst), devicePtr(src), bytes, stream),
        "cuMemcpyAsync");
}

extern "C" void mgpuMemset32(void *dst, unsigned int value, size_t count,
                             void *stream) {
  if (count == 0)
    return;
  check(driver.cuMemsetD32Async(devicePtr(dst), value, count, stream),
        "cuMemsetD32Async");
}

extern "C" void mgpuMemset16(void *dst, unsigned short value, size_t count,
                             void *stream) {
  if (count == 0)
    return;
  check(driver.cuMemsetD16Async(devicePtr(dst), value, count, stream),
        "cuMemsetD16Async");
}

extern "C" void mgpuSetDefaultDevice(int32_t device) {
  if (device != 0)
    die("only device 0 is supported");
}

//===----------------------------------------------------------------------===//
// Runner support
//===----------------------------------------------------------------------===//

extern "C" int gather_gpu_init(char *message, size_t size) {
  if (ensureReady())
    return 0;
  if (message && size > 0) {
    std::strncpy(message, initError.c_str(), size - 1);
    message[size - 1] = '\0';
  }
  return 1;
}

extern "C" const char *gather_gpu_device_name(void) { return deviceName; }

extern "C" int gather_gpu_compute_capability(void) {
  return capabilityMajor * 10 + capabilityMinor;
}

extern "C" void *gather_gpu_alloc(size_t bytes) {
  return mgpuMemAlloc(bytes, nullptr, false);
}

extern "C" void gather_gpu_free(void *pointer) {
  mgpuMemFree(pointer, nullptr);
}

extern "C" void gather_gpu_copy(void *dst, const void *src, size_t bytes) {
  requireReady();
  if (bytes == 0)
    return;
  check(driver.cuMemcpy(devicePtr(dst), devicePtr(src), bytes), "cuMemcpy");
}

extern "C" void gather_gpu_set_kernel_timing(int launches) {
  kernelTimingLaunches = std::max(0, launches);
}

extern "C" double gather_gpu_take_kernel_ms(void) {
  double ms = kernelMs;
  kernelMs = 0;
  return ms;
}

extern "C" double gather_gpu_time_device_copy_ms(size_t bytes, int runs,
                                                 int launches) {
  requireReady();
  if (bytes == 0 || runs < 1)
    return 0;
  launches = std::max(1, launches);
  void *a = gather_gpu_alloc(bytes);
  void *b = gather_gpu_alloc(bytes);
  CUevent start, stop;
  check(driver.cuEventCreate(&start, 0), "cuEventCreate");
  check(driver.cuEventCreate(&stop, 0), "cuEventCreate");
  std::vector<float> times;
  for (int run = 0; run < runs; ++run) {
    check(driver.cuEventRecord(start, nullptr), "cuEventRecord");
    for (int launch = 0; launch < launches; ++launch)
      check(driver.cuMemcpyAsync(devicePtr(b), devicePtr(a), bytes, nullptr),
            "cuMemcpyAsync");
    check(driver.cuEventRecord(stop, nullptr), "cuEventRecord");
    check(driver.cuEventSynchronize(stop), "cuEventSynchronize");
    float ms = 0;
    check(driver.cuEventElapsedTime(&ms, start, stop), "cuEventElapsedTime");
    times.push_back(ms / launches);
  }
  driver.cuEventDestroy(start);
  driver.cuEventDestroy(stop);
  gather_gpu_free(a);
  gather_gpu_free(b);
  std::sort(times.begin(), times.end());
  return times[times.size() / 2];
}
