// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
// Hand-written gather loops for the benchmark (g++ -O3 -march=native
// -fopenmp), what a performance engineer would write for each workload:
// one pass, indices read in place (no copy), negative indices wrapped
// inline. Two variants, timed separately:
//   unchecked: no bounds check (a bad index reads out of bounds);
//   checked:   the compiled kernels' default policy: every index checked in
//              the same pass (a flag, decided after the loop; the read goes
//              through index 0 when the index is bad, so it never reads
//              out of bounds), and an error returned instead of the output;
//   prefetch:  unchecked, with the software prefetch the compiled CPU code
//              does (bench/README.md): the row or block a later iteration
//              reads, 128 cache lines ahead (for W4 also the pairs that
//              the read ahead takes 128 blocks later); for W3 the next
//              table row and the next row of indices while the current
//              ones are gathered; for W5 each read's offset in the next
//              pixel (not on Zen 1), and its pixels in tiles as compiled;
//              for W8 the next row's pairs (as compiled: it has no other
//              prefetch), and it resolves a chunk of offsets (the
//              compiled code's chunk) before its loads where the compiled
//              code does;
//   checked prefetch: checked, with the same prefetch (what the compiled
//              code does under its default policy).
// Both prefetch variants write rows with non-temporal stores where the
// compiled code does (rows of whole cache lines into an output of the
// target's streaming threshold or more, half the L3 or four L2s:
// docs/Lowering.md, "Streaming stores"), and so does the memcpy reference
// below.
//
// Outputs and the memcpy reference's buffers are 64-byte aligned, and those
// of 4 MiB or more are advised for transparent huge pages, as the compiled
// code's allocator does (gather_runtime_malloc); lookups too small for
// threads run in a plain loop with no OpenMP construct.
//
// Rows (W1, W1i32, W1f16, W2, W6, W7) are copied in chunks of 8 vector
// registers, loads then stores (row_copy.h): faster than a call of memcpy
// per row (bench/row_copy_bound.cpp), and what the compiled block copy does.
//
// A third figure is the bandwidth reference: a memcpy of the output's bytes
// from a contiguous buffer of the same size, split over the threads in one
// parallel loop (the least time any gather of that output could take).
//
//   baseline WORKLOAD DIR RUNS THREADS  -> prints "UNCHECKED_MS CHECKED_MS
//   MEMCPY_MS PREFETCH_MS CHECKED_PREFETCH_MS" (medians) and writes each
//   variant's output to DIR/WORKLOAD_cpp_{unchecked,checked,prefetch,
//   checked_prefetch}_out.bin for the harness to compare with numpy. The
//   output buffer is allocated and touched outside the timed region.
#include "host.h"
#include "row_copy.h"

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <map>
#include <omp.h>
#include <string>
#include <type_traits>
#include <vector>

// A 64-byte aligned array; from 4 MiB on advised for transparent huge pages
// (whole pages inside it), as gather_runtime_malloc does for the compiled
// code's buffers (alignedAdvised).
template <typename T> class AlignedBuffer {
public:
  AlignedBuffer() = default;
  AlignedBuffer(const AlignedBuffer &) = delete;
  AlignedBuffer &operator=(const AlignedBuffer &) = delete;
  ~AlignedBuffer() { std::free(data_); }
  void assign(size_t n, T value) {
    std::free(data_);
    data_ = static_cast<T *>(alignedAdvised(n * sizeof(T)));
    size_ = n;
    std::fill(data_, data_ + n, value);
  }
  T *data() { return data_; }
  T *begin() { return data_; }
  T *end() { return data_ + size_; }
  T &operator[](size_t i) { return data_[i]; }

private:
  T *data_ = nullptr;
  size_t size_ = 0;
};

// The workload's operands given by the caller (bench/paired.py: the arrays
// the compiled gather and torch read, so that every contender reads the
// same memory), else read from DIR once into buffers placed as the
// compiled code's inputs are (gather-run's and numpy's arrays of 4 MiB or
// more are advised for huge pages). A std::vector put W1's 153 MB table on
// 4 KiB pages, where the random rows' memcpy loop took 2.95-3.06 ms against
// 2.58-2.60 on huge pages (2 threads, Zen 3, the same process).
static const void *givenData, *givenIndices;

template <typename T>
static const T *load(const std::string &path, size_t count, const void *given) {
  if (given)
    return static_cast<const T *>(given);
  static std::map<std::string, AlignedBuffer<T>> loaded;
  auto [it, inserted] = loaded.try_emplace(path);
  if (inserted) {
    it->second.assign(count, T());
    FILE *f = std::fopen(path.c_str(), "rb");
    if (!f || std::fread(it->second.data(), sizeof(T), count, f) != count) {
      std::fprintf(stderr, "cannot read %s\n", path.c_str());
      std::exit(1);
    }
    std::fclose(f);
  }
  return it->second.data();
}
template <typename T>
static const T *loadData(const std::string &path, size_t count) {
  return load<T>(path, count, givenData);
}
template <typename T>
static const T *loadIndices(const std::string &path, size_t count) {
  return load<T>(path, count, givenIndices);
}

// Branch-free: with random signs (W1, W3, W4, W8) gcc compiled `v < 0 ?
// v + size : v` to a branch in some loops, mispredicted half the time (W8's
// unchecked loop ran 2x slower than its checked one, bench/offset_chunks.cpp).
static inline int64_t wrap(int64_t v, int64_t size) {
  return v + (size & (v >> 63));
}

enum Mode { Unchecked, Checked, Prefetch, CheckedPrefetch, NumModes };
static constexpr bool checks(int m) {
  return m == Mode::Checked || m == Mode::CheckedPrefetch;
}
static constexpr bool prefetches(int m) {
  return m == Mode::Prefetch || m == Mode::CheckedPrefetch;
}

