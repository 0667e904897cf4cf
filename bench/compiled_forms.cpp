// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
// Whether the compiled code's form of a loop, written in C++, runs as fast
// as baseline.cpp's loop for the same workload: where it does, a gap
// between the compiled gather and the C++ loop lies in the generated code,
// not in the plan. Each pair runs in one process, alternated call by call
// on the same threads; the median of the per-pair ratios is printed with
// its quartiles (above 1: the compiled form is faster). Every form's output
// is checked against the first's. AVX2 or AVX-512 (x86-64) only. The forms
// are those of before 2026-12-03, when the compiled code began to prefetch
// index values ahead (W3's next indices row, W4's pairs a prefetch distance
// past its read ahead; docs/Lowering.md, "Prefetched index rows"): none of
// the forms here does, so they still compare like with like.
//   W4 (bench/run.py: 16 x 65536 (y, x) pairs into 16 images of 512 x 512
//   pixels of 4 f32):
//     loop: baseline.cpp's checked prefetch loop: a block at a time, the
//           block 128 ahead prefetched with its coordinates wrapped;
//     tile: the compiled tile of 4 blocks (CpuTarget::tileBlocks with
//           AVX2) as it was until 2026-12-02: the 4 pairs wrapped and
//           checked in 256-bit vectors, the tile 128 blocks ahead
//           prefetched with clamped coordinates, then the 4 copies, each
//           lane's coordinates taken out of the vectors one by one;
//     linear tile: the tile as compiled since: each block's offset in the
//           image computed in the vectors, one value taken out a lane.
//   W3 (4096 rows of 4096 f32, 1024 indices a row), each 16 outputs with
//   the next row's 4 lines prefetched and streamed past the caches:
//     buffer: baseline.cpp's form: a 64-byte line buffer, then two 32-byte
//             non-temporal stores;
//     regs16: the compiled code's: 4 outputs a register, 16-byte stores;
//     regs32: 8 outputs a register, 32-byte stores;
//     vector steps: 16-byte stores of outputs whose indices were wrapped,
//             checked and made addresses 4 at a time in 256-bit vectors,
//             as the compiled step does (here as GCC compiles it).
//
//   g++ -O3 -march=native -fopenmp bench/compiled_forms.cpp -o /tmp/forms
//   OMP_NUM_THREADS=2 /tmp/forms [CALLS]
#include "host.h"

#include <immintrin.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <vector>

#include <sys/mman.h>

