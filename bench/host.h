// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
// What the hand-written benchmark programs (baseline.cpp, row_copy_bound.cpp,
// streaming_sweep.cpp, offset_chunks.cpp) share besides the row copy: their
// arrays' placement, the host's caches as the compiled code plans with
// them, its prefetch distance and streaming threshold, and the median of
// timed calls.
#ifndef GATHER_BENCH_HOST_H
#define GATHER_BENCH_HOST_H

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <functional>
#include <vector>

#include <sys/mman.h>

/// `bytes` of storage (at least one line) at a 64-byte aligned address,
/// from std::aligned_alloc (freed with std::free); from 4 MiB on, the whole
/// pages inside it advised for transparent huge pages, as
/// gather_runtime_malloc does for the compiled code's buffers. Exits when
/// memory runs out.
static inline void *alignedAdvised(size_t bytes) {
  bytes = bytes ? (bytes + 63) / 64 * 64 : 64;
  void *data =
      bytes < (size_t(1) << 48) ? std::aligned_alloc(64, bytes) : nullptr;
  if (!data) {
    std::fprintf(stderr, "out of memory\n");
    std::exit(1);
  }
  if (bytes >= (size_t(4) << 20)) {
    uintptr_t begin = (reinterpret_cast<uintptr_t>(data) + 4095) & ~4095ul;
    uintptr_t end = (reinterpret_cast<uintptr_t>(data) + bytes) & ~4095ul;
    if (end > begin)
      (void)madvise(reinterpret_cast<void *>(begin), end - begin,
                    MADV_HUGEPAGE);
  }
  return data;
}

/// A cache's size as Linux's sysfs reports it for cpu0 (`index` 0: L1d on
/// x86, 2: L2, 3: L3), else `fallback`.
static inline int64_t sysfsCacheBytes(int index, int64_t fallback) {
  char path[64];
  std::snprintf(path, sizeof(path),
                "/sys/devices/system/cpu/cpu0/cache/index%d/size", index);
  long kib = 0;
  char unit = 0;
  if (FILE *f = std::fopen(path, "r")) {
    bool read = std::fscanf(f, "%ld%c", &kib, &unit) == 2 && unit == 'K';
    std::fclose(f);
    if (read && kib > 0)
      return static_cast<int64_t>(kib) * 1024;
  }
  return fallback;
}

/// The L3 as Linux's sysfs reports it (what `gather-run --print-target`
/// plans with), else 32 MiB (the lowering's default). Not glibc's sysconf:
/// it reads CPUID, which on the Zen 1 VM whose sysfs says 8 MiB reported 64
/// MiB (the sweep's own times put the edge near 8 MiB).
static inline int64_t hostL3Bytes() {
  static const int64_t bytes = sysfsCacheBytes(3, int64_t(32) << 20);
  return bytes;
}

/// The L1 data cache of a core, the same way, else 32 KiB (the lowering's
/// default).
static inline int64_t hostL1dBytes() {
  static const int64_t bytes = sysfsCacheBytes(0, int64_t(32) << 10);
  return bytes;
}

/// The L2 of a core, the same way, else 1 MiB (the lowering's default).
static inline int64_t hostL2Bytes() {
  static const int64_t bytes = sysfsCacheBytes(2, int64_t(1) << 20);
  return bytes;
}

/// An entry of the target description the benchmark compiles for, which
/// bench/run.py and bench/paired.py pass in GATHER_<ENTRY> (peerEnvironment
/// in run.py), or -1 where it is not set.
static inline int64_t describedEntry(const char *variable) {
  const char *text = std::getenv(variable);
  return text ? static_cast<int64_t>(std::atoll(text)) : -1;
}

/// Outputs from this size on get non-temporal row stores: the compiled
/// code's rule (CpuTarget::streamingStoreMinBytes) for the target the
/// benchmark compiles for, which bench/run.py and bench/paired.py pass in
/// GATHER_STREAMING_STORE_MIN_BYTES from the target description; else half
/// the host's L3 (the rule without a mesh L3).
static inline int64_t streamingStoreMinBytes() {
  static const int64_t bytes = [] {
    int64_t value = describedEntry("GATHER_STREAMING_STORE_MIN_BYTES");
    return value > 0 ? value : hostL3Bytes() / 2;
  }();
  return bytes;
}

