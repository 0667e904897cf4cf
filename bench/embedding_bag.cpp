// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// The C++ peer of bench/embedding_bag.py: the sum of each bag's rows of a
// [N, D] f32 table, [B, L] i64 indices, written as a performance engineer
// would write the fused loop: the bags dealt out to the threads in chunks
// (OpenMP's static schedule, as the compiled loop), a bag's sum in an
// array of D floats that the compiler keeps in vector registers (D is a
// compile-time constant, -DBAG_D), each index checked as the compiled
// `error` policy does (negative values wrapped, an invalid one counted and
// its row read as row 0, the count returned for the caller to report), and
// the row `distance` positions ahead in the flattened indices prefetched
// (its index wrapped and clamped, the compiled code's address; the next
// bag's rows at a bag's end), whole rows of up to 16 lines and the line of
// the row's last element, as the compiled rows are.
//
//   g++ -O3 -march=native -fopenmp -fPIC -shared -DBAG_D=128 ...
#include <algorithm>
#include <cstdint>

#ifndef BAG_D
#error "BAG_D (the row length) must be defined"
#endif

namespace {
constexpr long kRow = BAG_D;
constexpr long kLineFloats = 16;
constexpr long kLines = (kRow + kLineFloats - 1) / kLineFloats;
constexpr long kPrefetchLines = kLines < 16 ? kLines : 16;
} // namespace

// With AfterFill, the loop as the compiled code ran it before the
// seventy-second session: a parallel pass zeroing the output first, each
// bag's sum then starting from its output row.
template <bool AfterFill>
static long bagSum(const float *table, const int64_t *indices, float *out,
                   long rows, long bags, long length, long distance,
                   long threads) {
  const long total = bags * length;
  long invalid = 0;
  if (AfterFill) {
#pragma omp parallel for schedule(static) num_threads(threads)
    for (long b = 0; b < bags; ++b)
      std::fill(out + b * kRow, out + (b + 1) * kRow, 0.0f);
  }
  // As many threads as the compiled function's (the OpenMP default is
  // every core, whatever --threads says).
#pragma omp parallel for schedule(static) reduction(+ : invalid)               \
    num_threads(threads)
  for (long b = 0; b < bags; ++b) {
    float sum[kRow] = {};
    if (AfterFill)
      std::copy(out + b * kRow, out + (b + 1) * kRow, sum);
    for (long l = 0; l < length; ++l) {
      long q = b * length + l;
      if (distance > 0) {
        int64_t ahead = indices[std::min(q + distance, total - 1)];
        ahead = ahead < 0 ? ahead + rows : ahead;
        ahead = std::min<int64_t>(std::max<int64_t>(ahead, 0), rows - 1);
        const float *at = table + ahead * kRow;
        for (long line = 0; line < kPrefetchLines; ++line)
          __builtin_prefetch(at + line * kLineFloats, 0, 3);
        if (kLines > 1)
          __builtin_prefetch(at + kRow - 1, 0, 3);
      }
      int64_t v = indices[q];
      v = v < 0 ? v + rows : v;
      if (static_cast<uint64_t>(v) >= static_cast<uint64_t>(rows)) {
        ++invalid;
        v = 0;
      }
      const float *row = table + v * kRow;
      for (long d = 0; d < kRow; ++d)
        sum[d] += row[d];
    }
    std::copy(sum, sum + kRow, out + b * kRow);
  }
  return invalid;
}

extern "C" long bag_sum(const float *table, const int64_t *indices, float *out,
                        long rows, long bags, long length, long distance,
                        long threads) {
  return bagSum<false>(table, indices, out, rows, bags, length, distance,
                       threads);
}

extern "C" long bag_sum_after_fill(const float *table, const int64_t *indices,
                                   float *out, long rows, long bags,
                                   long length, long distance, long threads) {
  return bagSum<true>(table, indices, out, rows, bags, length, distance,
                      threads);
}