// Whether rows of `rowBytes` into an output of `outputBytes`, read from an
// input of `inputBytes`, are written with non-temporal stores: the compiled
// code's rule (CpuTarget::streamingStoreMinBytes, streamingInputMinBytes).
static bool streamsRows(int64_t outputBytes, int64_t rowBytes,
                        int64_t inputBytes) {
  return outputBytes >= streamingStoreMinBytes() && rowBytes % 64 == 0 &&
         (inputBytes >= streamingInputMinBytes() ||
          outputBytes >= describedL3Bytes());
}

// Prefetches the lines of `bytes` bytes from `p`, at most
// prefetchBlockLines(), and the line of the last byte where the block has
// more than one line (it may not start on a line), as the compiled block
// copy does.
static inline void prefetchLines(const void *p, int64_t bytes) {
  const char *c = static_cast<const char *>(p);
  const int64_t total = (bytes + 63) / 64;
  int64_t lines = std::min<int64_t>(prefetchBlockLines(), total);
  for (int64_t l = 0; l < lines; ++l)
    prefetchLine(c + l * 64);
  if (total > 1)
    prefetchLine(c + bytes - 1);
}

// The index for a read: wrapped; under Checked, 0 for a bad one, and `bad`
// raised.
template <bool Checked>
static inline int64_t resolve(int64_t v, int64_t size, bool &bad) {
  int64_t w = wrap(v, size);
  if (!Checked)
    return w;
  bool ok = w >= 0 && w < size;
  bad |= !ok;
  return ok ? w : 0;
}

// Rows of D elements of type T picked by K indices of type I; below
// `parallelRows` rows (thread start-up costs more than a small lookup) a
// plain loop, with no OpenMP construct.
template <int M, typename T, typename I>
static bool rowGather(const T *data, const I *idx, int64_t N, int64_t D,
                      int64_t K, T *out, int64_t parallelRows = 64) {
  constexpr bool Checked = checks(M);
  const int64_t rowBytes = D * sizeof(T);
  const int64_t ahead =
      std::max<int64_t>(1, prefetchLinesAhead() / ((rowBytes + 63) / 64));
  const bool streaming =
      prefetches(M) && streamsRows(K * rowBytes, rowBytes, N * rowBytes);
  auto row = [&](int64_t k, bool &bad) {
    if (prefetches(M))
      prefetchLines(&data[wrap(idx[std::min(k + ahead, K - 1)], N) * D],
                    rowBytes);
    int64_t r = resolve<Checked>(static_cast<int64_t>(idx[k]), N, bad);
    if (streaming)
      copyRowStreaming(&out[k * D], &data[r * D], rowBytes);
    else
      copyRow(&out[k * D], &data[r * D], rowBytes);
  };
  bool bad = false;
  if (K < parallelRows) {
    for (int64_t k = 0; k < K; ++k)
      row(k, bad);
    if (streaming)
      _mm_sfence();
    return !bad;
  }
#pragma omp parallel reduction(|| : bad)
  {
#pragma omp for
    for (int64_t k = 0; k < K; ++k)
      row(k, bad);
    if (streaming)
      _mm_sfence();
  }
  return !bad;
}

struct Workloads {
  std::string dir;
  AlignedBuffer<float> out;
  AlignedBuffer<uint16_t> outHalf;

  template <int M> bool W1() {
    const int64_t N = 50000, D = 768, K = 8192;
    const float *data = loadData<float>(dir + "/W1_data.bin", N * D);
    const int64_t *idx = loadIndices<int64_t>(dir + "/W1_idx.bin", K);
    return rowGather<M>(data, idx, N, D, K, out.data());
  }

  // W1 with int32 indices.
  template <int M> bool W1i32() {
    const int64_t N = 50000, D = 768, K = 8192;
    const float *data = loadData<float>(dir + "/W1i32_data.bin", N * D);
    const int32_t *idx = loadIndices<int32_t>(dir + "/W1i32_idx.bin", K);
    return rowGather<M>(data, idx, N, D, K, out.data());
  }

  // W1 with a half-precision table (rows copied as 16-bit elements).
  template <int M> bool W1f16() {
    const int64_t N = 50000, D = 768, K = 8192;
    const uint16_t *data = loadData<uint16_t>(dir + "/W1f16_data.bin", N * D);
    const int64_t *idx = loadIndices<int64_t>(dir + "/W1f16_idx.bin", K);
    return rowGather<M>(data, idx, N, D, K, outHalf.data());
  }

  // Short rows: 256-byte rows (64 f32) of a 100000x64 table, 65536 of them.
  template <int M> bool W7() {
    const int64_t N = 100000, D = 64, K = 65536;
    const float *data = loadData<float>(dir + "/W7_data.bin", N * D);
    const int64_t *idx = loadIndices<int64_t>(dir + "/W7_idx.bin", K);
    return rowGather<M>(data, idx, N, D, K, out.data());
  }

  // Long rows (a language model's token embedding): 2048 rows of 16 KiB
  // from an 8192x4096 table.
  template <int M> bool W9() {
    const int64_t N = 8192, D = 4096, K = 2048;
    const float *data = loadData<float>(dir + "/W9_data.bin", N * D);
    const int64_t *idx = loadIndices<int64_t>(dir + "/W9_idx.bin", K);
    return rowGather<M>(data, idx, N, D, K, out.data());
  }

  // An inference-sized lookup: 32 rows of a 30000x768 table.
  template <int M> bool W6() {
    const int64_t N = 30000, D = 768, K = 32;
    const float *data = loadData<float>(dir + "/W6_data.bin", N * D);
    const int64_t *idx = loadIndices<int64_t>(dir + "/W6_idx.bin", K);
    return rowGather<M>(data, idx, N, D, K, out.data());
  }

