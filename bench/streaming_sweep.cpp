// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
// Where non-temporal (streaming) stores pay for a block gather's rows: the
// measurement behind CpuTarget::streamingStoreMinBytes (half of the L3).
// For row sizes from 256 B to 8 KiB and outputs from an eighth of the L3
// to 6 times it, it copies rows picked at random (uniform, seeded) from a
// 160 MB table into a 2 MiB-aligned output (huge-page advice, as the
// compiled code's allocator gives), with the prefetch of the compiled
// block copy (128 lines ahead) and chunks of 8 vector registers
// (row_copy.h), once with plain stores and once with streaming ones
// (then sfence); and both again followed by a consumer that reads the
// whole output (a vectorized sum). Each time is the best of 3 rounds of
// medians of 15 calls, the four variants alternated; every output is
// checked against the table. Prints plain / streaming: above 1, streaming
// is faster.
//
//   g++ -O3 -march=native -fopenmp bench/streaming_sweep.cpp -o /tmp/sweep
//   OMP_NUM_THREADS=2 /tmp/sweep [BYTES]
//
// BYTES replaces the L3 size as the unit of the outputs (for a machine whose
// reported L3 is shared with others, or to place the sizes elsewhere).
#include "host.h"
#include "row_copy.h"

#include <immintrin.h>
#include <omp.h>
#include <sys/mman.h>

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <random>
#include <vector>

namespace {
constexpr size_t kHugePage = 2u << 20;

float *allocate(size_t bytes) {
  bytes = (bytes + kHugePage - 1) / kHugePage * kHugePage;
  void *p = std::aligned_alloc(kHugePage, bytes);
  (void)madvise(p, bytes, MADV_HUGEPAGE);
  std::memset(p, 0, bytes);
  return static_cast<float *>(p);
}

volatile float sink;
} // namespace

int main(int argc, char **argv) {
  long l3 = argc > 1 ? std::atol(argv[1]) : hostL3Bytes();
  const size_t tableBytes = 160u << 20;
  float *table = allocate(tableBytes);
  std::mt19937_64 rng(0);
  for (size_t i = 0; i < tableBytes / sizeof(float); ++i)
    table[i] = static_cast<float>(rng() % 1000);
  const double fractions[] = {0.125, 0.25, 0.375, 0.5, 0.75, 1, 2, 6};
  float *out = allocate(static_cast<size_t>(6 * l3) + kHugePage);
  std::printf("%d threads, L3 %ld bytes (host: %ld); times in ms\n",
              omp_get_max_threads(), l3, hostL3Bytes());
  std::printf("| row (B) | output / L3 | plain | streaming | plain / streaming "
              "| + read: plain | streaming | plain / streaming |\n");
  std::printf("| ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |\n");
  for (long rowBytes : {256l, 1024l, 3072l, 8192l})
    for (double fraction : fractions) {
      long rowFloats = rowBytes / sizeof(float);
      long copies = static_cast<long>(fraction * l3) / rowBytes;
      long tableRows = tableBytes / rowBytes;
      std::vector<long> picks(copies);
      for (long &p : picks)
        p = rng() % tableRows;
      long ahead = std::max<long>(1, 128 * 64 / rowBytes);
      auto gather = [&](bool streaming) {
#pragma omp parallel
        {
#pragma omp for schedule(static)
          for (long c = 0; c < copies; ++c) {
            if (c + ahead < copies) {
              const char *row = reinterpret_cast<const char *>(
                  table + picks[c + ahead] * rowFloats);
              for (long line = 0; line < rowBytes; line += 64)
                _mm_prefetch(row + line, _MM_HINT_T0);
            }
            if (streaming)
              copyRowStreaming(out + c * rowFloats,
                               table + picks[c] * rowFloats, rowBytes);
            else
              copyRow(out + c * rowFloats, table + picks[c] * rowFloats,
                      rowBytes);
          }
          if (streaming)
            _mm_sfence();
        }
      };
      auto readAll = [&] {
        long n = copies * rowFloats;
        float total = 0;
#pragma omp parallel for simd reduction(+ : total)
        for (long i = 0; i < n; ++i)
          total += out[i];
        sink = total;
      };
      double best[4] = {1e30, 1e30, 1e30, 1e30};
      for (int round = 0; round < 3; ++round) {
        best[0] = std::min(best[0], medianMs([&] { gather(false); }, 15));
        best[1] = std::min(best[1], medianMs([&] { gather(true); }, 15));
        best[2] = std::min(best[2], medianMs(
                                        [&] {
                                          gather(false);
                                          readAll();
                                        },
                                        15));
        best[3] = std::min(best[3], medianMs(
                                        [&] {
                                          gather(true);
                                          readAll();
                                        },
                                        15));
      }
      for (long c = 0; c < copies; ++c)
        if (std::memcmp(out + c * rowFloats, table + picks[c] * rowFloats,
                        rowBytes)) {
          std::fprintf(stderr, "wrong output\n");
          return 1;
        }
      std::printf("| %ld | %.3g | %.3f | %.3f | %.2f | %.3f | %.3f | %.2f |\n",
                  rowBytes, fraction, best[0], best[1], best[0] / best[1],
                  best[2], best[3], best[2] / best[3]);
      std::fflush(stdout);
    }
  return 0;
}
