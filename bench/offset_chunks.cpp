// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
// Where resolving a chunk of offsets before its reads pays for vector rows
// of scattered reads: the measurement behind
// CpuTarget::offsetChunkMinReadBytes (the L2). W8's loop of bench/run.py
// (1024 rows of 1024 points, (row, column) pairs interleaved, i64 indices,
// f32 table) on square tables of T x T floats of 4 KiB to 4 MiB, in two
// forms each unchecked and checked (negative indices wrapped; checked: an
// invalid pair reads element 0 and raises the row's flag): "fused", each
// point's pair read, resolved and its element loaded in one loop, and
// "chunked", a row's offsets resolved into a buffer of 512 first, then its
// elements loaded in a loop of loads alone (VectorRows.cpp's
// offsetChunk). Outputs 2 MiB-aligned with huge-page advice, as the
// compiled code's allocator gives; the four variants alternated, each time
// the best of 3 rounds of medians of 15 calls; every output checked
// against the table. Prints fused / chunked: above 1, chunks are faster.
//
//   g++ -O3 -march=native -fopenmp bench/offset_chunks.cpp -o /tmp/chunks
//   OMP_NUM_THREADS=2 /tmp/chunks
#include "host.h"

#include <omp.h>
#include <sys/mman.h>

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <random>

namespace {
constexpr size_t kHugePage = 2u << 20;
constexpr int64_t kRows = 1024, kPoints = 1024, kChunk = 512;

template <typename T> T *allocate(size_t count) {
  size_t bytes = (count * sizeof(T) + kHugePage - 1) / kHugePage * kHugePage;
  void *p = std::aligned_alloc(kHugePage, bytes);
  (void)madvise(p, bytes, MADV_HUGEPAGE);
  std::memset(p, 0, bytes);
  return static_cast<T *>(p);
}

// Branch-free, as the compiled code: gcc compiled `v < 0 ? v + size : v`
// in the unchecked fused loop to a branch, mispredicted half the time with
// random signs (2x slower).
inline int64_t wrap(int64_t v, int64_t size) { return v + (size & (v >> 63)); }

// A row's points resolved and loaded one at a time.
template <bool Checked>
bool fused(const float *table, const int64_t *idx, float *out, int64_t t) {
  bool bad = false;
#pragma omp parallel for reduction(|| : bad)
  for (int64_t n = 0; n < kRows; ++n) {
    const int64_t *pairs = idx + n * kPoints * 2;
    float *row = out + n * kPoints;
    bool rowBad = false;
    for (int64_t k = 0; k < kPoints; ++k) {
      int64_t y = wrap(pairs[2 * k], t), x = wrap(pairs[2 * k + 1], t);
      int64_t offset = y * t + x;
      if (Checked) {
        bool ok = static_cast<uint64_t>(y) < static_cast<uint64_t>(t) &&
                  static_cast<uint64_t>(x) < static_cast<uint64_t>(t);
        rowBad |= !ok;
        offset = ok ? offset : 0;
      }
      row[k] = table[offset];
    }
    bad |= rowBad;
  }
  return !bad;
}

// A chunk's offsets first, then its loads.
template <bool Checked>
bool chunked(const float *table, const int64_t *idx, float *out, int64_t t) {
  bool bad = false;
#pragma omp parallel for reduction(|| : bad)
  for (int64_t n = 0; n < kRows; ++n) {
    const int64_t *pairs = idx + n * kPoints * 2;
    float *row = out + n * kPoints;
    int64_t offsets[kChunk];
    int64_t valid = -1;
    for (int64_t c = 0; c < kPoints; c += kChunk) {
      for (int64_t k = 0; k < kChunk; ++k) {
        int64_t y = wrap(pairs[2 * (c + k)], t);
        int64_t x = wrap(pairs[2 * (c + k) + 1], t);
        int64_t offset = y * t + x;
        if (Checked) {
          int64_t ok = -static_cast<int64_t>(
              (static_cast<uint64_t>(y) < static_cast<uint64_t>(t)) &
              (static_cast<uint64_t>(x) < static_cast<uint64_t>(t)));
          valid &= ok;
          offset &= ok;
        }
        offsets[k] = offset;
      }
      for (int64_t k = 0; k < kChunk; ++k)
        row[c + k] = table[offsets[k]];
    }
    bad |= valid != -1;
  }
  return !bad;
}
} // namespace

int main() {
  const int64_t maxT = 1024;
  float *table = allocate<float>(maxT * maxT);
  int64_t *idx = allocate<int64_t>(kRows * kPoints * 2);
  float *out = allocate<float>(kRows * kPoints);
  std::mt19937_64 rng(0);
  for (int64_t i = 0; i < maxT * maxT; ++i)
    table[i] = static_cast<float>(rng() % 1000);
  std::printf("%d threads; times in ms\n", omp_get_max_threads());
  std::printf("| table | fused | chunked | fused / chunked | fused checked | "
              "chunked checked | fused / chunked, checked |\n");
  std::printf("| ---: | ---: | ---: | ---: | ---: | ---: | ---: |\n");
  // Tables of 4 KiB to 4 MiB, twice the size each from 256 KiB on.
  for (int64_t t : {32, 64, 128, 256, 362, 512, 724, 1024}) {
    // Indices from -t to t - 1: negative ones count from the end.
    for (int64_t i = 0; i < kRows * kPoints * 2; ++i)
      idx[i] = static_cast<int64_t>(rng() % (2 * t)) - t;
    auto check = [&] {
      for (int64_t n = 0; n < kRows * kPoints; ++n) {
        int64_t y = wrap(idx[2 * n], t), x = wrap(idx[2 * n + 1], t);
        if (out[n] != table[y * t + x]) {
          std::fprintf(stderr, "table %ld: output %ld differs\n", long(t),
                       long(n));
          std::exit(1);
        }
      }
      std::memset(out, 0, kRows * kPoints * sizeof(float));
    };
    using Form = bool (*)(const float *, const int64_t *, float *, int64_t);
    Form forms[4] = {fused<false>, chunked<false>, fused<true>, chunked<true>};
    for (Form form : forms) {
      if (!form(table, idx, out, t)) {
        std::fprintf(stderr, "table %ld: a valid index was reported\n",
                     long(t));
        return 1;
      }
      check();
    }
    double best[4] = {1e30, 1e30, 1e30, 1e30};
    for (int round = 0; round < 3; ++round)
      for (int f = 0; f < 4; ++f)
        best[f] = std::min(best[f],
                           medianMs([&] { forms[f](table, idx, out, t); }, 15));
    std::printf("| %ld KiB | %.3f | %.3f | %.2f | %.3f | %.3f | %.2f |\n",
                long(t * t * 4 / 1024), best[0], best[1], best[0] / best[1],
                best[2], best[3], best[2] / best[3]);
  }
  return 0;
}