  // Points of a 2-D table: gather.multiaxis over axes [0, 1], each output
  // reads its (row, column) pair from the indices row (interleaved). No
  // software prefetch (the compiled code has none here); the prefetch
  // variants do what the compiled code does instead: where the table is
  // the L2 or larger, a row's offsets in chunks resolved first, then the
  // chunk's loads (docs/Lowering.md, "Chunks of offsets"; the compiled
  // code's chunk, offsetChunkElements: an offset per line of two thirds of
  // the L1d, 512 with 48 KiB, 336 with 32 KiB, or 1024 on Zen 2; 512 where
  // no description is given), and rows streamed a vector register at a
  // time where the output reaches the streaming threshold.
  template <int M> bool W8() {
    const int64_t R = 1024, C = 1024, N = 1024, K = 1024;
    const float *data = loadData<float>(dir + "/W8_data.bin", R * C);
    const int64_t *idx = loadIndices<int64_t>(dir + "/W8_idx.bin", N * K * 2);
    constexpr bool Checked = checks(M);
    const int64_t chunk = offsetChunkElements();
    const bool chunks =
        prefetches(M) && R * C * int64_t(sizeof(float)) >= hostL2Bytes();
    const bool indexPrefetch = prefetches(M) && prefetchIndexStreams() != 0;
    const int64_t indexLevel = prefetchIndexStreams();
    const bool streaming =
        prefetches(M) && kRegisterBytes > 0 &&
        streamsRows(N * K * int64_t(sizeof(float)), K * sizeof(float),
                    R * C * int64_t(sizeof(float)));
    bool bad = false;
#pragma omp parallel reduction(|| : bad)
    {
      // Each thread's chunk buffer, as the compiled code's stack buffer.
      std::vector<int64_t> chunkOffsets(chunks ? chunk : 0);
#pragma omp for
      for (int64_t n = 0; n < N; ++n) {
        const int64_t *pairs = &idx[n * K * 2];
        // As compiled, the prefetch variants fetch the next row's pairs
        // while reading this row's, a line (4 pairs) at a time.
        const int64_t *nextPairs = &idx[std::min(n + 1, N - 1) * K * 2];
        float *row = &out[n * K];
        bool rowBad = false;
        // Groups of 4 points (K and the chunk are multiples of 4).
        if (!chunks) {
          for (int64_t k0 = 0; k0 < K; k0 += 4) {
            if (indexPrefetch)
              prefetchIndexLine(&nextPairs[2 * k0], indexLevel);
            for (int64_t k = k0; k < k0 + 4; ++k) {
              int64_t y = resolve<Checked>(pairs[2 * k], R, rowBad);
              int64_t x = resolve<Checked>(pairs[2 * k + 1], C, rowBad);
              row[k] = data[y * C + x];
            }
          }
        } else {
          int64_t *offsets = chunkOffsets.data();
          for (int64_t c = 0; c < K; c += chunk) {
            const int64_t length = std::min(chunk, K - c);
            for (int64_t k0 = 0; k0 < length; k0 += 4) {
              if (indexPrefetch)
                prefetchIndexLine(&nextPairs[2 * (c + k0)], indexLevel);
              for (int64_t k = k0; k < k0 + 4; ++k) {
                int64_t y = resolve<Checked>(pairs[2 * (c + k)], R, rowBad);
                int64_t x = resolve<Checked>(pairs[2 * (c + k) + 1], C, rowBad);
                offsets[k] = y * C + x;
              }
            }
#if defined(__AVX2__)
            if (streaming) {
              constexpr int64_t Lanes = kRegisterBytes / sizeof(float);
              for (int64_t k = 0; k < length; k += Lanes) {
                alignas(64) float v[Lanes];
                for (int64_t l = 0; l < Lanes; ++l)
                  v[l] = data[offsets[k + l]];
                streamRegister(reinterpret_cast<char *>(&row[c + k]),
                               loadRegister(reinterpret_cast<char *>(v)));
              }
              continue;
            }
#endif
            for (int64_t k = 0; k < length; ++k)
              row[c + k] = data[offsets[k]];
          }
        }
        bad |= rowBad;
      }
      if (streaming)
        _mm_sfence();
    }
    return !bad;
  }

  template <int M> bool W2() {
    const int64_t A = 64, B = 1000, C = 256, K = 500;
    const float *data = loadData<float>(dir + "/W2_data.bin", A * B * C);
    const int64_t *idx = loadIndices<int64_t>(dir + "/W2_idx.bin", K);
    constexpr bool Checked = checks(M);
    const int64_t rowBytes = C * sizeof(float);
    const int64_t ahead =
        std::max<int64_t>(1, prefetchLinesAhead() / (rowBytes / 64));
    const bool streaming =
        prefetches(M) &&
        streamsRows(A * K * rowBytes, rowBytes, A * B * rowBytes);
    bool bad = false;
#pragma omp parallel reduction(|| : bad)
    {
#pragma omp for collapse(2)
      for (int64_t a = 0; a < A; ++a)
        for (int64_t k = 0; k < K; ++k) {
          if (prefetches(M))
            prefetchLines(
                &data[(a * B + wrap(idx[std::min(k + ahead, K - 1)], B)) * C],
                rowBytes);
          int64_t b = resolve<Checked>(idx[k], B, bad);
          if (streaming)
            copyRowStreaming(&out[(a * K + k) * C], &data[(a * B + b) * C],
                             rowBytes);
          else
            copyRow(&out[(a * K + k) * C], &data[(a * B + b) * C], rowBytes);
        }
      if (streaming)
        _mm_sfence();
    }
    return !bad;
  }

