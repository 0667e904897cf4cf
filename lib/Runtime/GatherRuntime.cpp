//===- GatherRuntime.cpp - run-time support for compiled gathers ----------===//
//
// Part of the gather project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "gather/Runtime/GatherRuntime.h"
#include "gather/Dialect/Gather/IR/RuntimeErrorKind.h"

#include <atomic>
#include <csetjmp>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <mutex>
#include <string>
#include <utility>
#include <vector>

#include <dlfcn.h>
#include <sys/mman.h>
#include <unistd.h>

namespace {
std::atomic<int> recordErrors{0};

/// The errors of the calls of one thread: the first message recorded since
/// the caller last took it, and whether a skipping assert failed in a
/// parallel region since the call began (the barrier after the region
/// leaves the call). A thread's own, so that calls of compiled code on two
/// threads at once (two programs, or two Python threads) each take their
/// own error: one state for the process gave an error of one call to the
/// other, which then raised it while the failing call returned garbage.
struct ErrorState {
  std::mutex mutex;
  /// Read before the lock: a call without an error takes none.
  std::atomic<bool> hasError{false};
  std::string firstError;
  std::atomic<bool> assertPending{false};
};

/// The errors a caller's thread records and takes, made at its first use.
thread_local std::unique_ptr<ErrorState> ownErrors;

/// Where the reports of an OpenMP worker thread go: the state of the call
/// whose parallel region it runs (__gather_runtime_adopt_error_state, which
/// the CPU pipeline puts at the start and end of each region that can
/// report), else null.
__attribute__((
    tls_model("initial-exec"))) thread_local ErrorState *regionErrors = nullptr;

/// The reports of worker threads in a region nothing adopted a state in
/// (code of another pipeline): each caller takes its own errors first, then
/// these, so such an error reaches some caller, as when the state was one.
ErrorState sharedErrors;

ErrorState &callerErrors() {
  if (!ownErrors)
    ownErrors = std::make_unique<ErrorState>();
  return *ownErrors;
}

/// Where a failed cf.assert returns to on this thread (the caller's setjmp
/// around its call of compiled code), or null. Set twice per call: the
/// initial-exec model keeps that a load and a store (the default model of a
/// shared library calls __tls_get_addr, 13 ns a call here); a library
/// loaded with dlopen takes 8 bytes of glibc's static TLS surplus for it.
__attribute__((tls_model(
    "initial-exec"))) thread_local std::jmp_buf *assertReturn = nullptr;

/// The blocks gather_runtime_malloc allocated on a thread with a return
/// point (while errors are recorded) and free has not freed, each with that
/// return point: what a failed assert's call would leak. A free from any
/// thread takes its block out (code may free on a worker thread what the
/// caller's thread allocated); blocks of other threads are not listed, as
/// an assert cannot return from a parallel region. A handful of blocks per
/// call (an output, a temporary), so a list, and a count read before the
/// lock so that a free with nothing listed costs an atomic load.
std::mutex blocksMutex;
std::vector<std::pair<void *, std::jmp_buf *>> callBlocks;
std::atomic<size_t> callBlockCount{0};

/// Takes the blocks of `target` off the list, freeing them if `release`.
void dropCallBlocks(std::jmp_buf *target, bool release) {
  if (!target || callBlockCount.load(std::memory_order_acquire) == 0)
    return;
  std::lock_guard<std::mutex> lock(blocksMutex);
  for (size_t i = callBlocks.size(); i-- > 0;) {
    if (callBlocks[i].second != target)
      continue;
    if (release)
      std::free(callBlocks[i].first);
    callBlocks[i] = callBlocks.back();
    callBlocks.pop_back();
  }
  callBlockCount.store(callBlocks.size(), std::memory_order_release);
}

/// Ends the call at its return point: its results are never built, so
/// what it allocated is garbage.
[[noreturn]] void leaveCall() {
  dropCallBlocks(assertReturn, /*release=*/true);
  std::longjmp(*assertReturn, 1);
}

/// libomp's function `name`, or null where libomp is not loaded (looked up
/// again then: it may be loaded after the first call).
template <typename Function>
Function ompFunction(std::atomic<Function> &cache, const char *name) {
  Function function = cache.load(std::memory_order_relaxed);
  if (!function) {
    function = reinterpret_cast<Function>(dlsym(RTLD_DEFAULT, name));
    cache.store(function, std::memory_order_relaxed);
  }
  return function;
}

/// The nesting of OpenMP parallel regions (inactive ones of one thread
/// included) around the calling thread; 0 where no libomp is loaded.
int ompLevel() {
  static std::atomic<int (*)()> cache{nullptr};
  auto get = ompFunction(cache, "omp_get_level");
  return get ? get() : 0;
}

/// Whether the calling thread runs a parallel region for another thread
/// (it is not thread 0 of some enclosing team): not the caller's thread.
bool isOmpWorker() {
  int level = ompLevel();
  if (level == 0)
    return false;
  static std::atomic<int (*)(int)> cache{nullptr};
  auto ancestor = ompFunction(cache, "omp_get_ancestor_thread_num");
  for (int l = 1; ancestor && l <= level; ++l)
    if (ancestor(l) != 0)
      return true;
  return false;
}

/// The state the calling thread's reports go to.
ErrorState &errorsHere() {
  if (regionErrors)
    return *regionErrors;
  return isOmpWorker() ? sharedErrors : callerErrors();
}

/// Prints the error and ends the process, or records it; true where the
/// caller is to return to assertReturn.
bool report(int64_t site, int64_t line, int64_t column, int64_t kind,
            int64_t count, int64_t details) {
  const char *where = reinterpret_cast<const char *>(site);
  std::string message = where ? where : "gather op";
  if (line > 0)
    message += ":" + std::to_string(line) + ":" + std::to_string(column);
  message +=
      ": " + mlir::gather::formatRuntimeError(
                 kind, count, reinterpret_cast<const int64_t *>(details));
  // Past a failed assert the program's own code is not safe to run (the
  // assert guarded what follows). Where errors are recorded and the caller
  // set a return point, the assert returns there: the rest of the call is
  // skipped. A parallel region cannot be left that way (libomp's team would
  // stay open), nor can a thread other than the caller's: there, and where
  // nothing records errors, the message, then the end of the process, as
  // MLIR's lowering of cf.assert ends it with abort() (which lost the
  // message it had put in stdout's buffer, under a crash report).
  // An assert in a loop body skips what it guards when the hook returns
  // (its second detail): in a parallel region, it is recorded and the
  // barrier after the loop leaves the call.
  bool isAssert = kind == static_cast<int64_t>(
                              mlir::gather::RuntimeErrorKind::AssertionFailed);
  bool recording = recordErrors.load();
  bool returns = isAssert && recording && assertReturn && ompLevel() == 0;
  bool skips = isAssert && count >= 2 && details &&
               reinterpret_cast<const int64_t *>(details)[1] == 1;
  bool defers = !returns && skips && recording;
  bool ends = isAssert && !returns && !defers;
  if (!recording || ends) {
    std::fprintf(stderr, "error: %s\n", message.c_str());
    std::fflush(stderr);
    // Other threads may be running the program still: no exit handlers.
    if (ends)
      std::_Exit(1);
    std::exit(1);
  }
  ErrorState &errors = errorsHere();
  std::lock_guard<std::mutex> lock(errors.mutex);
  if (!errors.hasError) {
    errors.hasError = true;
    errors.firstError = message;
  }
  if (defers)
    errors.assertPending.store(true, std::memory_order_release);
  return returns;
}
} // namespace

