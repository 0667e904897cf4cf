// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
// How close a gather of whole rows can come to a memcpy of its output bytes
// on this machine, whatever code does it. For a block gather (W1: 3 KiB
// embedding rows picked from a 50000-row table; W2: 1 KiB rows picked along
// the middle axis of 64 slices of 1000 rows; W7: 256-byte rows of a
// 100000-row table, copied a row at a time here where the compiled code
// tiles them) it times, in alternating rounds
// on the same threads:
//   memcpy:      one memcpy of the output's bytes from a buffer of that
//                size, split over the threads (bench/run.py's reference);
//   sequential:  the row copies of "vector" below with indices 0, 1, 2, ...
//                from a table of the output's size, without prefetch: the
//                same copies in the order a memcpy reads them;
//   random:      the gather's row copies with the workload's random indices
//                (uniform, seeded), one memcpy per row;
//   prefetch D:  random, with every cache line of the row D copies ahead
//                prefetched (the compiled block copy prefetches 128 lines
//                ahead: 2 rows of W1, 8 of W2);
//   vector D:    prefetch D with each row copied by vector loads and stores
//                in chunks of 8 registers (8 loads, then 8 stores: 512
//                bytes with AVX-512, 256 with AVX2) instead of a call of
//                memcpy, as the compiled block copy does;
//   streaming D: vector D with non-temporal stores (copyRowStreaming);
//   streaming 0: streaming D without the prefetch;
//   streaming D, L lines: streaming D prefetching only the first L lines
//                of each row ahead (the hardware prefetchers may follow a
//                row's lines once its first ones were read);
//   memcpy streaming: memcpy's copy with non-temporal stores;
//   vector D + read, streaming D + read: the gather, then a consumer that
//                reads its whole output (a vectorized sum): what streaming
//                stores cost a consumer that would have found the output
//                in the caches;
//   compiled:    built with GATHER_CAPI, the gather itself: the workload's
//                gather.block compiled by the C API for TARGET (default
//                policy) and called with its result written in place,
//                on the same arrays and threads (bench/run.py's program);
// and prints each median against memcpy's, against the faster of the two
// memcpy forms (the bytes the gather writes, copied at the best rate
// measured here), and against "random". "random" is torch's kernel for W1
// and W7: ATen's index_select_out_cpu_ copies the rows of a contiguous
// dim-0 gather with one memcpy per row in a parallel loop (and a bounds
// check per row). Every variant's output is checked against a plain loop.
// W1 also runs with 2048 and 512 indices (6.3 and 1.6 MB outputs) to see
// where streaming stores stop paying.
//
// The arrays are 64-byte aligned and from 4 MiB on advised for huge pages
// (as the compiled code's and bench/paired.py's). OFFSET puts the table
// that many bytes past a 64-byte boundary (a multiple of 4): 16 is where
// numpy's large arrays start, which bench/paired.py's gathers read.
//
//   g++ -O3 -march=native -fopenmp bench/row_copy_bound.cpp -o /tmp/rowbound
//   OMP_NUM_THREADS=2 /tmp/rowbound [RUNS] [ROUNDS] [OFFSET] [TARGET]
//
// With the compiled gather, for the CPU TARGET (default native; x86-64-v3
// with a -march=x86-64-v3 build), and LLVM's libomp for the C++ loops too:
// one OpenMP runtime, whose threads both use, where two would each start a
// team (two commands, as bench/README.md gives them on one line each):
//
//   g++ -O3 -march=native -fopenmp -DGATHER_CAPI -Iinclude
//       -I/usr/lib/llvm-22/include -c bench/row_copy_bound.cpp
//       -o /tmp/rowbound.o
//   g++ /tmp/rowbound.o -o /tmp/rowbound /usr/lib/llvm-22/lib/libomp.so
//       -Lbuild/lib -lGatherCAPI -Wl,-rpath,$PWD/build/lib
#include "host.h"
#include "row_copy.h"

#ifdef GATHER_CAPI
#include "gather-c/Gather.h"
#endif

#include <immintrin.h>
#include <omp.h>

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <random>
#include <string>
#include <vector>