  template <int M> bool W3() {
    const int64_t R = 4096, C = 4096, K = 1024;
    const float *data = loadData<float>(dir + "/W3_data.bin", R * C);
    const int64_t *idx = loadIndices<int64_t>(dir + "/W3_idx.bin", R * K);
    constexpr bool Checked = checks(M);
    const bool streaming =
        prefetches(M) && streamsRows(R * K * sizeof(float), K * sizeof(float),
                                     R * C * sizeof(float));
    const bool indexPrefetch = prefetchIndexBesideInputRows();
    const int64_t indexLevel = prefetchIndexStreams();
    bool bad = false;
#pragma omp parallel reduction(|| : bad)
    {
#pragma omp for
      for (int64_t r = 0; r < R; ++r) {
        bool rowBad = false;
        if (prefetches(M)) {
          // The next row's 256 lines, 4 per 16 outputs (C / K = 4 elements
          // of the row per output), and the 2 lines of the next row's
          // indices that the same 16 outputs read there, as compiled; with
          // streaming stores the 16 outputs (a line) gathered in registers,
          // then written past the caches.
          const float *next = &data[std::min(r + 1, R - 1) * C];
          const int64_t *nextIdx = &idx[std::min(r + 1, R - 1) * K];
          for (int64_t k = 0; k < K; k += 16) {
            for (int64_t l = 0; l < 4; ++l)
              prefetchLine(next + k * (C / K) + l * 16);
            if (indexPrefetch) {
              prefetchIndexLine(nextIdx + k, indexLevel);
              prefetchIndexLine(nextIdx + k + 8, indexLevel);
            }
            alignas(64) float line[16];
            float *to = streaming ? line : &out[r * K + k];
            for (int64_t j = 0; j < 16; ++j)
              to[j] =
                  data[r * C + resolve<Checked>(idx[r * K + k + j], C, rowBad)];
            if (streaming)
              for (int64_t b = 0; b < 64; b += kRegisterBytes)
                streamRegister(
                    reinterpret_cast<char *>(&out[r * K + k]) + b,
                    loadRegister(reinterpret_cast<char *>(line) + b));
          }
          bad |= rowBad;
          continue;
        }
        for (int64_t k = 0; k < K; ++k)
          out[r * K + k] =
              data[r * C + resolve<Checked>(idx[r * K + k], C, rowBad)];
        bad |= rowBad;
      }
      if (streaming)
        _mm_sfence();
    }
    return !bad;
  }

  template <int M> bool W4() {
    const int64_t B = 16, H = 512, W = 512, C = 4, K = 65536;
    const float *data = loadData<float>(dir + "/W4_data.bin", B * H * W * C);
    const int64_t *idx = loadIndices<int64_t>(dir + "/W4_idx.bin", B * K * 2);
    constexpr bool Checked = checks(M);
    const int64_t ahead = prefetchLinesAhead();
    const bool indexPrefetch = prefetches(M) && prefetchIndexStreams() != 0;
    const int64_t indexLevel = prefetchIndexStreams();
    bool bad = false;
    // Groups of 4 blocks (K is a multiple of 4): a line of pairs each.
#pragma omp parallel for collapse(2) reduction(|| : bad)
    for (int64_t b = 0; b < B; ++b)
      for (int64_t k0 = 0; k0 < K; k0 += 4) {
        // As compiled: the pairs that the read ahead below will take
        // `ahead` blocks later, a line (4 pairs) a group.
        if (indexPrefetch)
          prefetchIndexLine(&idx[(b * K + std::min(k0 + 2 * ahead, K - 4)) * 2],
                            indexLevel);
        for (int64_t k = k0; k < k0 + 4; ++k) {
          if (prefetches(M)) {
            // As compiled: the address's coordinates are the values' low
            // bits (H and W are powers of two), a valid negative value's
            // being its wrapped coordinate.
            static_assert((H & (H - 1)) == 0 && (W & (W - 1)) == 0);
            const int64_t *q = &idx[(b * K + std::min(k + ahead, K - 1)) * 2];
            prefetchLine(
                &data[((b * H + (q[0] & (H - 1))) * W + (q[1] & (W - 1))) * C]);
          }
          const int64_t *p = &idx[(b * K + k) * 2];
          int64_t y = resolve<Checked>(p[0], H, bad);
          int64_t x = resolve<Checked>(p[1], W, bad);
          std::memcpy(&out[(b * K + k) * C], &data[((b * H + y) * W + x) * C],
                      C * sizeof(float));
        }
      }
    return !bad;
  }

  // W5 (8 index rows) and W5x64 (64): each (n, c) pair resolved once into
  // its offset in the image (as the compiled code's offset table), then
  // the pixels outermost, so that all index rows read a pixel's lines
  // while they are in L1 (as compiled).
  // Whether W5's output (R index rows of 56x56 pixels of 16 f32) is
  // streamed: the compiled code's rule (streamsRows), with AVX2's 32-byte
  // non-temporal stores into an aligned output.
  bool streamsW5Rows(int64_t R) {
#ifdef __AVX2__
    return streamsRows(R * 56 * 56 * 16 * 4, 16 * 4, 32 * 56 * 56 * 64 * 4) &&
           reinterpret_cast<uintptr_t>(out.data()) % 32 == 0;
#else
    return false;
#endif
  }