namespace {
// 2 MiB-aligned, advised for huge pages, zeroed.
template <typename T> T *hugeArray(size_t count) {
  size_t bytes = (count * sizeof(T) + (2 << 20) - 1) / (2 << 20) * (2 << 20);
  void *p = std::aligned_alloc(2 << 20, bytes);
  if (!p) {
    std::fprintf(stderr, "out of memory\n");
    std::exit(1);
  }
  (void)madvise(p, bytes, MADV_HUGEPAGE);
  std::memset(p, 0, bytes);
  return static_cast<T *>(p);
}

int64_t wrap(int64_t v, int64_t n) { return v + ((v >> 63) & n); }

// Times `a` and `b` alternately (each timed call after an untimed one of
// the same form), checks that they wrote the same `bytes` at `out`, and
// prints the medians and the ratio a / b.
void pair(const char *name, const std::function<bool()> &a,
          const std::function<bool()> &b, const void *out, size_t bytes,
          int calls) {
  std::vector<char> first(bytes);
  std::vector<double> ta, tb, ratio;
  for (int c = 0; c < calls; ++c) {
    for (int form = 0; form < 2; ++form) {
      const std::function<bool()> &f = form ? b : a;
      f();
      auto start = std::chrono::steady_clock::now();
      bool bad = f();
      double ms = std::chrono::duration<double, std::milli>(
                      std::chrono::steady_clock::now() - start)
                      .count();
      if (bad) {
        std::fprintf(stderr, "%s: an index was reported out of range\n", name);
        std::exit(1);
      }
      if (c == 0 && form == 0)
        std::memcpy(first.data(), out, bytes);
      if (c == 0 && form == 1 && std::memcmp(first.data(), out, bytes)) {
        std::fprintf(stderr, "%s: the forms' outputs differ\n", name);
        std::exit(1);
      }
      (form ? tb : ta).push_back(ms);
    }
    ratio.push_back(ta.back() / tb.back());
  }
  for (auto *v : {&ta, &tb, &ratio})
    std::sort(v->begin(), v->end());
  std::printf("| %s | %.3f | %.3f | %.3f [%.3f, %.3f] |\n", name, ta[calls / 2],
              tb[calls / 2], ratio[calls / 2], ratio[calls / 4],
              ratio[3 * calls / 4]);
}

namespace w4 {
constexpr int64_t B = 16, H = 512, W = 512, C = 4, K = 65536;
float *data, *out;
int64_t *idx;

bool loop() {
  const int64_t ahead = prefetchLinesAhead();
  bool bad = false;
#pragma omp parallel for collapse(2) reduction(|| : bad)
  for (int64_t b = 0; b < B; ++b)
    for (int64_t k = 0; k < K; ++k) {
      const int64_t *q = &idx[(b * K + std::min(k + ahead, K - 1)) * 2];
      prefetchLine(&data[((b * H + wrap(q[0], H)) * W + wrap(q[1], W)) * C]);
      const int64_t *p = &idx[(b * K + k) * 2];
      int64_t y = wrap(p[0], H), x = wrap(p[1], W);
      bool ok = uint64_t(y) < uint64_t(H) && uint64_t(x) < uint64_t(W);
      bad |= !ok;
      std::memcpy(&out[(b * K + k) * C],
                  &data[((b * H + (ok ? y : 0)) * W + (ok ? x : 0)) * C],
                  C * sizeof(float));
    }
  return bad;
}

// The pairs of 4 blocks from `p`: y and x in two vectors, wrapped.
void coordinates(const int64_t *p, __m256i &ys, __m256i &xs) {
  const __m256i size = _mm256_set1_epi64x(H), zero = _mm256_setzero_si256();
  __m256i lo = _mm256_loadu_si256(reinterpret_cast<const __m256i *>(p));
  __m256i hi = _mm256_loadu_si256(reinterpret_cast<const __m256i *>(p + 4));
  ys = _mm256_permute4x64_epi64(_mm256_unpacklo_epi64(lo, hi), 0xD8);
  xs = _mm256_permute4x64_epi64(_mm256_unpackhi_epi64(lo, hi), 0xD8);
  ys = _mm256_add_epi64(ys,
                        _mm256_and_si256(_mm256_cmpgt_epi64(zero, ys), size));
  xs = _mm256_add_epi64(xs,
                        _mm256_and_si256(_mm256_cmpgt_epi64(zero, xs), size));
}

// All ones in the lanes whose (y, x) is in the image.
__m256i validLanes(__m256i ys, __m256i xs) {
  const __m256i size = _mm256_set1_epi64x(H), minus1 = _mm256_set1_epi64x(-1);
  return _mm256_and_si256(_mm256_and_si256(_mm256_cmpgt_epi64(size, ys),
                                           _mm256_cmpgt_epi64(size, xs)),
                          _mm256_and_si256(_mm256_cmpgt_epi64(ys, minus1),
                                           _mm256_cmpgt_epi64(xs, minus1)));
}

// A coordinate clamped into [0, H - 1] (the prefetch's address).
__m256i clampCoordinate(__m256i v) {
  const __m256i last = _mm256_set1_epi64x(H - 1), zero = _mm256_setzero_si256();
  v = _mm256_blendv_epi8(v, last, _mm256_cmpgt_epi64(v, last));
  return _mm256_blendv_epi8(v, zero, _mm256_cmpgt_epi64(zero, v));
}

// The tile; with `Linear` (as compiled since 2026-12-02) each block's
// element offset in its image is computed in the vectors (y * W * C + x *
// C; the prefetch's from clamped coordinates): one extract a lane instead
// of one a coordinate, and no scalar arithmetic on them.
template <bool Linear> bool tile() {
  const int64_t ahead = prefetchLinesAhead();
  bool bad = false;
#pragma omp parallel for collapse(2) reduction(|| : bad)
  for (int64_t b = 0; b < B; ++b)
    for (int64_t t = 0; t < K / 4; ++t) {
      const int64_t k = 4 * t;
      __m256i ys, xs, aheadYs, aheadXs;
      coordinates(&idx[(b * K + k) * 2], ys, xs);
      __m256i ok = validLanes(ys, xs);
      bad |= _mm256_movemask_pd(_mm256_castsi256_pd(ok)) != 0xF;
      ys = _mm256_and_si256(ys, ok);
      xs = _mm256_and_si256(xs, ok);
      coordinates(&idx[(b * K + std::min(k + ahead, K - 4)) * 2], aheadYs,
                  aheadXs);
      aheadYs = clampCoordinate(aheadYs);
      aheadXs = clampCoordinate(aheadXs);
      if (Linear) {
        __m256i offsets = _mm256_add_epi64(_mm256_slli_epi64(ys, 11),
                                           _mm256_slli_epi64(xs, 2));
        __m256i aheadOffsets = _mm256_add_epi64(_mm256_slli_epi64(aheadYs, 11),
                                                _mm256_slli_epi64(aheadXs, 2));
        const float *image = &data[b * H * W * C];
        for (int l = 0; l < 4; ++l) {
          prefetchLine(image + _mm256_extract_epi64(aheadOffsets, 0));
          std::memcpy(&out[(b * K + k + l) * C],
                      image + _mm256_extract_epi64(offsets, 0),
                      C * sizeof(float));
          offsets = _mm256_permute4x64_epi64(offsets, 0x39);
          aheadOffsets = _mm256_permute4x64_epi64(aheadOffsets, 0x39);
        }
        continue;
      }
      alignas(32) int64_t y[4], x[4], aheadY[4], aheadX[4];
      _mm256_store_si256(reinterpret_cast<__m256i *>(y), ys);
      _mm256_store_si256(reinterpret_cast<__m256i *>(x), xs);
      _mm256_store_si256(reinterpret_cast<__m256i *>(aheadY), aheadYs);
      _mm256_store_si256(reinterpret_cast<__m256i *>(aheadX), aheadXs);
      for (int l = 0; l < 4; ++l) {
        prefetchLine(&data[((b * H + aheadY[l]) * W + aheadX[l]) * C]);
        std::memcpy(&out[(b * K + k + l) * C],
                    &data[((b * H + y[l]) * W + x[l]) * C], C * sizeof(float));
      }
    }
  return bad;
}
} // namespace w4

namespace w3 {
constexpr int64_t R = 4096, C = 4096, K = 1024;
float *data, *out;
int64_t *idx;

// Form 0: the line buffer; 1: 16-byte stores; 2: 32-byte stores; 3: 16-byte
// stores of elements whose indices were wrapped, checked and made addresses
// 4 at a time in 256-bit vectors (the compiled step).
template <int Form> bool rows() {
  bool bad = false;
#pragma omp parallel reduction(|| : bad)
  {
#pragma omp for
    for (int64_t r = 0; r < R; ++r) {
      const float *next = &data[std::min(r + 1, R - 1) * C];
      const float *row = &data[r * C];
      const int64_t *ix = &idx[r * K];
      float *o = &out[r * K];
      auto at = [&](int64_t k) {
        int64_t i = wrap(ix[k], C);
        bool ok = uint64_t(i) < uint64_t(C);
        bad |= !ok;
        return row[ok ? i : 0];
      };
      for (int64_t k = 0; k < K; k += 16) {
        for (int64_t l = 0; l < 4; ++l)
          prefetchLine(next + k * (C / K) + l * 16);
        if (Form == 0) {
          alignas(64) float line[16];
          for (int j = 0; j < 16; ++j)
            line[j] = at(k + j);
          _mm256_stream_ps(o + k, _mm256_load_ps(line));
          _mm256_stream_ps(o + k + 8, _mm256_load_ps(line + 8));
        } else if (Form == 1) {
          for (int h = 0; h < 16; h += 4)
            _mm_stream_ps(o + k + h, _mm_setr_ps(at(k + h), at(k + h + 1),
                                                 at(k + h + 2), at(k + h + 3)));
        } else if (Form == 3) {
          const __m256i size = _mm256_set1_epi64x(C),
                        zero = _mm256_setzero_si256(),
                        base = _mm256_set1_epi64x(int64_t(row));
          __m256i anyBad = zero;
          __m256i addr[4];
          for (int h = 0; h < 16; h += 4) {
            __m256i v = _mm256_loadu_si256(
                reinterpret_cast<const __m256i *>(ix + k + h));
            v = _mm256_add_epi64(
                v, _mm256_and_si256(_mm256_cmpgt_epi64(zero, v), size));
            __m256i badLanes = _mm256_or_si256(
                _mm256_cmpgt_epi64(zero, v),
                _mm256_cmpgt_epi64(v, _mm256_set1_epi64x(C - 1)));
            anyBad = _mm256_or_si256(anyBad, badLanes);
            v = _mm256_andnot_si256(badLanes, v);
            addr[h / 4] = _mm256_add_epi64(base, _mm256_slli_epi64(v, 2));
          }
          bad |= !_mm256_testz_si256(anyBad, anyBad);
          for (int h = 0; h < 16; h += 4) {
            __m256i a = addr[h / 4];
            auto e = [&](int j) {
              int64_t p = j == 0   ? _mm256_extract_epi64(a, 0)
                          : j == 1 ? _mm256_extract_epi64(a, 1)
                          : j == 2 ? _mm256_extract_epi64(a, 2)
                                   : _mm256_extract_epi64(a, 3);
              return *reinterpret_cast<const float *>(p);
            };
            _mm_stream_ps(o + k + h, _mm_setr_ps(e(0), e(1), e(2), e(3)));
          }
        } else {
          for (int h = 0; h < 16; h += 8)
            _mm256_stream_ps(o + k + h,
                             _mm256_setr_ps(at(k + h), at(k + h + 1),
                                            at(k + h + 2), at(k + h + 3),
                                            at(k + h + 4), at(k + h + 5),
                                            at(k + h + 6), at(k + h + 7)));
        }
      }
    }
    _mm_sfence();
  }
  return bad;
}
} // namespace w3
} // namespace