namespace {
// Picks `picks` rows of `rowFloats` floats out of each of `slices` slices of
// `tableRows` rows: W1 is one slice, W2 64.
struct Shape {
  const char *name;
  int64_t slices, tableRows, picks, rowFloats;
};

// The sequential rows' source starts this many floats into its buffer: with
// source and target at the same offset in a 4 KiB page (both buffers come
// from mmap), W2's 1 KiB rows copied by memcpy ran at half speed here.
constexpr int64_t kSourceShift = 64;

// 64-byte aligned storage, advised for huge pages from 4 MiB on, as the
// compiled code's buffers and baseline.cpp's: with glibc's addresses (16
// mod 64) every streaming copy began and ended a row with a part of a line
// written through the caches, and W2's 1 KiB rows streamed ran 1.8x slower
// (bench/README.md).
template <typename T> struct LineAligned {
  using value_type = T;
  LineAligned() = default;
  template <typename U> LineAligned(const LineAligned<U> &) {}
  T *allocate(size_t n) {
    return static_cast<T *>(alignedAdvised(n * sizeof(T)));
  }
  void deallocate(T *p, size_t) { std::free(p); }
  template <typename U> bool operator==(const LineAligned<U> &) const {
    return true;
  }
};
using Floats = std::vector<float, LineAligned<float>>;

struct Problem {
  Shape shape;
  // The table proper starts `shift` floats into `storage` (OFFSET).
  Floats storage, sequentialTable, copySource, out, want;
  int64_t shift = 0;
  std::vector<int64_t> random, sequential;
  const float *table() const { return storage.data() + shift; }
};

Problem make(const Shape &s, int64_t offsetBytes) {
  Problem p;
  p.shape = s;
  p.shift = offsetBytes / static_cast<int64_t>(sizeof(float));
  int64_t outFloats = s.slices * s.picks * s.rowFloats;
  int64_t tableFloats = s.slices * s.tableRows * s.rowFloats;
  p.storage.resize(p.shift + tableFloats);
  std::mt19937_64 rng(0);
  for (float &x : p.storage)
    x = static_cast<float>(rng() % 1000);
  p.sequentialTable.assign(p.table(), p.table() + outFloats + kSourceShift);
  p.copySource.assign(outFloats, 1.0f);
  p.out.assign(outFloats, 0.0f);
  for (int64_t k = 0; k < s.picks; ++k) {
    p.random.push_back(static_cast<int64_t>(rng() % s.tableRows));
    p.sequential.push_back(k);
  }
  // Sequential picks read a table of the output's size as consecutive rows.
  p.want.resize(outFloats);
  for (int64_t a = 0; a < s.slices; ++a)
    for (int64_t k = 0; k < s.picks; ++k)
      std::memcpy(&p.want[(a * s.picks + k) * s.rowFloats],
                  &p.table()[(a * s.tableRows + p.random[k]) * s.rowFloats],
                  s.rowFloats * sizeof(float));
  return p;
}

// The row copies of a block gather, `distance` copies ahead prefetched
// (none when 0; its first `prefetchLines` lines where given), each row by
// memcpy or by vector loads and stores. `rowsPerSlice` is the table's row
// count per slice.
void copyRows(Problem &p, const float *source, const std::vector<int64_t> &idx,
              int64_t rowsPerSlice, int64_t distance, bool vectorCopy = false,
              bool streaming = false, int64_t prefetchLines = 0) {
  const Shape &s = p.shape;
  int64_t rowBytes = s.rowFloats * sizeof(float);
  int64_t copies = s.slices * s.picks;
  float *target = p.out.data();
  const int64_t *picks = idx.data();
#pragma omp parallel for schedule(static)
  for (int64_t c = 0; c < copies; ++c) {
    if (distance > 0 && c + distance < copies) {
      int64_t ahead = c + distance;
      const char *row = reinterpret_cast<const char *>(
          source + ((ahead / s.picks) * rowsPerSlice + picks[ahead % s.picks]) *
                       s.rowFloats);
      int64_t prefetchBytes =
          prefetchLines > 0 ? std::min(rowBytes, prefetchLines * 64) : rowBytes;
      for (int64_t line = 0; line < prefetchBytes; line += 64)
        _mm_prefetch(row + line, _MM_HINT_T0);
    }
    const float *from =
        source +
        ((c / s.picks) * rowsPerSlice + picks[c % s.picks]) * s.rowFloats;
    float *to = target + c * s.rowFloats;
    if (streaming)
      copyRowStreaming(to, from, rowBytes);
    else if (vectorCopy)
      copyRow(to, from, rowBytes);
    else
      std::memcpy(to, from, rowBytes);
  }
}

void copyAll(Problem &p, bool streaming = false) {
  size_t bytes = p.out.size() * sizeof(float);
  int threads = omp_get_max_threads();
  size_t chunk = (bytes + threads - 1) / threads;
  char *target = reinterpret_cast<char *>(p.out.data());
  const char *source = reinterpret_cast<const char *>(p.copySource.data());
#pragma omp parallel for
  for (int t = 0; t < threads; ++t) {
    size_t begin = std::min(bytes, t * chunk);
    size_t end = std::min(bytes, begin + chunk);
    if (streaming)
      copyRowStreaming(target + begin, source + begin, end - begin);
    else
      std::memcpy(target + begin, source + begin, end - begin);
  }
  if (streaming)
    _mm_sfence();
}

volatile float readSink;

#ifdef GATHER_CAPI
// The workload's gather compiled by the C API for the host, its result
// written into the problem's output (destination entries).
struct Compiled {
  GatherProgram *program = nullptr;
  std::vector<int64_t> dataShape, indexShape, outShape;
  ~Compiled() { gatherProgramDestroy(program); }
};

std::string tensorType(const std::vector<int64_t> &shape, const char *type) {
  std::string text = "tensor<";
  for (int64_t d : shape)
    text += std::to_string(d) + "x";
  return text + type + ">";
}

// W1 and W7 as bench/run.py writes them (a 2-D table, axis 0), W2 along
// its middle axis.
bool compile(const Shape &s, const char *target, Compiled &c) {
  int axis = s.slices > 1 ? 1 : 0;
  c.dataShape = {s.tableRows, s.rowFloats};
  c.outShape = {s.picks, s.rowFloats};
  if (axis == 1) {
    c.dataShape.insert(c.dataShape.begin(), s.slices);
    c.outShape.insert(c.outShape.begin(), s.slices);
  }
  c.indexShape = {s.picks};
  std::string data = tensorType(c.dataShape, "f32"),
              index = tensorType(c.indexShape, "i64"),
              out = tensorType(c.outShape, "f32");
  std::string text =
      "func.func @main(%d: " + data + ", %i: " + index + ") -> " + out +
      " {\n  %init = tensor.empty() : " + out +
      "\n  %0 = gather.block %d[%i] axis = " + std::to_string(axis) +
      " into %init : " + data + ", " + index + " into " + out +
      "\n  return %0 : " + out + "\n}\n";
  char error[4096];
  c.program = gatherProgramCreateForTarget(
      text.c_str(), "main", "cpu", omp_get_max_threads(), 3,
      GATHER_PROGRAM_DESTINATION_ENTRIES, target, error, sizeof(error));
  if (!c.program) {
    std::fprintf(stderr, "%s: %s\n", s.name, error);
    return false;
  }
  if (!gatherProgramWritesInPlace(c.program)) {
    std::fprintf(stderr, "%s: the compiled gather does not write in place\n",
                 s.name);
    return false;
  }
  return true;
}

void runCompiled(Compiled &c, Problem &p) {
  void *const inputs[] = {const_cast<float *>(p.table()), p.random.data()};
  const int64_t *const inputShapes[] = {c.dataShape.data(),
                                        c.indexShape.data()};
  void *const outputs[] = {p.out.data()};
  const int64_t *const outputShapes[] = {c.outShape.data()};
  char error[4096];
  if (gatherProgramRunInto(c.program, inputs, inputShapes, outputs,
                           outputShapes, error, sizeof(error))) {
    std::fprintf(stderr, "%s: %s\n", p.shape.name, error);
    std::exit(1);
  }
}
#endif

// A consumer of the whole output.
void readAll(const Problem &p) {
  const float *o = p.out.data();
  int64_t n = p.out.size();
  float total = 0;
#pragma omp parallel for simd reduction(+ : total)
  for (int64_t i = 0; i < n; ++i)
    total += o[i];
  readSink = total;
}

} // namespace