  template <int M, int64_t R> bool W5(const char *name) {
    constexpr bool Checked = checks(M);
    const int64_t N = 32, H = 56, W = 56, C = 64, P = 16;
    const float *data =
        loadData<float>(dir + "/" + name + "_data.bin", N * H * W * C);
    const int64_t *idx =
        loadIndices<int64_t>(dir + "/" + name + "_idx.bin", R * P * 2);
    bool bad = false;
    int64_t offset[R][P];
    for (int64_t r = 0; r < R; ++r)
      for (int64_t p = 0; p < P; ++p) {
        int64_t n = resolve<Checked>(idx[(r * P + p) * 2], N, bad);
        int64_t c = resolve<Checked>(idx[(r * P + p) * 2 + 1], C, bad);
        offset[r][p] = n * H * W * C + c;
      }
    // The prefetch variants do what the compiled code does: each read also
    // prefetches its offset in the next pixel (the last pixel's at the
    // end; only where the compiled code does, CpuTarget's
    // prefetchOffsetTables: not on Zen 1 nor on Intel's cores with AMX),
    // and the pixels go in tiles, each index row
    // walking the tile, of as many pixels as the compiled code takes
    // (CpuTarget's offsetTileFootprintBytes: the pixels' reads, a line each
    // but at most the 128 lines of a pixel's channel rows, within the
    // budget, which depends on whether the reads are fewer than 4 a line;
    // the largest such count that divides the columns); the other
    // variants one pixel at a time.
    const bool Prefetch = prefetches(M) && prefetchOffsetTables();
    int64_t T = 1;
    if (prefetches(M)) {
      const int64_t sliceLines = N * C * 4 / 64;
      int64_t pixelBytes = std::min<int64_t>(R * P * 64, sliceLines * 64);
      T = std::min<int64_t>(W, offsetTileBytes(R * P < 4 * sliceLines) /
                                   pixelBytes);
      while (T > 1 && W % T != 0)
        --T;
    }
    // Where the compiled code streams the output (its rule, streamsRows:
    // W5x64's 12.8 MB on a small L3), the prefetch variants do too: each
    // output row of 16 elements is built in two registers from its loads
    // and written with two non-temporal stores, as the compiled
    // offset-table rows do.
    const bool streaming = prefetches(M) && streamsW5Rows(R);
    // Where the compiled code gathers rows that do not stream (its rule,
    // gatherOffsetRows: Intel's server cores, whose rows are not
    // prefetched), the prefetch variants do too: two gathers of 8 lanes and
    // one store a row with AVX-512, four of 4 and two stores with AVX2.
    const bool gathered =
        prefetches(M) && gatherOffsetRows() && !Prefetch && !streaming;
    // Where the compiled code collects the rows that neither stream nor
    // gather in registers (its rule, collectOffsetRows: Zen 4), the
    // prefetch variants do too with AVX-512: each register built from its
    // loads, then one store. With AVX2 they keep a store an element, their
    // faster form: on the Zen 4 (paired.py --target x86-64-v3, 2 threads)
    // W5x64's collected C++ loop ran 1.31x the gather's time, the element
    // stores 1.16x (with AVX-512 1.02x and 1.15x).
#if defined(__AVX512F__)
    const bool collected =
        prefetches(M) && collectOffsetRows() && !gathered && !streaming;
#endif
#pragma omp parallel
    {
#pragma omp for
      for (int64_t h = 0; h < H; ++h)
        for (int64_t x0 = 0; x0 < W; x0 += T)
          for (int64_t r = 0; r < R; ++r)
            for (int64_t x = x0; x < x0 + T; ++x) {
              const float *pixel = &data[(h * W + x) * C];
              const float *ahead =
                  &data[std::min(h * W + x + 1, H * W - 1) * C];
              float *row = &out[((r * H + h) * W + x) * P];
              const int64_t *o = offset[r];
#if defined(__AVX512F__)
              if (gathered) {
                for (int64_t p = 0; p < P; p += 16) {
                  __m256 low = _mm512_i64gather_ps(_mm512_loadu_si512(o + p),
                                                   pixel, sizeof(float));
                  __m256 high = _mm512_i64gather_ps(
                      _mm512_loadu_si512(o + p + 8), pixel, sizeof(float));
                  _mm512_storeu_ps(
                      row + p,
                      _mm512_castpd_ps(_mm512_insertf64x4(
                          _mm512_castpd256_pd512(_mm256_castps_pd(low)),
                          _mm256_castps_pd(high), 1)));
                }
                continue;
              }
#elif defined(__AVX2__)
              if (gathered) {
                for (int64_t p = 0; p < P; p += 8) {
                  __m128 low = _mm256_i64gather_ps(
                      pixel,
                      _mm256_loadu_si256(
                          reinterpret_cast<const __m256i *>(o + p)),
                      sizeof(float));
                  __m128 high = _mm256_i64gather_ps(
                      pixel,
                      _mm256_loadu_si256(
                          reinterpret_cast<const __m256i *>(o + p + 4)),
                      sizeof(float));
                  _mm256_storeu_ps(row + p, _mm256_set_m128(high, low));
                }
                continue;
              }
#endif
#ifdef __AVX2__
              if (streaming) {
                for (int64_t p = 0; p < P; p += 8) {
                  if (Prefetch)
                    for (int64_t q = p; q < p + 8; ++q)
                      prefetchLine(ahead + o[q]);
                  _mm256_stream_ps(
                      row + p,
                      _mm256_setr_ps(pixel[o[p]], pixel[o[p + 1]],
                                     pixel[o[p + 2]], pixel[o[p + 3]],
                                     pixel[o[p + 4]], pixel[o[p + 5]],
                                     pixel[o[p + 6]], pixel[o[p + 7]]));
                }
                continue;
              }
#endif
#if defined(__AVX512F__)
              if (collected) {
                if (Prefetch)
                  for (int64_t p = 0; p < P; ++p)
                    prefetchLine(ahead + o[p]);
                _mm512_storeu_ps(
                    row, _mm512_setr_ps(pixel[o[0]], pixel[o[1]], pixel[o[2]],
                                        pixel[o[3]], pixel[o[4]], pixel[o[5]],
                                        pixel[o[6]], pixel[o[7]], pixel[o[8]],
                                        pixel[o[9]], pixel[o[10]], pixel[o[11]],
                                        pixel[o[12]], pixel[o[13]],
                                        pixel[o[14]], pixel[o[15]]));
                continue;
              }
#endif
              for (int64_t p = 0; p < P; ++p) {
                if (Prefetch)
                  prefetchLine(ahead + o[p]);
                row[p] = pixel[o[p]];
              }
            }
      if (streaming)
        _mm_sfence();
    }
    return !bad;
  }