int main(int argc, char **argv) {
  int calls = argc > 1 ? std::atoi(argv[1]) : 40;
  if (calls < 4)
    calls = 4;
  std::srand(1);
  w4::data = hugeArray<float>(w4::B * w4::H * w4::W * w4::C);
  w4::out = hugeArray<float>(w4::B * w4::K * w4::C);
  w4::idx = hugeArray<int64_t>(w4::B * w4::K * 2);
  for (int64_t i = 0; i < w4::B * w4::H * w4::W * w4::C; ++i)
    w4::data[i] = float(i % 100003);
  for (int64_t i = 0; i < w4::B * w4::K * 2; ++i)
    w4::idx[i] = std::rand() % (2 * w4::H) - w4::H; // negative ones wrap
  w3::data = hugeArray<float>(w3::R * w3::C);
  w3::out = hugeArray<float>(w3::R * w3::K);
  w3::idx = hugeArray<int64_t>(w3::R * w3::K);
  for (int64_t i = 0; i < w3::R * w3::C; ++i)
    w3::data[i] = float(i % 100003);
  for (int64_t i = 0; i < w3::R * w3::K; ++i)
    w3::idx[i] = std::rand() % (2 * w3::C) - w3::C;
  std::printf("%d calls of each, alternated; first / second above 1: the "
              "second is faster\n",
              calls);
  std::printf("| workload: first, second | first (ms) | second (ms) | first "
              "/ second [quartiles] |\n| --- | ---: | ---: | ---: |\n");
  size_t w4Bytes = w4::B * w4::K * w4::C * sizeof(float);
  size_t w3Bytes = w3::R * w3::K * sizeof(float);
  pair("W4: loop, tile", w4::loop, w4::tile<false>, w4::out, w4Bytes, calls);
  pair("W4: loop, linear tile", w4::loop, w4::tile<true>, w4::out, w4Bytes,
       calls);
  pair("W4: tile, linear tile", w4::tile<false>, w4::tile<true>, w4::out,
       w4Bytes, calls);
  pair("W3: buffer, regs16", w3::rows<0>, w3::rows<1>, w3::out, w3Bytes, calls);
  pair("W3: buffer, regs32", w3::rows<0>, w3::rows<2>, w3::out, w3Bytes, calls);
  pair("W3: buffer, vector steps", w3::rows<0>, w3::rows<3>, w3::out, w3Bytes,
       calls);
  return 0;
}
