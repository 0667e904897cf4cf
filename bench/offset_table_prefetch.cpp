// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
// Whether offset-table rows pay for software prefetch on this CPU: the
// measurement behind CpuTarget::prefetchOffsetTables. W5's loop of
// bench/run.py (NHWC 32x56x56x64 f32 image, 8 index rows of 16 random
// (n, c) pairs resolved into offsets first, output 8x56x56x16) in seven
// forms, each as the compiled code or baseline.cpp writes it: pixels in
// tiles of 8 with each index row walking the tile, prefetching each read's
// offset one pixel ahead, one tile ahead, or not at all; tiles of 28 (what
// a 512 KiB L2 gives, CpuTarget::offsetTileFootprintBytes) with and
// without the prefetch one pixel ahead; and one pixel at a time with and
// without it. With AVX-512, five more: the rows as Intel's server cores
// compile them (CpuTarget::gatherOffsetRows: two vgatherqps and one store
// a row) in tiles of 8 and 28 and a pixel at a time without prefetch, and
// in tiles of 8 and a pixel at a time with 16 prefetches a row (a tile or
// a pixel ahead). The image is
// 64-byte aligned (numpy's arrays are not always: more lines a pixel);
// FLUSH MiB (default 64) are read between calls so that a call finds the
// image in memory, or, with 0, nothing is, and every call finds it where
// the last one left it (in the caches, as bench/paired.py's turns do).
// Calls alternate form by form; each output is checked against a plain
// loop. Prints each form's median time and the median over the calls of
// (form / tiled without prefetch) with quartiles: above 1, the form is
// slower than the tiles without prefetch.
//
//   g++ -O3 -march=native -fopenmp bench/offset_table_prefetch.cpp -o /tmp/otp
//   OMP_NUM_THREADS=2 /tmp/otp [CALLS [FLUSH]]
#include <immintrin.h>
#include <omp.h>

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <random>
#include <vector>

namespace {
constexpr int64_t N = 32, H = 56, W = 56, C = 64, P = 16, R = 8;
const float *image;
float *out;
int64_t offset[R][P];

// T: pixels a tile; D: pixels ahead of each read's prefetch (0: none).
template <int64_t T, int64_t D> void gather() {
#pragma omp parallel for
  for (int64_t h = 0; h < H; ++h)
    for (int64_t x0 = 0; x0 < W; x0 += T)
      for (int64_t r = 0; r < R; ++r)
        for (int64_t x = x0; x < x0 + T; ++x) {
          const float *pixel = &image[(h * W + x) * C];
          const float *ahead = &image[std::min(h * W + x + D, H * W - 1) * C];
          for (int64_t p = 0; p < P; ++p) {
            if (D)
              __builtin_prefetch(ahead + offset[r][p]);
            out[((r * H + h) * W + x) * P + p] = pixel[offset[r][p]];
          }
        }
}

#ifdef __AVX512F__
// The rows gathered (CpuTarget::gatherOffsetRows): each row's 16 offsets
// as two vectors, two vgatherqps of 8 lanes and one 64-byte store a pixel;
// D > 0: each row also prefetches its 16 offsets D pixels ahead.
template <int64_t T, int64_t D> void gathered() {
#pragma omp parallel for
  for (int64_t h = 0; h < H; ++h)
    for (int64_t x0 = 0; x0 < W; x0 += T)
      for (int64_t r = 0; r < R; ++r) {
        const __m512i low = _mm512_loadu_si512(&offset[r][0]);
        const __m512i high = _mm512_loadu_si512(&offset[r][8]);
        for (int64_t x = x0; x < x0 + T; ++x) {
          const float *pixel = &image[(h * W + x) * C];
          if (D) {
            const float *ahead = &image[std::min(h * W + x + D, H * W - 1) * C];
            for (int64_t p = 0; p < P; ++p)
              _mm_prefetch(reinterpret_cast<const char *>(ahead + offset[r][p]),
                           _MM_HINT_T0);
          }
          const __m256 a = _mm512_i64gather_ps(low, pixel, 4);
          const __m256 b = _mm512_i64gather_ps(high, pixel, 4);
          _mm512_storeu_ps(&out[((r * H + h) * W + x) * P],
                           _mm512_insertf32x8(_mm512_castps256_ps512(a), b, 1));
        }
      }
}
#endif

struct Form {
  const char *name;
  void (*run)();
};
const Form kForms[] = {
    {"tiles of 8, no prefetch", gather<8, 0>},
    {"tiles of 8, prefetch 1 pixel ahead", gather<8, 1>},
    {"tiles of 8, prefetch 1 tile ahead", gather<8, 8>},
    {"tiles of 28, no prefetch", gather<28, 0>},
    {"tiles of 28, prefetch 1 pixel ahead", gather<28, 1>},
    {"pixel at a time, no prefetch", gather<1, 0>},
    {"pixel at a time, prefetch 1 pixel ahead", gather<1, 1>},
#ifdef __AVX512F__
    {"gathered, tiles of 8, no prefetch", gathered<8, 0>},
    {"gathered, tiles of 8, prefetch 1 tile ahead", gathered<8, 8>},
    {"gathered, tiles of 28, no prefetch", gathered<28, 0>},
    {"gathered, pixel at a time, no prefetch", gathered<1, 0>},
    {"gathered, pixel at a time, prefetch 1 pixel ahead", gathered<1, 1>},
#endif
};
constexpr int kNumForms = sizeof(kForms) / sizeof(kForms[0]);

double median(std::vector<double> v, double q = 0.5) {
  std::sort(v.begin(), v.end());
  return v[size_t(q * (v.size() - 1))];
}
} // namespace

