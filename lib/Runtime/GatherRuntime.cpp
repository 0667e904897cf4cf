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
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <mutex>
#include <string>

#include <sys/mman.h>
#include <unistd.h>

namespace {
std::atomic<int> recordErrors{0};
std::mutex errorMutex;
std::string firstError;
bool hasError = false;
} // namespace

extern "C" void __gather_runtime_error(int64_t site, int64_t line,
                                       int64_t column, int64_t kind,
                                       int64_t count, int64_t details) {
  const char *where = reinterpret_cast<const char *>(site);
  std::string message = where ? where : "gather op";
  if (line > 0)
    message += ":" + std::to_string(line) + ":" + std::to_string(column);
  message +=
      ": " + mlir::gather::formatRuntimeError(
                 kind, count, reinterpret_cast<const int64_t *>(details));
  // Past a failed assert the program's own code is not safe to run (the
  // assert guarded what follows): the message, then the end of the
  // process, as MLIR's lowering of cf.assert ends it with abort() (which
  // lost the message it had put in stdout's buffer, under a crash report).
  bool ends = kind == static_cast<int64_t>(
                          mlir::gather::RuntimeErrorKind::AssertionFailed);
  if (!recordErrors.load() || ends) {
    std::fprintf(stderr, "error: %s\n", message.c_str());
    std::fflush(stderr);
    // Other threads may be running the program still: no exit handlers.
    if (ends)
      std::_Exit(1);
    std::exit(1);
  }
  std::lock_guard<std::mutex> lock(errorMutex);
  if (!hasError) {
    hasError = true;
    firstError = message;
  }
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
  return pointer;
}

extern "C" void gather_runtime_set_record_errors(int record) {
  recordErrors.store(record);
}

extern "C" int gather_runtime_take_error(char *buffer, int64_t size) {
  std::lock_guard<std::mutex> lock(errorMutex);
  int had = hasError ? 1 : 0;
  if (buffer && size > 0) {
    std::strncpy(buffer, firstError.c_str(), size - 1);
    buffer[size - 1] = '\0';
  }
  hasError = false;
  firstError.clear();
  return had;
}