/// ... read from inputs from this size on: the compiled code's rule
/// (CpuTarget::streamingInputMinBytes), from GATHER_STREAMING_INPUT_MIN_BYTES
/// as above; else half the host's L3.
static inline int64_t streamingInputMinBytes() {
  static const int64_t bytes = [] {
    int64_t value = describedEntry("GATHER_STREAMING_INPUT_MIN_BYTES");
    return value >= 0 ? value : hostL3Bytes() / 2;
  }();
  return bytes;
}

/// The L3 the benchmark compiles for (GATHER_L3_BYTES, as above), else the
/// host's.
static inline int64_t describedL3Bytes() {
  static const int64_t bytes = [] {
    int64_t value = describedEntry("GATHER_L3_BYTES");
    return value > 0 ? value : hostL3Bytes();
  }();
  return bytes;
}

/// A prefetch of the line at `p` into every cache level (prefetcht0, what
/// the compiled code's memref.prefetch with locality 3 becomes). Not
/// __builtin_prefetch: GCC 12's tree DCE deleted those of baseline.cpp's
/// row loops (the prefetchLines helper inlined into a lambda), so that its
/// "prefetch" row loops for W1, W1i32, W1f16, W6 and W7 had none, which
/// `objdump -d` showed; an asm statement is not removed.
static inline void prefetchLine(const void *p) {
#if defined(__x86_64__)
  asm volatile("prefetcht0 %0" : : "m"(*static_cast<const char *>(p)));
#else
  __builtin_prefetch(p);
#endif
}

/// Cache lines the software prefetch runs ahead: the compiled code's rule
/// (CpuTarget::prefetchLinesAhead) for the target the benchmark compiles
/// for, which bench/run.py and bench/paired.py pass in
/// GATHER_PREFETCH_LINES_AHEAD from the target description; else the rule
/// on the host's L1d (a quarter of it, at most 8 KiB, in 64-byte lines).
static inline int64_t prefetchLinesAhead() {
  static const int64_t lines = [] {
    int64_t value = describedEntry("GATHER_PREFETCH_LINES_AHEAD");
    if (value > 0)
      return value;
    return std::max<int64_t>(1,
                             std::min<int64_t>(hostL1dBytes() / 4, 8192) / 64);
  }();
  return lines;
}

/// Lines of a block prefetched at most: the compiled code's rule
/// (CpuTarget::prefetchMaxBlockLines) for the target the benchmark compiles
/// for, which bench/run.py and bench/paired.py pass in
/// GATHER_PREFETCH_BLOCK_LINES from the target description; else 16.
static inline int64_t prefetchBlockLines() {
  static const int64_t lines = [] {
    int64_t value = describedEntry("GATHER_PREFETCH_BLOCK_LINES");
    return value > 0 ? value : int64_t(16);
  }();
  return lines;
}

/// The footprint budget of offset-table tiles (W5's pixels): the compiled
/// code's (CpuTarget::offsetTileFootprintBytes) for the target the
/// benchmark compiles for, which bench/run.py and bench/paired.py pass in
/// GATHER_OFFSET_TILE_BYTES, and GATHER_OFFSET_TILE_BYTES_FEW_READS for
/// pixels that read their lines fewer than 4 times each; else twice the
/// host's L1d.
static inline int64_t offsetTileBytes(bool fewReads) {
  static const int64_t many = describedEntry("GATHER_OFFSET_TILE_BYTES");
  static const int64_t few =
      describedEntry("GATHER_OFFSET_TILE_BYTES_FEW_READS");
  int64_t value = fewReads ? few : many;
  return value > 0 ? value : 2 * hostL1dBytes();
}

/// Offsets per chunk of the chunked point loops (W8): the compiled code's
/// chunk (CpuTarget::offsetChunkBytes, 8-byte offsets) for the target the
/// benchmark compiles for, which bench/run.py and bench/paired.py pass in
/// GATHER_OFFSET_CHUNK_BYTES, in whole steps of 16 (as the compiled code
/// takes whole vector steps; the streamed loads take 16 at a time); else
/// 512.
static inline int64_t offsetChunkElements() {
  static const int64_t elements = [] {
    int64_t bytes = describedEntry("GATHER_OFFSET_CHUNK_BYTES");
    return bytes >= 8 ? std::max<int64_t>(16, bytes / 8 / 16 * 16)
                      : int64_t(512);
  }();
  return elements;
}

