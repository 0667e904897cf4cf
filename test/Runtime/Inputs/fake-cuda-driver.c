/* A stand-in for the CUDA driver (libcuda.so.1) with host memory, for
 * testing the GPU runtime's own logic (memory and stream reuse, recovery
 * from a failed allocation) and the host side of compiled GPU code on
 * machines without a GPU. Only the calls the runtime binds exist; the
 * fake_* functions let a test read and steer it. Modules load and kernels
 * launch without running: host code around them runs as it would.
 * FAKE_CUDA_MEMSET_D32=V in the environment makes every 32-bit memset write
 * V: with V=1 every device error flag reads raised, as if a kernel had
 * found an invalid index, so that the host's report runs. */
#include <stdlib.h>
#include <string.h>

typedef int CUresult;
enum { OK = 0, OUT_OF_MEMORY = 2, NOT_SUPPORTED = 801 };

static int allocations, frees, managedAllocations, streamsCreated, live;
static int launches, asyncCopies;
static int liveLimit = 1 << 30;

void fake_cuda_launches(int *counts) {
  counts[0] = launches;
  counts[1] = asyncCopies;
}
void fake_cuda_counts(int *counts) {
  counts[0] = allocations;
  counts[1] = frees;
  counts[2] = managedAllocations;
  counts[3] = streamsCreated;
  counts[4] = live;
}
void fake_cuda_set_live_limit(int limit) { liveLimit = limit; }

CUresult cuInit(unsigned flags) {
  (void)flags;
  return OK;
}
CUresult cuGetErrorString(CUresult r, const char **text) {
  *text = r == OUT_OF_MEMORY ? "out of memory" : "fake driver error";
  return OK;
}
CUresult cuDeviceGetCount(int *count) {
  *count = 1;
  return OK;
}
CUresult cuDeviceGet(int *device, int ordinal) {
  *device = ordinal;
  return OK;
}
CUresult cuDeviceGetName(char *name, int length, int device) {
  (void)device;
  strncpy(name, "fake CUDA device", (size_t)length);
  return OK;
}
CUresult cuDeviceGetAttribute(int *value, int attribute, int device) {
  (void)device;
  *value = attribute == 75 ? 9 : 0;
  return OK;
}
CUresult cuDevicePrimaryCtxRetain(void **context, int device) {
  (void)device;
  *context = (void *)&live;
  return OK;
}
CUresult cuCtxSetCurrent(void *context) {
  (void)context;
  return OK;
}
CUresult cuCtxSynchronize(void) { return OK; }
CUresult cuModuleLoadData(void **m, const void *image) {
  (void)image;
  *m = (void *)&live;
  return OK;
}
CUresult cuModuleLoadDataEx(void **m, const void *image, unsigned n, int *o,
                            void **v) {
  (void)n;
  (void)o;
  (void)v;
  return cuModuleLoadData(m, image);
}
CUresult cuModuleUnload(void *m) {
  (void)m;
  return OK;
}
CUresult cuModuleGetFunction(void **f, void *m, const char *name) {
  (void)m;
  (void)name;
  *f = (void *)&live;
  return OK;
}
CUresult cuLaunchKernel(void *f, unsigned gx, unsigned gy, unsigned gz,
                        unsigned bx, unsigned by, unsigned bz, unsigned shared,
                        void *stream, void **params, void **extra) {
  (void)f;
  (void)gx;
  (void)gy;
  (void)gz;
  (void)bx;
  (void)by;
  (void)bz;
  (void)shared;
  (void)stream;
  (void)params;
  (void)extra;
  ++launches;
  return OK;
}
CUresult cuStreamCreate(void **stream, unsigned flags) {
  (void)flags;
  *stream = malloc(1);
  ++streamsCreated;
  return OK;
}
CUresult cuStreamDestroy_v2(void *stream) {
  free(stream);
  return OK;
}
CUresult cuStreamSynchronize(void *stream) {
  (void)stream;
  return OK;
}
CUresult cuStreamWaitEvent(void *s, void *e, unsigned f) {
  (void)s;
  (void)e;
  (void)f;
  return OK;
}
CUresult cuEventCreate(void **event, unsigned flags) {
  (void)flags;
  *event = malloc(1);
  return OK;
}
CUresult cuEventDestroy_v2(void *event) {
  free(event);
  return OK;
}
CUresult cuEventRecord(void *e, void *s) {
  (void)e;
  (void)s;
  return OK;
}
CUresult cuEventSynchronize(void *e) {
  (void)e;
  return OK;
}
CUresult cuEventElapsedTime(float *ms, void *a, void *b) {
  (void)a;
  (void)b;
  *ms = 0;
  return OK;
}
CUresult cuMemAlloc_v2(unsigned long long *pointer, size_t bytes) {
  if (live >= liveLimit)
    return OUT_OF_MEMORY;
  *pointer =
      (unsigned long long)(size_t)aligned_alloc(256, (bytes + 255) / 256 * 256);
  ++allocations;
  ++live;
  return OK;
}
CUresult cuMemAllocManaged(unsigned long long *pointer, size_t bytes,
                           unsigned flags) {
  (void)flags;
  *pointer =
      (unsigned long long)(size_t)aligned_alloc(256, (bytes + 255) / 256 * 256);
  ++managedAllocations;
  ++live;
  return OK;
}
CUresult cuMemFree_v2(unsigned long long pointer) {
  free((void *)(size_t)pointer);
  ++frees;
  --live;
  return OK;
}
CUresult cuMemcpy(unsigned long long dst, unsigned long long src,
                  size_t bytes) {
  memcpy((void *)(size_t)dst, (const void *)(size_t)src, bytes);
  return OK;
}
CUresult cuMemcpyAsync(unsigned long long dst, unsigned long long src,
                       size_t bytes, void *s) {
  (void)s;
  ++asyncCopies;
  return cuMemcpy(dst, src, bytes);
}
CUresult cuMemsetD32Async(unsigned long long dst, unsigned value, size_t count,
                          void *s) {
  (void)s;
  const char *override = getenv("FAKE_CUDA_MEMSET_D32");
  if (override)
    value = (unsigned)strtoul(override, NULL, 10);
  for (size_t i = 0; i < count; ++i)
    ((unsigned *)(size_t)dst)[i] = value;
  return OK;
}
CUresult cuMemsetD16Async(unsigned long long dst, unsigned short value,
                          size_t count, void *s) {
  (void)s;
  for (size_t i = 0; i < count; ++i)
    ((unsigned short *)(size_t)dst)[i] = value;
  return OK;
}
