// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
// The row copy of the hand-written benchmark loops (baseline.cpp,
// row_copy_bound.cpp): 512-byte chunks through 8 AVX-512 registers, all
// loads before the stores, the rest by memcpy; faster than a call of memcpy
// per row of a gather on the benchmark machine, and what the compiled block
// copy does for blocks under 4 KiB. Without AVX-512 the whole row goes by
// memcpy (glibc's AVX2 copy; 256-byte chunks of AVX2 registers were neither
// faster nor slower on the Zen 3 within that VM's spread).
#ifndef GATHER_BENCH_ROW_COPY_H
#define GATHER_BENCH_ROW_COPY_H

#include <immintrin.h>

#include <algorithm>
#include <cstdint>
#include <cstring>

static inline void copyRow(void *to, const void *from, int64_t bytes) {
  char *t = static_cast<char *>(to);
  const char *f = static_cast<const char *>(from);
  int64_t done = 0;
#ifdef __AVX512F__
  for (; done + 512 <= bytes; done += 512) {
    __m512 r[8];
    for (int u = 0; u < 8; ++u)
      r[u] = _mm512_loadu_ps(f + done + 64 * u);
    for (int u = 0; u < 8; ++u)
      _mm512_storeu_ps(t + done + 64 * u, r[u]);
  }
#endif
  std::memcpy(t + done, f + done, bytes - done);
}

/// copyRow with non-temporal (streaming) stores: the target's lines are
/// written without being read first and bypass the caches. The bytes up
/// to the target's first 64-byte boundary, and the rest after the last
/// chunk, go by memcpy (a streaming store of a vector needs an aligned
/// address). The caller fences (_mm_sfence) before the data is read.
static inline void copyRowStreaming(void *to, const void *from, int64_t bytes) {
  char *t = static_cast<char *>(to);
  const char *f = static_cast<const char *>(from);
  int64_t done = 0;
#ifdef __AVX512F__
  done = std::min<int64_t>(bytes,
                           (64 - (reinterpret_cast<uintptr_t>(t) & 63)) & 63);
  std::memcpy(t, f, done);
  for (; done + 512 <= bytes; done += 512) {
    __m512 r[8];
    for (int u = 0; u < 8; ++u)
      r[u] = _mm512_loadu_ps(f + done + 64 * u);
    for (int u = 0; u < 8; ++u)
      _mm512_stream_ps(reinterpret_cast<float *>(t + done + 64 * u), r[u]);
  }
#endif
  std::memcpy(t + done, f + done, bytes - done);
}

#endif // GATHER_BENCH_ROW_COPY_H