extern "C" void __gather_runtime_error(int64_t site, int64_t line,
                                       int64_t column, int64_t kind,
                                       int64_t count, int64_t details) {
  // From this frame, which holds no object a destructor must end.
  if (report(site, line, column, kind, count, details))
    leaveCall();
}

extern "C" void __gather_runtime_assert_barrier() {
  ErrorState *own = ownErrors.get();
  ErrorState *pending = nullptr;
  if (own && own->assertPending.load(std::memory_order_acquire))
    pending = own;
  else if (sharedErrors.assertPending.load(std::memory_order_acquire))
    pending = &sharedErrors;
  if (!pending || ompLevel() != 0)
    return;
  pending->assertPending.store(false);
  if (assertReturn)
    leaveCall();
  // No return point: the end of the process, with the recorded message.
  {
    std::lock_guard<std::mutex> lock(pending->mutex);
    std::fprintf(stderr, "error: %s\n", pending->firstError.c_str());
    std::fflush(stderr);
  }
  std::_Exit(1);
}

extern "C" void *__gather_runtime_error_state() { return &errorsHere(); }

extern "C" int32_t __gather_runtime_error_recorded() {
  if (!recordErrors.load())
    return 0;
  ErrorState &errors = errorsHere();
  std::lock_guard<std::mutex> lock(errors.mutex);
  return errors.hasError ? 1 : 0;
}

