// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
// How close W5 (multiaxis over axes [0, 3] of an NHWC 32x56x56x64 f32 image,
// 16 (n, c) pairs per index row) can come to the memory work it cannot
// avoid, whatever code does it. Every output element of a pixel reads one
// float of that pixel's 256-byte channel row of image n; the rows' cache
// lines a pixel needs are the same for every pixel (the distinct (n, c / 16)
// of all pairs), so a call must bring in at least those lines of every
// pixel, however it orders its loads. Times, in alternating rounds on the
// same threads (OpenMP static schedule over the image rows, as
// bench/baseline.cpp's W5):
//   loop:           bench/baseline.cpp's unchecked W5 loop (offset table,
//                   pixels outermost);
//   loop prefetch:  the same, each read also prefetching its offset in the
//                   next pixel (the compiled code's loop before it took
//                   tiles of pixels, which it and baseline.cpp's prefetch
//                   variants now do);
//   lines:          one load of each needed line of every pixel, summed, no
//                   stores: the least memory work of a call;
//   lines prefetch: the same with the next pixel's lines prefetched;
//   write:          the output's bytes stored in order, which W5x64 (12.8
//                   MB of output, 8 times W5's, from the same lines) adds;
//   table:          a sum over the whole image in order (vector loads): the
//                   image's bytes at streaming bandwidth;
// for 8 index rows (W5) and 64 (W5x64), and prints each median and
// loop prefetch / (lines prefetch + write): how far the compiled code's
// loop is from the memory work it cannot avoid. The loops' output is
// checked against a plain loop.
//
//   g++ -O3 -march=native -fopenmp bench/multiaxis_bound.cpp -o /tmp/mabound
//   OMP_NUM_THREADS=2 /tmp/mabound [RUNS] [ROUNDS]
#include <omp.h>

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <functional>
#include <random>
#include <set>
#include <vector>

namespace {
constexpr int64_t N = 32, H = 56, W = 56, C = 64, P = 16;
constexpr int64_t kLineFloats = 16;

struct Problem {
  int64_t rows;
  std::vector<int64_t> offset; // rows x P: n * H * W * C + c
  std::vector<int64_t> lines;  // the distinct line starts among the offsets
  std::vector<float> out, want, sums;
};

Problem make(const std::vector<float> &image, int64_t rows,
             std::mt19937_64 &rng) {
  Problem p{rows};
  std::set<int64_t> lines;
  for (int64_t k = 0; k < rows * P; ++k) {
    int64_t n = rng() % N, c = rng() % C;
    p.offset.push_back(n * H * W * C + c);
    lines.insert(n * H * W * C + c / kLineFloats * kLineFloats);
  }
  p.lines.assign(lines.begin(), lines.end());
  p.out.assign(rows * H * W * P, 0.0f);
  p.sums.assign(H * W, 0.0f);
  for (int64_t r = 0; r < rows; ++r)
    for (int64_t h = 0; h < H; ++h)
      for (int64_t x = 0; x < W; ++x)
        for (int64_t q = 0; q < P; ++q)
          p.want.push_back(image[(h * W + x) * C + p.offset[r * P + q]]);
  return p;
}

// Prefetch: each read also prefetches its offset (its line) in the next
// pixel, the last pixel's at the end, as the compiled code does.
template <bool Prefetch>
void loop(const std::vector<float> &image, Problem &p) {
  const int64_t R = p.rows;
  const int64_t *offset = p.offset.data();
  float *out = p.out.data();
#pragma omp parallel for schedule(static)
  for (int64_t h = 0; h < H; ++h)
    for (int64_t x = 0; x < W; ++x) {
      const float *pixel = &image[(h * W + x) * C];
      const float *ahead = &image[std::min(h * W + x + 1, H * W - 1) * C];
      for (int64_t r = 0; r < R; ++r)
        for (int64_t q = 0; q < P; ++q) {
          if (Prefetch)
            __builtin_prefetch(ahead + offset[r * P + q]);
          out[((r * H + h) * W + x) * P + q] = pixel[offset[r * P + q]];
        }
    }
}

template <bool Prefetch>
void lines(const std::vector<float> &image, Problem &p) {
  const int64_t L = p.lines.size();
  const int64_t *line = p.lines.data();
  float *sums = p.sums.data();
#pragma omp parallel for schedule(static)
  for (int64_t h = 0; h < H; ++h)
    for (int64_t x = 0; x < W; ++x) {
      const float *pixel = &image[(h * W + x) * C];
      const float *ahead = &image[std::min(h * W + x + 1, H * W - 1) * C];
      float s = 0;
      for (int64_t l = 0; l < L; ++l) {
        if (Prefetch)
          __builtin_prefetch(ahead + line[l]);
        s += pixel[line[l]];
      }
      sums[h * W + x] = s;
    }
}

void write(Problem &p) {
  const int64_t n = p.out.size();
  float *out = p.out.data();
#pragma omp parallel for simd schedule(static)
  for (int64_t k = 0; k < n; ++k)
    out[k] = static_cast<float>(k);
}

uint32_t table(const std::vector<float> &image) {
  // The floats' bits summed as integers: an add chain the compiler may
  // reorder into vector lanes (a float sum would time its adds' latency).
  const int64_t n = image.size();
  const uint32_t *bits = reinterpret_cast<const uint32_t *>(image.data());
  uint32_t s = 0;
#pragma omp parallel for schedule(static) reduction(+ : s)
  for (int64_t k = 0; k < n; ++k)
    s += bits[k];
  return s;
}

double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  return v[v.size() / 2];
}
} // namespace