  // W3's memory floor (bench/paired.py): every index read, each line of a
  // table row that the row's indices point into loaded once (98% of the
  // row's 256 lines, for 1024 random indices), and the output stored,
  // streamed where the C++ prefetch loops stream it. A correct call moves
  // at least these bytes; this one does nothing else (no gather: a load per
  // line, summed as integers, and a load per line of indices make the
  // stored values). The lines of each row come from a table built on the
  // first call, outside the timed region of later ones. With `Prefetch`,
  // each line's load prefetches the same line of the next row, as the
  // gathers prefetch the next row while reading one.
  std::vector<uint64_t> w3Lines;
  template <bool Prefetch, bool AsTheLoops = false> void W3Floor() {
    const int64_t R = 4096, C = 4096, K = 1024, LineFloats = 16;
    const int64_t Words = C / LineFloats / 64;
    const uint32_t *data = reinterpret_cast<const uint32_t *>(
        loadData<float>(dir + "/W3_data.bin", R * C));
    const int64_t *idx = loadIndices<int64_t>(dir + "/W3_idx.bin", R * K);
    if (w3Lines.empty()) {
      w3Lines.assign(R * Words, 0);
      for (int64_t r = 0; r < R; ++r)
        for (int64_t k = 0; k < K; ++k) {
          int64_t line = wrap(idx[r * K + k], C) / LineFloats;
          w3Lines[r * Words + line / 64] |= uint64_t(1) << (line % 64);
        }
    }
    const bool streaming =
        streamsRows(R * K * int64_t(sizeof(float)), K * sizeof(float),
                    R * C * int64_t(sizeof(float)));
    const bool indexPrefetch = prefetchIndexBesideInputRows();
    const int64_t indexLevel = prefetchIndexStreams();
#pragma omp parallel
    {
#pragma omp for
      for (int64_t r = 0; r < R; ++r) {
        if (AsTheLoops) {
          // Every line of the row (2% more than the needed ones), the 2
          // lines of indices and 16 outputs a step, and the 4 lines of the
          // next row and 2 of its indices the loops prefetch in that step.
          const uint32_t *row = &data[r * C];
          const uint32_t *next = &data[std::min(r + 1, R - 1) * C];
          const int64_t *ix = &idx[r * K];
          const int64_t *nextIdx = &idx[std::min(r + 1, R - 1) * K];
          for (int64_t k = 0; k < K; k += 16) {
            uint32_t sum = 0;
            for (int64_t l = 0; l < 4; ++l) {
              prefetchLine(next + k * (C / K) + l * LineFloats);
              sum += row[k * (C / K) + l * LineFloats];
            }
            if (indexPrefetch) {
              prefetchIndexLine(nextIdx + k, indexLevel);
              prefetchIndexLine(nextIdx + k + 8, indexLevel);
            }
            const float v = static_cast<float>(sum + ix[k] + ix[k + 8]);
            float *o = &out[r * K + k];
#ifdef __AVX2__
            if (streaming) {
              _mm256_stream_ps(o, _mm256_set1_ps(v));
              _mm256_stream_ps(o + 8, _mm256_set1_ps(v));
              continue;
            }
#endif
            for (int64_t j = 0; j < 16; ++j)
              o[j] = v;
          }
          continue;
        }
        uint32_t sum = 0;
        for (int64_t w = 0; w < Words; ++w)
          for (uint64_t bits = w3Lines[r * Words + w]; bits; bits &= bits - 1) {
            const int64_t at = (w * 64 + __builtin_ctzll(bits)) * LineFloats;
            if (Prefetch)
              prefetchLine(&data[std::min(r + 1, R - 1) * C + at]);
            sum += data[r * C + at];
          }
        float *row = &out[r * K];
        const int64_t *ix = &idx[r * K];
        for (int64_t k = 0; k < K; k += 16) {
          const float v = static_cast<float>(sum + ix[k] + ix[k + 8]);
#ifdef __AVX2__
          if (streaming) {
            _mm256_stream_ps(row + k, _mm256_set1_ps(v));
            _mm256_stream_ps(row + k + 8, _mm256_set1_ps(v));
            continue;
          }
#endif
          for (int64_t j = 0; j < 16; ++j)
            row[k + j] = v;
        }
      }
      if (streaming)
        _mm_sfence();
    }
  }

  // W5's memory floor (bench/paired.py): each cache line any (n, c) pair
  // reads in a pixel (the distinct (n, c / 16) of all pairs, the same for
  // every pixel) loaded once, and every output element stored. A correct
  // call of any code moves at least these bytes; this one does nothing else
  // (no gather: the loads' bits are summed as integers, and the stores write
  // the sums). Forms: a pixel at a time, with or without each line's load
  // prefetching that line in the next pixel, or tiles of T pixels (each
  // line loaded for the tile's pixels in turn, then each index row's run of
  // outputs stored), since the fastest order of the loads differs by CPU.
  template <int64_t R, int64_t T, bool Prefetch>
  void W5Floor(const char *name) {
    const int64_t N = 32, H = 56, W = 56, C = 64, P = 16, LineFloats = 16;
    const uint32_t *data = reinterpret_cast<const uint32_t *>(
        loadData<float>(dir + "/" + name + "_data.bin", N * H * W * C));
    const int64_t *idx =
        loadIndices<int64_t>(dir + "/" + name + "_idx.bin", R * P * 2);
    int64_t line[R * P];
    for (int64_t k = 0; k < R * P; ++k)
      line[k] = wrap(idx[2 * k], N) * H * W * C +
                wrap(idx[2 * k + 1], C) / LineFloats * LineFloats;
    std::sort(line, line + R * P);
    const int64_t L = std::unique(line, line + R * P) - line;
    // The output stored as the compiled code stores it: streamed where its
    // rule streams (W5x64 on a small L3).
    const bool streaming = streamsW5Rows(R);
#pragma omp parallel
    {
#pragma omp for
      for (int64_t h = 0; h < H; ++h)
        for (int64_t x0 = 0; x0 < W; x0 += T) {
          const int64_t t = std::min(T, W - x0);
          const uint32_t *pixel = &data[(h * W + x0) * C];
          const uint32_t *ahead =
              &data[std::min(h * W + x0 + 1, H * W - 1) * C];
          uint32_t sum[T] = {};
          for (int64_t l = 0; l < L; ++l) {
            if (Prefetch)
              prefetchLine(ahead + line[l]);
            for (int64_t x = 0; x < t; ++x)
              sum[x] += pixel[x * C + line[l]];
          }
          for (int64_t r = 0; r < R; ++r)
            for (int64_t x = 0; x < t; ++x) {
              float *row = &out[((r * H + h) * W + x0 + x) * P];
#ifdef __AVX2__
              if (streaming) {
                for (int64_t p = 0; p < P; p += 8)
                  _mm256_stream_ps(row + p,
                                   _mm256_set1_ps(static_cast<float>(sum[x])));
                continue;
              }
#endif
              for (int64_t p = 0; p < P; ++p)
                row[p] = static_cast<float>(sum[x]);
            }
        }
      if (streaming)
        _mm_sfence();
    }
  }
};