extern "C" void *__gather_runtime_adopt_error_state(void *state) {
  void *previous = regionErrors;
  regionErrors = static_cast<ErrorState *>(state);
  return previous;
}

extern "C" void *gather_runtime_set_assert_return(void *target) {
  if (ErrorState *own = ownErrors.get())
    own->assertPending.store(false, std::memory_order_relaxed);
  sharedErrors.assertPending.store(false, std::memory_order_relaxed);
  // The call of the outgoing return point has ended (or a nested one
  // starts): its blocks left it as results, or belong to its caller.
  dropCallBlocks(assertReturn, /*release=*/false);
  void *previous = assertReturn;
  assertReturn = static_cast<std::jmp_buf *>(target);
  return previous;
}

extern "C" void gather_runtime_advise_huge_pages(void *pointer, size_t size) {
  constexpr size_t kHugePageMinimum = size_t(4) << 20;
  if (!pointer || size < kHugePageMinimum)
    return;
  // Only whole pages inside the block.
  long pageSize = sysconf(_SC_PAGESIZE);
  uintptr_t page = pageSize > 0 ? static_cast<uintptr_t>(pageSize) : 4096;
  uintptr_t begin =
      (reinterpret_cast<uintptr_t>(pointer) + page - 1) & ~(page - 1);
  uintptr_t end = (reinterpret_cast<uintptr_t>(pointer) + size) & ~(page - 1);
  if (end > begin)
    (void)madvise(reinterpret_cast<void *>(begin), end - begin, MADV_HUGEPAGE);
}

extern "C" void *gather_runtime_malloc(size_t size) {
  void *pointer = std::malloc(size);
  gather_runtime_advise_huge_pages(pointer, size);
  if (pointer && assertReturn && recordErrors.load(std::memory_order_relaxed)) {
    std::lock_guard<std::mutex> lock(blocksMutex);
    callBlocks.emplace_back(pointer, assertReturn);
    callBlockCount.store(callBlocks.size(), std::memory_order_release);
  }
  return pointer;
}

extern "C" void gather_runtime_free(void *pointer) {
  if (pointer && callBlockCount.load(std::memory_order_acquire) != 0) {
    std::lock_guard<std::mutex> lock(blocksMutex);
    for (size_t i = callBlocks.size(); i-- > 0;) {
      if (callBlocks[i].first != pointer)
        continue;
      callBlocks[i] = callBlocks.back();
      callBlocks.pop_back();
      break;
    }
    callBlockCount.store(callBlocks.size(), std::memory_order_release);
  }
  std::free(pointer);
}

extern "C" void gather_runtime_set_record_errors(int record) {
  recordErrors.store(record);
}

extern "C" int gather_runtime_take_error(char *buffer, int64_t size) {
  // The thread's own error first; one a worker of another pipeline's region
  // recorded only where the thread has none.
  auto take = [&](ErrorState &errors) {
    if (!errors.hasError.load(std::memory_order_acquire))
      return false;
    std::lock_guard<std::mutex> lock(errors.mutex);
    if (!errors.hasError)
      return false;
    if (buffer && size > 0) {
      std::strncpy(buffer, errors.firstError.c_str(), size - 1);
      buffer[size - 1] = '\0';
    }
    errors.hasError = false;
    errors.firstError.clear();
    return true;
  };
  ErrorState *own = ownErrors.get();
  if ((own && take(*own)) || take(sharedErrors))
    return 1;
  if (buffer && size > 0)
    buffer[0] = '\0';
  return 0;
}