int main(int argc, char **argv) {
  int runs = argc > 1 ? std::atoi(argv[1]) : 31;
  int rounds = argc > 2 ? std::atoi(argv[2]) : 7;
  int64_t offsetBytes = argc > 3 ? std::atoll(argv[3]) : 0;
  [[maybe_unused]] const char *target = argc > 4 ? argv[4] : "native";
  if (offsetBytes < 0 || offsetBytes >= 64 || offsetBytes % 4) {
    std::fprintf(stderr, "OFFSET must be a multiple of 4 in [0, 64)\n");
    return 1;
  }
  const Shape shapes[] = {{"W1", 1, 50000, 8192, 768},
                          {"W1, 2048 indices", 1, 50000, 2048, 768},
                          {"W1, 512 indices", 1, 50000, 512, 768},
                          {"W2", 64, 1000, 500, 256},
                          {"W7", 1, 100000, 65536, 64}};
  std::printf("%d threads, median of %d runs, best of %d alternating rounds, "
              "table %lld bytes past a 64-byte boundary\n",
              omp_get_max_threads(), runs, rounds,
              static_cast<long long>(offsetBytes));
  for (const Shape &s : shapes) {
    Problem p = make(s, offsetBytes);
    int64_t linesAhead128 =
        std::max<int64_t>(1, 128 * 64 / (s.rowFloats * sizeof(float)));
    struct Variant {
      std::string name;
      std::function<void()> run;
      bool gathers; // writes the gather's output (checked)
    };
    std::vector<Variant> variants = {
        {"memcpy", [&] { copyAll(p); }, false},
        {"sequential",
         [&] {
           copyRows(p, p.sequentialTable.data() + kSourceShift, p.sequential,
                    s.picks, 0, true);
         },
         false},
        {"random", [&] { copyRows(p, p.table(), p.random, s.tableRows, 0); },
         true}};
    for (int64_t d : {int64_t(1), linesAhead128, 4 * linesAhead128})
      variants.push_back(
          {"prefetch " + std::to_string(d),
           [&, d] { copyRows(p, p.table(), p.random, s.tableRows, d); }, true});
    std::string ahead = std::to_string(linesAhead128);
    auto vector = [&] {
      copyRows(p, p.table(), p.random, s.tableRows, linesAhead128, true);
    };
    auto streaming = [&] {
      copyRows(p, p.table(), p.random, s.tableRows, linesAhead128, true, true);
      _mm_sfence();
    };
    variants.push_back({"vector " + ahead, vector, true});
    variants.push_back({"streaming " + ahead, streaming, true});
    variants.push_back({"streaming 0",
                        [&] {
                          copyRows(p, p.table(), p.random, s.tableRows, 0, true,
                                   true);
                          _mm_sfence();
                        },
                        true});
    for (int64_t lines : {int64_t(1), int64_t(4), int64_t(16)})
      variants.push_back(
          {"streaming " + ahead + ", " + std::to_string(lines) + " lines",
           [&, lines] {
             copyRows(p, p.table(), p.random, s.tableRows, linesAhead128, true,
                      true, lines);
             _mm_sfence();
           },
           true});
    variants.push_back({"memcpy streaming", [&] { copyAll(p, true); }, false});
    variants.push_back({"vector " + ahead + " + read",
                        [&] {
                          vector();
                          readAll(p);
                        },
                        true});
    variants.push_back({"streaming " + ahead + " + read",
                        [&] {
                          streaming();
                          readAll(p);
                        },
                        true});
#ifdef GATHER_CAPI
    Compiled compiled;
    if (!compile(s, target, compiled))
      return 1;
    variants.push_back({"compiled", [&] { runCompiled(compiled, p); }, true});
#endif
    std::vector<double> best(variants.size(), 1e30);
    for (int round = 0; round < rounds; ++round)
      for (size_t v = 0; v < variants.size(); ++v) {
        best[v] = std::min(best[v], medianMs(variants[v].run, runs));
        if (!variants[v].gathers)
          continue;
        // One more call on a poisoned output: what is compared is its own.
        std::fill(p.out.begin(), p.out.end(), -1.0f);
        variants[v].run();
        if (p.out != p.want) {
          std::fprintf(stderr, "%s %s: wrong output\n", s.name,
                       variants[v].name.c_str());
          return 1;
        }
      }
    std::printf("%s (%lld copies of %lld bytes, %.1f MB output)\n", s.name,
                static_cast<long long>(s.slices * s.picks),
                static_cast<long long>(s.rowFloats * sizeof(float)),
                p.out.size() * sizeof(float) / 1e6);
    // The faster memcpy form, and torch's kernel ("random").
    auto timeOf = [&](const std::string &name) {
      for (size_t v = 0; v < variants.size(); ++v)
        if (variants[v].name == name)
          return best[v];
      std::fprintf(stderr, "no variant %s\n", name.c_str());
      std::exit(1);
    };
    double copy = std::min(timeOf("memcpy"), timeOf("memcpy streaming"));
    double torchKernel = timeOf("random");
    std::printf("  %-28s %8s   %13s %18s %13s\n", "", "ms", "memcpy / this",
                "best memcpy / this", "random / this");
    for (size_t v = 0; v < variants.size(); ++v)
      std::printf("  %-28s %8.3f   %13.2f %18.2f %13.2f\n",
                  variants[v].name.c_str(), best[v], best[0] / best[v],
                  copy / best[v], torchKernel / best[v]);
  }
  return 0;
}