// The output's element count of workload `w` (0: unknown).
static size_t outputSize(const std::string &w) {
  return w == "W1" || w == "W1i32" || w == "W1f16" ? 8192 * 768
         : w == "W6"                               ? 32 * 768
         : w == "W7"                               ? 65536 * 64
         : w == "W8"                               ? 1024 * 1024
         : w == "W9"                               ? 2048 * 4096
         : w == "W2"                               ? 64 * 500 * 256
         : w == "W3"                               ? 4096 * 1024
         : w == "W4"                               ? 16 * 65536 * 4
         : w == "W5"                               ? 8 * 56 * 56 * 16
         : w == "W5x64"                            ? 64 * 56 * 56 * 16
                                                   : 0;
}

// One call of workload `w`'s loop in `mode`; false: a bad index (checked).
static bool runWorkload(Workloads &workloads, const std::string &w, int mode) {
  auto dispatch = [&](auto modeConstant) {
    constexpr int M = decltype(modeConstant)::value;
    if (w == "W1")
      return workloads.W1<M>();
    if (w == "W1i32")
      return workloads.W1i32<M>();
    if (w == "W1f16")
      return workloads.W1f16<M>();
    if (w == "W6")
      return workloads.W6<M>();
    if (w == "W7")
      return workloads.W7<M>();
    if (w == "W8")
      return workloads.W8<M>();
    if (w == "W9")
      return workloads.W9<M>();
    if (w == "W2")
      return workloads.W2<M>();
    if (w == "W3")
      return workloads.W3<M>();
    if (w == "W4")
      return workloads.W4<M>();
    if (w == "W5x64")
      return workloads.W5<M, 64>("W5x64");
    return workloads.W5<M, 8>("W5");
  };
  return mode == Mode::Unchecked
             ? dispatch(std::integral_constant<int, Mode::Unchecked>())
         : mode == Mode::Checked
             ? dispatch(std::integral_constant<int, Mode::Checked>())
         : mode == Mode::Prefetch
             ? dispatch(std::integral_constant<int, Mode::Prefetch>())
             : dispatch(std::integral_constant<int, Mode::CheckedPrefetch>());
}

// The bandwidth reference: `bytes` copied from `source` to `target`, split
// over the threads in one parallel loop; from the streaming threshold on
// with non-temporal stores, as the gathers' row copies from memory (glibc's
// memcpy decides by a cache size of its own: on the Zen 1 VM whose sysfs
// reports an 8 MiB L3, CPUID reports 64 MiB). By the output's size alone:
// the reference is a copy from memory whatever the gather's input.
static void parallelCopy(char *target, const char *source, size_t bytes) {
  int threads = omp_get_max_threads();
  size_t chunk = (bytes + threads - 1) / threads;
  const bool streaming =
      static_cast<int64_t>(bytes) >= streamingStoreMinBytes();
#pragma omp parallel for if (bytes >= (1 << 20))
  for (int t = 0; t < threads; ++t) {
    size_t begin = std::min(bytes, t * chunk);
    size_t end = std::min(bytes, begin + chunk);
    if (streaming) {
      copyRowStreaming(target + begin, source + begin, end - begin);
      _mm_sfence();
    } else {
      std::memcpy(target + begin, source + begin, end - begin);
    }
  }
}

#ifdef BASELINE_LIBRARY
// The loops as a shared library, for a harness that calls them and the
// compiled gathers alternately in one process (bench/paired.py): linked
// against LLVM's libomp (which implements libgomp's entry points), the
// runtime of the compiled code, so that one OpenMP thread pool serves both.
static Workloads *library;
static std::string libraryWorkload;
static AlignedBuffer<char> librarySource;

