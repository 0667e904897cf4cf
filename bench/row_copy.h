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

// One register of the widest vectors the target has (none below AVX2).
#if defined(__AVX512F__)
constexpr int64_t kRegisterBytes = 64;
using Register = __m512;
static inline Register loadRegister(const char *p) {
  return _mm512_loadu_ps(p);
}
static inline void storeRegister(char *p, Register r) {
  _mm512_storeu_ps(p, r);
}
static inline void streamRegister(char *p, Register r) {
  _mm512_stream_ps(reinterpret_cast<float *>(p), r);
}
#elif defined(__AVX2__)
constexpr int64_t kRegisterBytes = 32;
using Register = __m256;
static inline Register loadRegister(const char *p) {
  return _mm256_loadu_ps(reinterpret_cast<const float *>(p));
}
static inline void storeRegister(char *p, Register r) {
  _mm256_storeu_ps(reinterpret_cast<float *>(p), r);
}
static inline void streamRegister(char *p, Register r) {
  _mm256_stream_ps(reinterpret_cast<float *>(p), r);
}
#else
constexpr int64_t kRegisterBytes = 0;
#endif

/// Copies the whole chunks of 8 registers from `done` on (8 loads, then 8
/// stores, streaming ones with `Streaming`); returns the bytes copied up to
/// the end of the last chunk.
template <bool Streaming>
static inline int64_t copyChunks(char *t, const char *f, int64_t done,
                                 int64_t bytes) {
#if defined(__AVX2__) || defined(__AVX512F__)
  for (; done + 8 * kRegisterBytes <= bytes; done += 8 * kRegisterBytes) {
    Register r[8];
    for (int u = 0; u < 8; ++u)
      r[u] = loadRegister(f + done + kRegisterBytes * u);
    for (int u = 0; u < 8; ++u) {
      if (Streaming)
        streamRegister(t + done + kRegisterBytes * u, r[u]);
      else
        storeRegister(t + done + kRegisterBytes * u, r[u]);
    }
  }
#endif
  return done;
}

static inline void copyRow(void *to, const void *from, int64_t bytes) {
  char *t = static_cast<char *>(to);
  const char *f = static_cast<const char *>(from);
  int64_t done = copyChunks<false>(t, f, 0, bytes);
  std::memcpy(t + done, f + done, bytes - done);
}

/// copyRow with non-temporal (streaming) stores: the target's lines are
/// written without being read first and bypass the caches. The bytes up
/// to the target's first register-aligned address, and the rest after the
/// last chunk, go by memcpy (a streaming store of a vector needs an
/// aligned address). The caller fences (_mm_sfence) before the data is read.
static inline void copyRowStreaming(void *to, const void *from, int64_t bytes) {
  char *t = static_cast<char *>(to);
  const char *f = static_cast<const char *>(from);
  int64_t done = 0;
  if (kRegisterBytes) {
    uintptr_t misaligned =
        reinterpret_cast<uintptr_t>(t) % std::max<int64_t>(kRegisterBytes, 1);
    done =
        std::min<int64_t>(bytes, misaligned ? kRegisterBytes - misaligned : 0);
    std::memcpy(t, f, done);
  }
  done = copyChunks<true>(t, f, done, bytes);
  std::memcpy(t + done, f + done, bytes - done);
}

#endif // GATHER_BENCH_ROW_COPY_H