/// Whether rows read at offsets from a table (W5) prefetch each read's
/// offset in the next pixel: the compiled code's choice
/// (CpuTarget::prefetchOffsetTables) for the target the benchmark compiles
/// for, which bench/run.py and bench/paired.py pass in
/// GATHER_PREFETCH_OFFSET_TABLES (0, 1 or 2) from the target description;
/// else all but Zen 1 do. Under 2 (Zen 4) the compiled rows prefetch only
/// where pixels read each line fewer than 8 times (not W5x64), but the C++
/// prefetch loops prefetch throughout: on the Zen 4 they ran W5x64 faster
/// so, and a peer is the best loop.
static inline bool prefetchOffsetTables() {
  static const bool on = [] {
    int64_t value = describedEntry("GATHER_PREFETCH_OFFSET_TABLES");
    if (value >= 0)
      return value != 0;
#ifdef __znver1__
    return false;
#else
    return true;
#endif
  }();
  return on;
}

/// Whether rows read at offsets from a table (W5) that do not stream load
/// each register with gathers: the compiled code's choice
/// (CpuTarget::gatherOffsetRows: Intel's server cores) for the target the
/// benchmark compiles for, which bench/run.py and bench/paired.py pass in
/// GATHER_GATHER_OFFSET_ROWS (0 or 1); else none do.
static inline bool gatherOffsetRows() {
  static const bool on = describedEntry("GATHER_GATHER_OFFSET_ROWS") > 0;
  return on;
}

/// Whether rows read at offsets from a table (W5) that neither stream nor
/// gather build each register from their loads and store it whole: the
/// compiled code's choice (CpuTarget::collectOffsetRows: Zen 4) for the
/// target the benchmark compiles for, which bench/run.py and
/// bench/paired.py pass in GATHER_COLLECT_OFFSET_ROWS (0 or 1); else none
/// do.
static inline bool collectOffsetRows() {
  static const bool on = describedEntry("GATHER_COLLECT_OFFSET_ROWS") > 0;
  return on;
}

/// Whether loops that read index values as one stream (W3, W4, W8)
/// prefetch them ahead, and into which cache level: the compiled code's
/// choice (CpuTarget::prefetchIndexStreams) for the target the benchmark
/// compiles for, which bench/run.py and bench/paired.py pass in
/// GATHER_PREFETCH_INDEX_STREAMS (0: no; 1: every level; 2: from the L2
/// on); else 1.
static inline int64_t prefetchIndexStreams() {
  static const int64_t level = [] {
    int64_t value = describedEntry("GATHER_PREFETCH_INDEX_STREAMS");
    return value < 0 ? 1 : value;
  }();
  return level;
}

/// Whether loops that also prefetch their next input row (W3) prefetch
/// index values: only into every level (1), since the compiled rows take
/// no index prefetch beside the input row's at level 2 (VectorRows.cpp).
static inline bool prefetchIndexBesideInputRows() {
  return prefetchIndexStreams() == 1;
}

/// The prefetch of a line of index values, as the compiled code's (an asm
/// statement, as prefetchLine): prefetcht1 where `level` (of
/// prefetchIndexStreams()) is 2, prefetcht0 otherwise.
static inline void prefetchIndexLine(const void *p, int64_t level) {
#if defined(__x86_64__)
  if (level == 2) {
    asm volatile("prefetcht1 %0" : : "m"(*static_cast<const char *>(p)));
    return;
  }
#endif
  prefetchLine(p);
}

/// The median time in ms of `runs` calls of `f`, after one untimed call
/// (which touches every page outside the timed runs).
static inline double medianMs(const std::function<void()> &f, int runs) {
  std::vector<double> times;
  f();
  for (int r = 0; r < runs; ++r) {
    auto t0 = std::chrono::steady_clock::now();
    f();
    times.push_back(std::chrono::duration<double, std::milli>(
                        std::chrono::steady_clock::now() - t0)
                        .count());
  }
  std::sort(times.begin(), times.end());
  return times[times.size() / 2];
}

#endif // GATHER_BENCH_HOST_H