extern "C" {
// Workload `w` with `threads` threads, its operands `data` and `indices`
// (C order, the types of its NAME_data.bin and NAME_idx.bin), or where they
// are null read from those files in `dir`: 0 on success.
int baseline_open(const char *w, const char *dir, int threads, const void *data,
                  const void *indices) {
  givenData = data;
  givenIndices = indices;
  size_t size = outputSize(w);
  if (!size)
    return 1;
  omp_set_num_threads(threads);
  delete library;
  library = new Workloads{dir, {}, {}};
  libraryWorkload = w;
  bool half = libraryWorkload == "W1f16";
  if (half)
    library->outHalf.assign(size, 0);
  else
    library->out.assign(size, 0);
  librarySource.assign(size * (half ? 2 : sizeof(float)), 1);
  return 0;
}
// One call: mode 0-3 the loops (unchecked, checked, prefetch, checked
// prefetch), 4 the memcpy reference into the output. 1: done, 0: a bad index.
int baseline_call(int mode) {
  bool half = libraryWorkload == "W1f16";
  char *target = half ? reinterpret_cast<char *>(library->outHalf.data())
                      : reinterpret_cast<char *>(library->out.data());
  if (mode == NumModes) {
    size_t bytes = outputSize(libraryWorkload) * (half ? 2 : sizeof(float));
    parallelCopy(target, librarySource.data(), bytes);
    return 1;
  }
  return runWorkload(*library, libraryWorkload, mode);
}
// The memory floor's forms (Workloads::W5Floor, W3Floor), in
// baseline_floor's order.
static const char *const kW5FloorForms[] = {"pixels", "pixels, prefetch",
                                            "tiles of 8", "tiles of 28"};
// The name of the workload's memory floor in form `form`, or null past the
// last (or where it has none).
const char *baseline_floor_name(int form) {
  if (libraryWorkload == "W3")
    return form == 0   ? "lines of each row"
           : form == 1 ? "lines, the next row's prefetched"
           : form == 2 ? "rows, as the loops prefetch"
                       : nullptr;
  if (libraryWorkload != "W5" && libraryWorkload != "W5x64")
    return nullptr;
  return form >= 0 && form < 4 ? kW5FloorForms[form] : nullptr;
}
// One call of the workload's memory floor (W3: Workloads::W3Floor; W5,
// W5x64: Workloads::W5Floor) in form `form` (baseline_floor_name). 1: done,
// 0: the workload has no floor or no such form.
int baseline_floor(int form) {
  if (libraryWorkload == "W3") {
    if (form == 0)
      library->W3Floor<false>();
    else if (form == 1)
      library->W3Floor<true>();
    else if (form == 2)
      library->W3Floor<true, true>();
    else
      return 0;
    return 1;
  }
  auto call = [&](auto rows) {
    constexpr int64_t R = decltype(rows)::value;
    const char *name = R == 8 ? "W5" : "W5x64";
    if (form == 0)
      library->W5Floor<R, 1, false>(name);
    else if (form == 1)
      library->W5Floor<R, 1, true>(name);
    else if (form == 2)
      library->W5Floor<R, 8, false>(name);
    else if (form == 3)
      library->W5Floor<R, 28, false>(name);
    else
      return 0;
    return 1;
  };
  if (libraryWorkload == "W5")
    return call(std::integral_constant<int64_t, 8>());
  if (libraryWorkload == "W5x64")
    return call(std::integral_constant<int64_t, 64>());
  return 0;
}
// The output of the last call.
const void *baseline_output() {
  return libraryWorkload == "W1f16"
             ? static_cast<const void *>(library->outHalf.data())
             : static_cast<const void *>(library->out.data());
}
}
#else
int main(int argc, char **argv) {
  if (argc != 5) {
    std::fprintf(stderr, "usage: baseline WORKLOAD DIR RUNS THREADS\n");
    return 2;
  }
  std::string w = argv[1];
  int runs = std::atoi(argv[3]);
  omp_set_num_threads(std::atoi(argv[4]));
  Workloads workloads{argv[2], {}, {}};
  const size_t outSize = outputSize(w);
  if (!outSize) {
    std::fprintf(stderr, "unknown workload %s\n", w.c_str());
    return 2;
  }
  bool half = w == "W1f16";
  if (half)
    workloads.outHalf.assign(outSize, 0);
  else
    workloads.out.assign(outSize, 0);
  auto call = [&](int mode) { return runWorkload(workloads, w, mode); };
  auto writeOutput = [&](const std::string &suffix) {
    std::string outPath = std::string(argv[2]) + "/" + w + suffix;
    FILE *f = std::fopen(outPath.c_str(), "wb");
    size_t written =
        f ? (half
                 ? std::fwrite(workloads.outHalf.data(), 2, outSize, f)
                 : std::fwrite(workloads.out.data(), sizeof(float), outSize, f))
          : 0;
    if (written != outSize) {
      std::fprintf(stderr, "cannot write %s\n", outPath.c_str());
      std::exit(1);
    }
    std::fclose(f);
  };
  double medians[NumModes];
  double memcpyMedian = 0;
  for (int mode = 0; mode < NumModes; ++mode) {
    // Zeros first: a variant that wrote nothing cannot pass for another.
    std::fill(workloads.out.begin(), workloads.out.end(), 0.0f);
    std::fill(workloads.outHalf.begin(), workloads.outHalf.end(), 0);
    call(mode); // loads the data outside the timed runs
    std::vector<double> times;
    for (int run = 0; run < runs; ++run) {
      auto t0 = std::chrono::steady_clock::now();
      if (!call(mode)) {
        std::fprintf(stderr, "index out of bounds\n");
        return 1;
      }
      times.push_back(std::chrono::duration<double, std::milli>(
                          std::chrono::steady_clock::now() - t0)
                          .count());
    }
    std::sort(times.begin(), times.end());
    medians[mode] = times[times.size() / 2];
    // For the harness to compare with numpy.
    static const char *const suffixes[NumModes] = {
        "_cpp_unchecked_out.bin", "_cpp_checked_out.bin",
        "_cpp_prefetch_out.bin", "_cpp_checked_prefetch_out.bin"};
    writeOutput(suffixes[mode]);
  }
  {
    size_t bytes = outSize * (half ? 2 : sizeof(float));
    AlignedBuffer<char> source;
    source.assign(bytes, 1);
    char *target = half ? reinterpret_cast<char *>(workloads.outHalf.data())
                        : reinterpret_cast<char *>(workloads.out.data());
    auto copy = [&] { parallelCopy(target, source.data(), bytes); };
    copy();
    std::vector<double> times;
    for (int run = 0; run < runs; ++run) {
      auto t0 = std::chrono::steady_clock::now();
      copy();
      times.push_back(std::chrono::duration<double, std::milli>(
                          std::chrono::steady_clock::now() - t0)
                          .count());
    }
    std::sort(times.begin(), times.end());
    memcpyMedian = times[times.size() / 2];
  }
  std::printf("%.4f %.4f %.4f %.4f %.4f\n", medians[Mode::Unchecked],
              medians[Mode::Checked], memcpyMedian, medians[Mode::Prefetch],
              medians[Mode::CheckedPrefetch]);
  return 0;
}
#endif
