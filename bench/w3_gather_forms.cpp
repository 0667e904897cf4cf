// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
// How an element gather's row (W3 of bench/run.py: 4096 rows of 4096 f32,
// 1024 i64 indices a row, negative ones wrapped, checked as the default
// policy checks) is best loaded with AVX-512, written three ways in C++:
//   two qps:   the compiled code's form: two `vgatherqps` of 8 lanes, the
//              i64 coordinates used as they are;
//   scalar:    the coordinates stored, 16 scalar loads, the line loaded
//              back (baseline.cpp's C++ loops load this way);
//   one dps:   the coordinates narrowed to i32 (`vpmovqd`) and one
//              `vgatherdps` of 16 lanes.
// Each form prefetches the next row's 4 lines and the 2 lines of the next
// row's indices per 16 outputs and streams them, as the compiled code does. The
// three run in turn, each timed call after WARM untimed ones (bench/paired.py's
// turns); printed: each median and each form's time / two qps's, median
// [quartiles] over the turns. Every form's output is compared with a plain
// loop's.
//
//   g++ -O3 -march=native -fopenmp bench/w3_gather_forms.cpp -o /tmp/w3forms
//   OMP_NUM_THREADS=2 /tmp/w3forms [WARM] [TURNS]
#include <immintrin.h>
#include <omp.h>
#include <sys/mman.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <vector>

#ifndef __AVX512F__
#error "AVX-512 only: build with -march=native on an AVX-512 CPU"
#endif

namespace {
constexpr long R = 4096, C = 4096, K = 1024;
float *data, *out;
long long *idx;
int badRows;

// 2 MiB aligned, advised for huge pages (as numpy's arrays are).
template <class T> T *hugeAlloc(size_t n) {
  size_t bytes = (n * sizeof(T) + (2 << 20) - 1) / (2 << 20) * (2 << 20);
  void *p = aligned_alloc(2 << 20, bytes);
  madvise(p, bytes, MADV_HUGEPAGE);
  return static_cast<T *>(p);
}

enum Form { TwoQps, Scalar, OneDps, Forms };
const char *names[Forms] = {"two qps", "scalar", "one dps"};

template <Form F> void rows() {
  int bad = 0;
#pragma omp parallel for schedule(static) reduction(| : bad)
  for (long r = 0; r < R; ++r) {
    const float *row = data + r * C;
    const float *next = data + std::min(r + 1, R - 1) * C;
    const long long *ir = idx + r * K;
    const long long *nextIdx = idx + std::min(r + 1, R - 1) * K;
    float *o = out + r * K;
    const __m512i size = _mm512_set1_epi64(C);
    __mmask16 invalid = 0;
    for (long k = 0; k < K; k += 16) {
      for (int l = 0; l < 4; ++l)
        _mm_prefetch(reinterpret_cast<const char *>(next + k * 4 + l * 16),
                     _MM_HINT_T0);
      for (int l = 0; l < 2; ++l)
        _mm_prefetch(reinterpret_cast<const char *>(nextIdx + k + l * 8),
                     _MM_HINT_T0);
      __m512i a = _mm512_loadu_si512(ir + k),
              b = _mm512_loadu_si512(ir + k + 8);
      a = _mm512_add_epi64(a, _mm512_and_si512(_mm512_srai_epi64(a, 63), size));
      b = _mm512_add_epi64(b, _mm512_and_si512(_mm512_srai_epi64(b, 63), size));
      __mmask8 va = _mm512_cmplt_epu64_mask(a, size);
      __mmask8 vb = _mm512_cmplt_epu64_mask(b, size);
      invalid |= static_cast<__mmask16>(~va & 0xff) |
                 static_cast<__mmask16>((~vb & 0xff) << 8);
      a = _mm512_maskz_mov_epi64(va, a);
      b = _mm512_maskz_mov_epi64(vb, b);
      __m512 v;
      if (F == TwoQps) {
        __m256 lo = _mm512_i64gather_ps(a, row, 4);
        __m256 hi = _mm512_i64gather_ps(b, row, 4);
        v = _mm512_insertf32x8(_mm512_castps256_ps512(lo), hi, 1);
      } else if (F == Scalar) {
        alignas(64) long long at[16];
        alignas(64) float line[16];
        _mm512_store_si512(at, a);
        _mm512_store_si512(at + 8, b);
        for (int j = 0; j < 16; ++j)
          line[j] = row[at[j]];
        v = _mm512_load_ps(line);
      } else {
        __m256i a32 = _mm512_cvtepi64_epi32(a), b32 = _mm512_cvtepi64_epi32(b);
        v = _mm512_i32gather_ps(
            _mm512_inserti64x4(_mm512_castsi256_si512(a32), b32, 1), row, 4);
      }
      _mm512_stream_ps(o + k, v);
    }
    bad |= invalid != 0;
  }
  _mm_sfence();
  badRows = bad;
}

double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  return v[v.size() / 2];
}
} // namespace

int main(int argc, char **argv) {
  const int warm = argc > 1 ? std::atoi(argv[1]) : 4;
  const int turns = argc > 2 ? std::atoi(argv[2]) : 40;
  data = hugeAlloc<float>(R * C);
  out = hugeAlloc<float>(R * K);
  idx = hugeAlloc<long long>(R * K);
  std::srand(1);
  for (long i = 0; i < R * C; ++i)
    data[i] = static_cast<float>(i % 1000);
  for (long i = 0; i < R * K; ++i) // in [-C, C): every valid index, both signs
    idx[i] = std::rand() % (2 * C) - C;
  std::vector<float> want(R * K);
  for (long r = 0; r < R; ++r)
    for (long k = 0; k < K; ++k) {
      long long v = idx[r * K + k];
      want[r * K + k] = data[r * C + (v < 0 ? v + C : v)];
    }
  void (*forms[Forms])() = {rows<TwoQps>, rows<Scalar>, rows<OneDps>};
  for (int f = 0; f < Forms; ++f) {
    std::memset(out, 0, R * K * sizeof(float));
    forms[f]();
    if (badRows || std::memcmp(out, want.data(), R * K * sizeof(float))) {
      std::printf("%s: wrong result\n", names[f]);
      return 1;
    }
  }
  std::vector<double> times[Forms];
  for (int t = 0; t < turns; ++t)
    for (int i = 0; i < Forms; ++i) {
      int f = (i + t) % Forms; // each form after each other one in turn
      for (int w = 0; w < warm; ++w)
        forms[f]();
      auto start = std::chrono::steady_clock::now();
      forms[f]();
      times[f].push_back(std::chrono::duration<double, std::milli>(
                             std::chrono::steady_clock::now() - start)
                             .count());
    }
  std::printf("%d threads, %d turns, %d warm calls each\n",
              omp_get_max_threads(), turns, warm);
  for (int f = 0; f < Forms; ++f) {
    std::vector<double> ratio;
    for (int t = 0; t < turns; ++t)
      ratio.push_back(times[f][t] / times[TwoQps][t]);
    std::sort(ratio.begin(), ratio.end());
    std::printf("  %-8s %.3f ms   / two qps %.3f [%.3f, %.3f]\n", names[f],
                median(times[f]), ratio[turns / 2], ratio[turns / 4],
                ratio[turns - 1 - turns / 4]);
  }
  return 0;
}
