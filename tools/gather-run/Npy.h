//===- Npy.h - minimal .npy reader and writer -------------------*- C++ -*-===//
//
// Part of the gather project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// numpy's .npy format, version 1-3, little-endian C-order arrays of the
// dtypes gather-run supports. Errors are returned as text, never thrown.
//
//===----------------------------------------------------------------------===//

#ifndef GATHER_TOOLS_GATHER_RUN_NPY_H
#define GATHER_TOOLS_GATHER_RUN_NPY_H

#include "gather/Runtime/GatherRuntime.h"

#include <cstddef>
#include <cstdint>
#include <new>
#include <string>
#include <vector>

namespace gather::npy {

/// Allocates on 64-byte boundaries: an array's rows then start where the
/// compiled code's own buffers (and bench/baseline.cpp's) do. malloc put
/// large blocks 16 bytes past one, so a 256-byte row spanned five cache
/// lines instead of four. Blocks of 4 MiB or more are advised for huge
/// pages, as the compiled code's results, numpy's arrays and the C++ peers'
/// inputs are: on 4 KiB pages the gather of W7 (bench/run.py: random
/// 256-byte rows of a 25.6 MB table) ran 1.02-1.16x slower.
template <typename T> struct LineAligned {
  using value_type = T;
  static constexpr std::align_val_t kAlign{64};
  LineAligned() = default;
  template <typename U> LineAligned(const LineAligned<U> &) {}
  T *allocate(std::size_t n) {
    T *p = static_cast<T *>(::operator new(n * sizeof(T), kAlign));
    gather_runtime_advise_huge_pages(p, n * sizeof(T));
    return p;
  }
  void deallocate(T *p, std::size_t) { ::operator delete(p, kAlign); }
  template <typename U> bool operator==(const LineAligned<U> &) const {
    return true;
  }
};

enum class DType { F16, F32, F64, I8, I16, I32, I64, U8, U16, U32, U64, Bool };

struct Array {
  DType dtype = DType::F32;
  std::vector<int64_t> shape;
  std::vector<char, LineAligned<char>> data; // Row-major bytes.
};

/// Element size in bytes.
int64_t byteSize(DType dtype);
/// numpy's descr string ("<f4").
std::string descr(DType dtype);

/// Reads `path`; on failure returns false and sets `error`.
bool read(const std::string &path, Array &array, std::string &error);
/// Writes `array` to `path`; on failure returns false and sets `error`.
bool write(const std::string &path, const Array &array, std::string &error);

} // namespace gather::npy

#endif // GATHER_TOOLS_GATHER_RUN_NPY_H