int main(int argc, char **argv) {
  int runs = argc > 1 ? std::atoi(argv[1]) : 21;
  int rounds = argc > 2 ? std::atoi(argv[2]) : 3;
  std::mt19937_64 rng(0);
  std::vector<float> image(N * H * W * C);
  for (float &v : image)
    v = static_cast<float>(rng() % 1000);
  std::printf("threads=%d, %d runs x %d rounds, medians in ms\n",
              omp_get_max_threads(), runs, rounds);
  std::printf("| workload | needed lines per pixel | MB of lines per call "
              "| loop | loop prefetch | lines | lines prefetch | write | table "
              "| loop prefetch / (lines prefetch + write) | table GB/s |\n");
  std::printf("| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: "
              "| ---: | ---: |\n");
  volatile uint32_t sink = 0;
  for (int64_t rows : {8, 64}) {
    Problem p = make(image, rows, rng);
    for (bool prefetch : {false, true}) {
      std::fill(p.out.begin(), p.out.end(), 0.0f);
      prefetch ? loop<true>(image, p) : loop<false>(image, p);
      if (p.out != p.want) {
        std::fprintf(stderr, "rows=%ld: the loop's output is wrong\n",
                     static_cast<long>(rows));
        return 1;
      }
    }
    std::vector<std::function<void()>> variants = {
        [&] { loop<false>(image, p); },
        [&] { loop<true>(image, p); },
        [&] { lines<false>(image, p); },
        [&] { lines<true>(image, p); },
        [&] { write(p); },
        [&] { sink = sink + table(image); }};
    std::vector<std::vector<double>> ms(variants.size());
    for (int round = 0; round < rounds; ++round)
      for (size_t v = 0; v < variants.size(); ++v) {
        variants[v](); // its data back in the caches, as the others'
        for (int k = 0; k < runs; ++k) {
          auto t0 = std::chrono::steady_clock::now();
          variants[v]();
          ms[v].push_back(std::chrono::duration<double, std::milli>(
                              std::chrono::steady_clock::now() - t0)
                              .count());
        }
      }
    double m[6];
    for (int v = 0; v < 6; ++v)
      m[v] = median(ms[v]);
    double mb = static_cast<double>(p.lines.size()) * H * W * 64 / 1e6;
    double tableMb = image.size() * sizeof(float) / 1e6;
    std::printf("| %s | %zu | %.1f | %.3f | %.3f | %.3f | %.3f | %.3f | %.3f "
                "| %.2f | %.1f |\n",
                rows == 8 ? "W5" : "W5x64", p.lines.size(), mb, m[0], m[1],
                m[2], m[3], m[4], m[5], m[1] / (m[3] + m[4]), tableMb / m[5]);
  }
  return 0;
}
