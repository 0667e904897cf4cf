// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
// The row copy of the hand-written benchmark loops (baseline.cpp,
// row_copy_bound.cpp): chunks of 8 vector registers (512 bytes with
// AVX-512, 256 with AVX2), all loads before the stores, the rest by
// memcpy; what the compiled block copy does for blocks under 4 KiB. With
// AVX2 the chunks took 0.84-0.99 of the time of a call of glibc's memcpy
// per row on a Zen 1 (W1's random rows, 2 threads, six runs) and were
// neither faster nor slower on a Zen 3 within that VM's spread.
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
#elif defined(__AVX2__)
  for (; done + 256 <= bytes; done += 256) {
    __m256 r[8];
    for (int u = 0; u < 8; ++u)
      r[u] =
          _mm256_loadu_ps(reinterpret_cast<const float *>(f + done + 32 * u));
    for (int u = 0; u < 8; ++u)
      _mm256_storeu_ps(reinterpret_cast<float *>(t + done + 32 * u), r[u]);
  }
#endif
  std::memcpy(t + done, f + done, bytes - done);
}

/// copyRow with non-temporal (streaming) stores: the target's lines are
/// written without being read first and bypass the caches. The bytes up
/// to the target's first vector-aligned address, and the rest after the
/// last chunk, go by memcpy (a streaming store of a vector needs an
/// aligned address). The caller fences (_mm_sfence) before the data is read.
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
#elif defined(__AVX2__)
  done = std::min<int64_t>(bytes,
                           (32 - (reinterpret_cast<uintptr_t>(t) & 31)) & 31);
  std::memcpy(t, f, done);
  for (; done + 256 <= bytes; done += 256) {
    __m256 r[8];
    for (int u = 0; u < 8; ++u)
      r[u] =
          _mm256_loadu_ps(reinterpret_cast<const float *>(f + done + 32 * u));
    for (int u = 0; u < 8; ++u)
      _mm256_stream_ps(reinterpret_cast<float *>(t + done + 32 * u), r[u]);
  }
#endif
  std::memcpy(t + done, f + done, bytes - done);
}

#endif // GATHER_BENCH_ROW_COPY_H
