// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
// What an element gather costs on this CPU, by instruction: the W3 pattern
// (gather.elements along axis 1 of a 4096x4096 f32 table with 4096x1024
// i64 indices, i.e. torch.gather) as
//   scalar:    one load per element, auto-vectorization off;
//   avx2:      _mm256_i64gather_ps, 4 elements per instruction;
//   avx512:    _mm512_i64gather_ps, 8 elements per instruction;
//   avx512x2:  two _mm512_i64gather_ps per step (16 elements), as the
//              compiled kernel issues them;
// each with the indices read and the output written the same way, on one
// thread, and again on a table row small enough for L1 (64 floats) to
// separate the instruction's cost from the memory's. Prints nanoseconds per
// element and checks every result against the scalar loop.
//
//   g++ -O3 -march=native bench/hardware_gather.cpp -o /tmp/hwgather
//   /tmp/hwgather [RUNS]
#include <immintrin.h>

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <random>
#include <vector>

namespace {
constexpr int64_t Rows = 4096, Picks = 1024;

struct Problem {
  int64_t rowLength;
  std::vector<float> table;
  std::vector<int64_t> idx;
  std::vector<float> out;
};

Problem make(int64_t rowLength) {
  Problem p{rowLength, std::vector<float>(Rows * rowLength),
            std::vector<int64_t>(Rows * Picks),
            std::vector<float>(Rows * Picks)};
  std::mt19937_64 rng(0);
  for (float &v : p.table)
    v = static_cast<float>(rng() % 1000003);
  for (int64_t &i : p.idx)
    i = static_cast<int64_t>(rng() % rowLength);
  return p;
}

__attribute__((optimize("no-tree-vectorize"), noinline)) void
scalar(Problem &p) {
  for (int64_t r = 0; r < Rows; ++r) {
    const float *row = p.table.data() + r * p.rowLength;
    const int64_t *ids = p.idx.data() + r * Picks;
    float *out = p.out.data() + r * Picks;
    for (int64_t k = 0; k < Picks; ++k)
      out[k] = row[ids[k]];
  }
}

__attribute__((noinline)) void avx2(Problem &p) {
  for (int64_t r = 0; r < Rows; ++r) {
    const float *row = p.table.data() + r * p.rowLength;
    const int64_t *ids = p.idx.data() + r * Picks;
    float *out = p.out.data() + r * Picks;
    for (int64_t k = 0; k < Picks; k += 4) {
      __m256i i =
          _mm256_loadu_si256(reinterpret_cast<const __m256i *>(ids + k));
      _mm_storeu_ps(out + k, _mm256_i64gather_ps(row, i, 4));
    }
  }
}

__attribute__((noinline)) void avx512(Problem &p) {
  for (int64_t r = 0; r < Rows; ++r) {
    const float *row = p.table.data() + r * p.rowLength;
    const int64_t *ids = p.idx.data() + r * Picks;
    float *out = p.out.data() + r * Picks;
    for (int64_t k = 0; k < Picks; k += 8) {
      __m512i i = _mm512_loadu_si512(ids + k);
      _mm256_storeu_ps(out + k, _mm512_i64gather_ps(i, row, 4));
    }
  }
}

__attribute__((noinline)) void avx512x2(Problem &p) {
  for (int64_t r = 0; r < Rows; ++r) {
    const float *row = p.table.data() + r * p.rowLength;
    const int64_t *ids = p.idx.data() + r * Picks;
    float *out = p.out.data() + r * Picks;
    for (int64_t k = 0; k < Picks; k += 16) {
      __m256 lo = _mm512_i64gather_ps(_mm512_loadu_si512(ids + k), row, 4);
      __m256 hi = _mm512_i64gather_ps(_mm512_loadu_si512(ids + k + 8), row, 4);
      _mm512_storeu_ps(out + k,
                       _mm512_insertf32x8(_mm512_castps256_ps512(lo), hi, 1));
    }
  }
}

double medianNs(void (*fn)(Problem &), Problem &p, int runs) {
  fn(p);
  std::vector<double> times;
  for (int run = 0; run < runs; ++run) {
    auto t0 = std::chrono::steady_clock::now();
    fn(p);
    times.push_back(std::chrono::duration<double, std::nano>(
                        std::chrono::steady_clock::now() - t0)
                        .count());
  }
  std::sort(times.begin(), times.end());
  return times[times.size() / 2] / static_cast<double>(Rows * Picks);
}
} // namespace

int main(int argc, char **argv) {
  int runs = argc > 1 ? std::atoi(argv[1]) : 21;
  struct Variant {
    const char *name;
    void (*fn)(Problem &);
  } variants[] = {{"scalar", scalar},
                  {"avx2", avx2},
                  {"avx512", avx512},
                  {"avx512x2", avx512x2}};
  std::printf("| table row | scalar (ns/elt) | avx2 | avx512 | avx512x2 |\n");
  std::printf("| --- | ---: | ---: | ---: | ---: |\n");
  for (int64_t rowLength : {int64_t(4096), int64_t(64)}) {
    Problem p = make(rowLength);
    scalar(p);
    std::vector<float> want = p.out;
    std::printf("| %lld floats |", static_cast<long long>(rowLength));
    for (const Variant &v : variants) {
      std::fill(p.out.begin(), p.out.end(), -1.0f);
      double ns = medianNs(v.fn, p, runs);
      if (std::memcmp(p.out.data(), want.data(), want.size() * 4) != 0) {
        std::fprintf(stderr, "%s: wrong result\n", v.name);
        return 1;
      }
      std::printf(" %.3f |", ns);
    }
    std::printf("\n");
  }
  return 0;
}