int main(int argc, char **argv) {
  int calls = argc > 1 ? std::atoi(argv[1]) : 60;
  size_t imageBytes = N * H * W * C * sizeof(float);
  float *data = static_cast<float *>(std::aligned_alloc(64, imageBytes));
  out = static_cast<float *>(
      std::aligned_alloc(64, R * H * W * P * sizeof(float)));
  std::mt19937_64 rng(0);
  for (int64_t i = 0; i < N * H * W * C; ++i)
    data[i] = float(rng() % 1000003);
  image = data;
  for (int64_t r = 0; r < R; ++r)
    for (int64_t p = 0; p < P; ++p)
      offset[r][p] = int64_t(rng() % N) * H * W * C + int64_t(rng() % C);
  std::vector<float> want(R * H * W * P);
  for (int64_t r = 0; r < R; ++r)
    for (int64_t q = 0; q < H * W; ++q)
      for (int64_t p = 0; p < P; ++p)
        want[(r * H * W + q) * P + p] = data[q * C + offset[r][p]];
  size_t flushBytes = size_t(argc > 2 ? std::atoi(argv[2]) : 64) << 20;
  char *flush = static_cast<char *>(std::malloc(flushBytes));
  std::memset(flush, 1, flushBytes);
  volatile long sink = 0;
  std::vector<std::vector<double>> ms(kNumForms);
  for (int call = 0; call < calls; ++call)
    for (int f = 0; f < kNumForms; ++f) {
      long sum = 0;
#pragma omp parallel for reduction(+ : sum)
      for (size_t i = 0; i < flushBytes; i += 64)
        sum += flush[i];
      sink = sink + sum;
      std::memset(out, 0, want.size() * sizeof(float));
      auto t0 = std::chrono::steady_clock::now();
      kForms[f].run();
      ms[f].push_back(std::chrono::duration<double, std::milli>(
                          std::chrono::steady_clock::now() - t0)
                          .count());
      if (std::memcmp(out, want.data(), want.size() * sizeof(float))) {
        std::printf("%s: wrong output\n", kForms[f].name);
        return 1;
      }
    }
  std::printf("threads=%d, calls=%d of each, alternated, %zu MiB read "
              "between calls\n",
              omp_get_max_threads(), calls, flushBytes >> 20);
  std::printf(
      "| form | ms (median) | form / tiles without prefetch | quartiles |\n");
  std::printf("| --- | ---: | ---: | ---: |\n");
  for (int f = 0; f < kNumForms; ++f) {
    std::vector<double> ratio;
    for (int call = 0; call < calls; ++call)
      ratio.push_back(ms[f][call] / ms[0][call]);
    std::printf("| %s | %.3f | %.3f | %.3f-%.3f |\n", kForms[f].name,
                median(ms[f]), median(ratio), median(ratio, 0.25),
                median(ratio, 0.75));
  }
  return 0;
}
