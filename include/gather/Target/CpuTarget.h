//===- CpuTarget.h - the machine the CPU lowering plans for -----*- C++ -*-===//
//
// Part of the gather project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// Every machine parameter the CPU lowering decides with, in one place, and
// every threshold it uses as a function of them (docs/Lowering.md, "Target
// description", gives the measurement behind each). The JIT fills it from
// the host; ahead of time it comes from a CPU name, from the module's
// #dlti.target_system_spec (device "CPU") and from pass options, in that
// order, each overriding the one before.
//
//===----------------------------------------------------------------------===//

#ifndef GATHER_TARGET_CPUTARGET_H
#define GATHER_TARGET_CPUTARGET_H

#include "mlir/IR/Operation.h"
#include "mlir/Support/LLVM.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/TargetParser/Triple.h"

#include <cstdint>
#include <string>

namespace mlir::gather {

/// The architecture this process runs on: the JIT's, and that of LLVM's
/// default target triple where no CPU is named.
llvm::Triple::ArchType hostArch();

/// The vector register length SVE and RISC-V V (zvl128b) guarantee, in
/// bits: code that assumes more checks the CPU's first
/// (gather-vector-length-guard).
inline constexpr int64_t kGuaranteedVectorBits = 128;
/// The widest vectors a scalable extension's registers are planned at
/// (RISC-V's zvl<N>b, an SVE host's length; a description may give more):
/// the lowering's rows and tiles take at most 16 lanes.
inline constexpr int64_t kMaxScalableBits = 512;
/// The bits in one unit of LLVM's vscale on SVE (RISC-V V's:
/// llvm::RISCV::RVVBitsPerBlock).
inline constexpr int64_t kSveBitsPerVscale = 128;

/// Whether rows of large outputs are written with non-temporal stores on
/// `arch` unless the description says otherwise: on x86, where they were
/// measured (x86's movnt, fenced with sfence); not on AArch64, where no
/// measurement backs them (its non-temporal pair stores are a hint, and
/// Arm's cores have a write streaming mode for runs of whole-line writes),
/// nor on RISC-V.
inline bool streamsByDefault(llvm::Triple::ArchType arch) {
  return arch == llvm::Triple::x86_64;
}

/// Which offset-table rows prefetch their reads' lines
/// (CpuTarget::prefetchOffsetTables); the values are the DLTI entry
/// "prefetch_offset_tables"'s.
enum class OffsetTablePrefetch : int64_t {
  None = 0,
  EveryRow = 1,
  /// Only rows whose pixels read each line of their slice fewer than
  /// CpuTarget::kOffsetTablePrefetchMaxReadsPerLine times.
  FewReadsPerLine = 2,
};

/// Which cache levels index streams are prefetched into
/// (CpuTarget::prefetchIndexStreams); the values are the DLTI entry
/// "prefetch_index_streams"'s.
enum class IndexStreamPrefetch : int64_t {
  None = 0,
  /// Every level (x86's prefetcht0).
  AllLevels = 1,
  /// The L2 and beyond (prefetcht1); vector rows that prefetch their next
  /// input row take none.
  L2 = 2,
};

struct CpuTarget {
  /// LLVM's name of the CPU ("znver3", "x86-64-v3", "neoverse-n1"); empty:
  /// none named (the code generator's default).
  std::string cpu;
  /// The CPU's architecture: x86_64, aarch64 or riscv64 for a named CPU;
  /// the host's where none is named (LLVM's default triple is the host's).
  llvm::Triple::ArchType arch = hostArch();
  /// LLVM's feature string ("+avx2,+fma,..."); empty with an empty cpu.
  std::string features;
  /// The widest vector registers in bits: 512 with AVX-512F, 256 with AVX,
  /// RISC-V's guaranteed vector length (zvl<N>b, 128 to 512), 128
  /// otherwise (SSE, NEON; and SVE, whose length LLVM's CPU tables do not
  /// give, unless the description does or the CPU is the host's: see
  /// vscaleMin and describeHostCpu).
  int64_t vectorBits = 512;
  /// An AArch64 CPU with SVE (the feature "sve").
  bool sve = false;
  /// Predicate registers for lane masks (AVX-512's k registers, RISC-V V's
  /// mask registers): a mask carried through a loop stays in one. Without
  /// them a mask is a vector of the compare's lanes, and a vector of i1
  /// carried through a loop is packed in every step. Set from the features
  /// with the CPU; the defaults describe an AVX-512 machine.
  bool maskRegisters = true;
  /// The width a vector operation executes at in one pass of the vector
  /// units: Zen 1 (znver1) runs each 256-bit operation as two 128-bit
  /// halves. Set from the CPU name (128 on Zen 1, else the vector width);
  /// the DLTI entry "vector_unit_width" (bits) overrides it. Only the tiles
  /// of small blocks read it (tileBlocks).
  int64_t vectorUnitBits = 512;
  /// Rows of reads at offsets from a table (the NHWC lookup W5 of
  /// bench/run.py) prefetch each read's offset some pixels ahead. Set from
  /// the CPU's name and features: not on Zen 1 (znver1), whose hardware
  /// prefetchers follow those rows' images themselves; there the prefetches
  /// only took issue slots (W5 1.04-1.07x faster without,
  /// docs/Lowering.md). On a Zen 3 they made W5 1.1-1.2x faster. Nor on Intel's
  /// server cores with AMX or AVX512-FP16 (sapphirerapids, emeraldrapids,
  /// graniterapids, and a VM that masks the model but not both features):
  /// W5 1.04x, W5x64 1.05x faster without on an Emerald Rapids, W5 1.02x,
  /// W5x64 1.06-1.08x on a VM reporting family 6 model 167. Zen 4
  /// (znver4) prefetches only rows of few reads a line (FewReadsPerLine).
  /// The DLTI entry "prefetch_offset_tables" (0, 1 or 2) overrides it.
  OffsetTablePrefetch prefetchOffsetTables = OffsetTablePrefetch::EveryRow;
  /// The L3 is a mesh of slices shared by every core of the package (and,
  /// in a VM, by other guests), outside the cores' own L2s: Intel's server
  /// CPUs since Sapphire Rapids (sapphirerapids, emeraldrapids, and with AMX
  /// or AVX512-FP16 whatever the name: graniterapids, a VM that masks the
  /// model). A line written through the caches and evicted from the L2
  /// costs there as if it came from memory, so non-temporal stores pay for
  /// outputs that a few L2s cannot hold, far below half the L3 (which such
  /// a VM reports whole: 300 MiB on the Emerald Rapids measured). Set from
  /// the CPU's name and features, as prefetchOffsetTables; the DLTI entry
  /// "mesh_l3" (0 or 1) overrides it.
  bool meshL3 = false;
  /// Offset-table tiles of pixels whose lines are read few times (W5 of
  /// bench/run.py: 128 reads in 128 lines) fill half the L2 instead of
  /// twice the L1d: the tile is then a long run of each image's pixels,
  /// which the hardware prefetchers follow, where the L1's reuse saves
  /// little. Set from the CPU name: Zen 1 and Zen 2 (znver1, znver2), where
  /// W5 ran 1.05-1.09x and 1.17-1.23x faster in tiles of 28 than of 8; not
  /// on an Intel AVX-512 core, where tiles of 8 ran W5 1.06x faster than
  /// 28 (docs/Lowering.md). The DLTI entry "long_offset_tiles" (0 or 1)
  /// overrides it.
  bool longOffsetTiles = false;
  /// Offset-table rows that do not stream load a register of elements with
  /// one gather instruction instead of a scalar load each: Intel's server
  /// cores (as meshL3), whose gathers ran W5 of bench/run.py 1.01-1.02x
  /// (1.06 at one thread) and its shapes with more index rows 1.08-1.20x
  /// faster at two threads (docs/Lowering.md,
  /// "Gathered offset-table rows"), where AMD's Zen 4 had run W5's rows 20%
  /// slower with them. Only where the rows are not prefetched
  /// (prefetchOffsetTables). The DLTI entry "gather_offset_rows" (0 or 1)
  /// overrides it.
  bool gatherOffsetRows = false;
  /// Offset-table rows that neither stream nor gather (gatherOffsetRows)
  /// collect each register's elements from their scalar loads and store it
  /// whole, instead of a scalar store each. Set from the CPU name: Zen 4
  /// (znver4), where W5 of bench/run.py (8 index rows, prefetched), W5x64
  /// and 64 rows over 16 images ran 1.01x, 1.07x and 1.21x faster with it
  /// with AVX-512 and 1.09x, 1.08x and 1.12x with AVX2, at two threads
  /// (0.97-1.01x at one; docs/Lowering.md, "Collected offset-table rows").
  /// On Zen 1 the same form ran W5 and W5x64 0.96-0.98x as fast
  /// (VectorRows.cpp); other CPUs are unmeasured. The DLTI
  /// entry "collect_offset_rows" (0 or 1) overrides it.
  bool collectOffsetRows = false;
  /// Index values read as one sequential stream are prefetched ahead, into
  /// the caches IndexStreamPrefetch names: vector rows that read
  /// them contiguously prefetch the next indices row's lines, tiles of
  /// block copies the lines their block prefetch reads next
  /// (docs/Lowering.md, "Prefetched index rows"). AllLevels by default: on an
  /// Intel AVX-512 server core W3, W4 and W8 of bench/run.py ran 5-11%
  /// faster with them, where the hardware's stream prefetchers did not keep
  /// up. L2 on Zen 4 (znver4), where into the L1 they made W3 11-27% slower
  /// than no prefetch and into the L2 W3 ran as without and W8 1.47x faster
  /// (1.2-1.4x faster than into the L1). At L2 vector rows that
  /// prefetch their next input row take no index prefetch: beside that
  /// row's lines it made W3 4-22% slower than without. Other AMD cores are
  /// unmeasured.
  /// The DLTI entry "prefetch_index_streams" (0, 1 or 2) overrides it.
  IndexStreamPrefetch prefetchIndexStreams = IndexStreamPrefetch::AllLevels;
  /// Block copies prefetch the blocks they copy later into the L2 only
  /// (prefetcht1) instead of every level. The DLTI entry
  /// "prefetch_blocks_l2" (0 or 1) overrides it.
  bool prefetchBlocksL2 = false;
  /// The largest block, in cache lines, that block copies take in tiles
  /// (smallBlockBytes): 4; 2 on Zen 2 (znver2), where rows of 3 and 4
  /// lines ran 1.07-1.12x faster a row at a time (W7 of bench/run.py,
  /// 256-byte rows) and rows of 1 line 0.76-0.78x as fast (docs/Lowering.md).
  /// The DLTI entry "tile_max_block_lines" (1 to 64) overrides it.
  int64_t tileMaxBlockLines = 4;
  /// Rows of large outputs may be written with non-temporal stores
  /// (streamingStoreMinBytes). Set from the architecture
  /// (streamsByDefault); the DLTI entry "nontemporal_stores" (0 or 1)
  /// overrides it.
  bool nonTemporalStores = streamsByDefault(hostArch());
  int64_t cacheLineBytes = 64;
  /// The virtual memory page: hardware prefetchers stop at its end.
  int64_t pageBytes = 4096;
  /// Data caches: L1 and L2 per core, L3 per package.
  int64_t l1dBytes = 32 * 1024;
  int64_t l2Bytes = 1024 * 1024;
  int64_t l3Bytes = 32 * 1024 * 1024;
  /// Cores the parallel loops may use; 0: unknown.
  int64_t cores = 0;
  /// The prefetch distance in lines where given (the DLTI entry
  /// "prefetch_lines_ahead"); 0: derived from the caches
  /// (prefetchLinesAhead).
  int64_t prefetchLinesAheadGiven = 0;
  /// The serial threshold of parallel loops in bytes where given (the DLTI
  /// entry "parallel_min_bytes"); -1: parallelMinBytes's measured default.
  int64_t parallelMinBytesGiven = -1;
  /// Blocks per tile of small blocks where given (the DLTI entry
  /// "tile_blocks"; 1: no tiles, a block at a time); 0: derived from the
  /// vector units (tileBlocks).
  int64_t tileBlocksGiven = 0;
  /// Lines of one block prefetched at most where given (the DLTI entry
  /// "prefetch_block_lines"); 0: derived (prefetchMaxBlockLines).
  int64_t prefetchBlockLinesGiven = 0;
  /// The bytes from which blocks streamed from memory are copied by
  /// memcpy where given (the DLTI entry "streamed_vector_copy_bytes"); 0:
  /// derived (vectorCopyMaxBytes).
  int64_t streamedVectorCopyBytesGiven = 0;
  /// The offset-table tiles' footprint budget in bytes where given (the
  /// DLTI entry "offset_tile_bytes"); 0: derived (offsetTileFootprintBytes).
  int64_t offsetTileBytesGiven = 0;
  /// Chunks of offsets of 8 KiB (1024 offsets) instead of the L1d's rule
  /// (offsetChunkBytes): Zen 2 (znver2), where W8's whole 1024-element rows
  /// in one chunk ran 1.03-1.10x faster than the rule's 336 offsets. Set
  /// from the CPU name; the DLTI entry "offset_chunk_bytes" overrides it.
  bool largeOffsetChunks = false;
  /// Bytes of a chunk of 8-byte offsets where given (the DLTI entry
  /// "offset_chunk_bytes", at most 1 MiB: the chunk is a stack buffer of
  /// each thread); 0: derived (offsetChunkBytes).
  int64_t offsetChunkBytesGiven = 0;
  /// Pixels of an offset-table tile read their slice's lines "few" times
  /// below this many reads a line: W5x16 (2) ran 1.14x faster in tiles of
  /// 28 than of 8 on a Zen 2, W5x32 (4) 1.02-1.04x, W5x64 (8) 0.90x.
  static constexpr int64_t kOffsetTileFewReadsPerLine = 4;

  /// Under OffsetTablePrefetch::FewReadsPerLine, pixels that read each line of
  /// their slice this many times or more do not prefetch: each read prefetches
  /// its offset in a later pixel, so all but one prefetch a line are
  /// issue spent on a line the first brings. On a Zen 4 (2 threads,
  /// bench/target_ab.py --entry prefetch_offset_tables=0) W5x64 (8 reads
  /// a line) ran 1.07-1.12x faster without, W5 (1) 1.02-1.07x and W5x32
  /// (4) 1.01-1.04x faster with.
  static constexpr int64_t kOffsetTablePrefetchMaxReadsPerLine = 8;

  // The thresholds, each a function of the parameters above.

  /// The prefetch runs this many cache lines ahead: a quarter of the L1 data
  /// cache in flight, so that prefetched lines are not evicted by the time
  /// they are read, and at most 8 KiB, which covers the memory latency at a
  /// core's bandwidth; or as prefetchLinesAheadGiven says. (Rows of
  /// scattered reads, the offset-table rows, count each read as a line.)
  int64_t prefetchLinesAhead() const;
  /// Inputs from this size on are prefetched: below it they stay in the L2
  /// cache of a core once read.
  int64_t prefetchMinInputBytes() const;
  /// Loop orders that keep a block of the input in cache pay while the
  /// block takes half of the L1 data cache.
  int64_t reuseFootprintBytes() const;
  /// Offset-table rows run in tiles of pixels whose lines (each read
  /// counted a line, at most the slice's lines) fill at most twice the L1
  /// data cache: each index row walks the tile while most of its lines
  /// are still in the L1 (tiles of 8 of W5's 8 KiB pixels with a 32 or 48
  /// KiB L1; docs/Lowering.md gives the measurements). Pixels that read
  /// their slice's lines `fewReads` (fewer than kOffsetTileFewReadsPerLine
  /// reads a line) fill half the L2 where longOffsetTiles says so. The
  /// DLTI entry "offset_tile_bytes" gives the budget for both instead.
  int64_t offsetTileFootprintBytes(bool fewReads) const;
  /// A block row is copied in steps of this many bytes, all loads before
  /// all stores: eight vector registers.
  int64_t copyChunkBytes() const;
  /// Blocks from this size on are copied by one memcpy call instead of
  /// inline vector copies: a page; twice the L1d, or as
  /// streamedVectorCopyBytesGiven says, where the output is streamed from
  /// an input of streamingInputMinBytes or more (the vector rows' stores
  /// bypass the caches, memcpy's did not).
  int64_t vectorCopyMaxBytes(bool streamedFromMemory) const;
  /// Lines of one block prefetched at most: 16 (at most a page's), beyond
  /// which the hardware prefetchers follow the block's own reads; or as
  /// prefetchBlockLinesGiven says.
  int64_t prefetchMaxBlockLines() const;
  /// Rows of at least this many bytes are copied with vector loads and
  /// stores: one cache line.
  int64_t vectorRowMinBytes() const;
  /// The largest block the tiled form (index tuples resolved a tile at a
  /// time) takes: tileMaxBlockLines cache lines.
  int64_t smallBlockBytes() const;
  /// Tiled blocks from this size on are copied in a loop LLVM does not
  /// unroll: two cache lines.
  int64_t rolledLaneLoopBytes() const;
  /// Blocks per tile of the tiled form: each iteration of its lane loop
  /// rotates the tile's coordinate vectors by one lane, which stays one
  /// pass of the vector units per vector (vectorUnitBits, at most the
  /// vector width): 8 with AVX-512, 4 with AVX2 and on Zen 1's 128-bit
  /// units, never fewer than 4; or as tileBlocksGiven says. Every CPU
  /// measured ran W4 of bench/run.py faster with the smaller tile: 8
  /// against 16 1.4-1.6x on a Zen 3 (AVX2), 4 against 8 1.03-1.07x on a
  /// Zen 1 and 1.04-1.07x on a Zen 2 (docs/Lowering.md).
  int64_t tileBlocks() const;
  /// Lanes of a vector row of `bitWidth`-bit elements: one vector register,
  /// 4 to 16 lanes.
  int64_t vectorRowLanes(unsigned bitWidth) const;
  /// Elements of `bitWidth` bits in one vector register (at least 1): the
  /// step of block copies, which read and write a register at a time in
  /// address order.
  int64_t registerLanes(unsigned bitWidth) const;
  /// Vector rows whose reads range over this many bytes or more (the
  /// input, or its row where only the innermost coordinate varies) compute
  /// a chunk of offsets first, then load the chunk's elements in a loop of
  /// loads alone: the L2 of a core. Above it each read misses the L2, and
  /// a loop that also resolves the indices holds fewer reads in flight.
  int64_t offsetChunkMinReadBytes() const;
  /// Bytes of one such chunk of 8-byte offsets: as many offsets as two
  /// thirds of the L1 data cache's lines, since each of the chunk's loads
  /// brings a line into it (512 with 48 KiB, 341 with 32 KiB; the plan
  /// takes whole vector steps). With the whole L1d's lines (768 offsets) W8
  /// ran 4-9% slower at one thread on a 48 KiB L1d; with half (384) 3-5%
  /// slower under AVX2 (docs/Lowering.md). On a Zen 2 (32 KiB L1d) the
  /// whole 1024-element row of W8 ran 1.03-1.10x faster than this rule's
  /// 336, where the 48 KiB machine ran it 0.96x against 768: no rule of
  /// the caches fits both, so Zen 2 takes 8 KiB (largeOffsetChunks), and
  /// the DLTI entry "offset_chunk_bytes" gives the bytes instead.
  int64_t offsetChunkBytes() const;
  /// Rows written a vector register at a time (block copies, vector rows)
  /// go with non-temporal stores into outputs from this size on: half of
  /// the L3, or four L2s with a mesh L3; 0 (never) without
  /// nonTemporalStores. Below it the output (and the rows read for it) can
  /// stay in the caches for the next reader; above it a line written
  /// through the caches was first read from memory only to be evicted
  /// unread.
  int64_t streamingStoreMinBytes() const;
  /// ... and, into an output under the L3's size, only from an input of
  /// this size on (or of dynamic size): half the L3, or half the L2 with a
  /// mesh L3. From smaller inputs, rows written through the caches ran up
  /// to 2.18x faster than streamed ones (tables of 0.5-12 MB into outputs
  /// of 17-25 MB, a 32 MiB L3: the whole working set stayed in the L3 from
  /// call to call; Zen 4, docs/Lowering.md); into a 67 MB output streaming
  /// won (1.12-1.66x). W7's 25.6 MB table went either way. With a mesh L3
  /// (an Emerald Rapids, 2 MiB L2s) cached stores won from tables of 0.5-0.6
  /// MB (1.06-1.36x), tied at 0.9-1 MB and lost from 1.5 MB on (0.76-0.93).
  int64_t streamingInputMinBytes() const;
  /// A parallel loop keeps the outer dimensions parallel whose iterations
  /// reach this count (the inner ones become serial loops): four per core,
  /// so that the threads' shares differ by at most a quarter, and at least
  /// 16 (the count where the cores are unknown).
  int64_t parallelIterations() const;
  /// A parallel loop whose stores are known to total fewer bytes runs
  /// serially: starting and joining a team of threads costs more than the
  /// copy. 160 KiB where not given: where two threads began to beat one
  /// on rows of 768 and 64 f32 and 768 f16, on one machine (docs/Lowering.md,
  /// "loops run serially"). No rule of the other parameters is measured
  /// (the cost of a team grows with its threads, and each does less), so
  /// a machine that differs sets it through DLTI.
  int64_t parallelMinBytes() const;

  /// An SVE CPU described with registers wider than NEON's (vectorBits
  /// above 128, from DLTI's max_vector_op_width or the vector-bits option):
  /// the vectors' guaranteed length in units of 128 bits (LLVM's vscale).
  /// The functions then carry vscale_range(vscaleMin, 16), and LLVM
  /// lowers vectors up to vectorBits wide with SVE's instructions (its
  /// gathers and predicated loads and stores) instead of NEON pairs. Such
  /// code computes wrong results on a CPU with shorter SVE registers, as
  /// RISC-V code for zvl<N>b on a shorter V. 0 otherwise.
  int64_t vscaleMin() const;

  /// "cpu=znver3 arch=x86_64 vector-bits=256 vector-unit-bits=256
  /// mask-registers=0 vscale-min=0 prefetch-offset-tables=1 mesh-l3=0
  /// nontemporal-stores=1 long-offset-tiles=0 cache-line-bytes=64
  /// page-bytes=4096 l1d-bytes=32768 l2-bytes=524288 l3-bytes=33554432
  /// cores=2 streaming-store-min-bytes=16777216 prefetch-lines-ahead=128
  /// parallel-min-bytes=163840 tile-blocks=4 tile-max-block-bytes=256
  /// prefetch-block-lines=16 offset-tile-bytes=65536
  /// offset-tile-bytes-few-reads=65536 offset-chunk-bytes=2728
  /// streamed-vector-copy-bytes=65536 streaming-input-min-bytes=16777216":
  /// what the lowering planned with (the last eleven, derived or defaulted,
  /// for peers that follow the same rules and for readers of the plan).
  std::string describe() const;
};

/// The host: LLVM's host CPU name and features with the OS's scalable
/// vector length (describeHostCpu), the caches the OS reports (Linux sysfs;
/// the defaults where it reports none), the page size and the cores the
/// process may run on.
const CpuTarget &hostCpuTarget();

/// The instruction set and tuning of a host that LLVM reports as `cpu` of
/// `arch` with `features`, whose scalable vector registers are
/// `scalableVectorBits` long (hostScalableVectorBits; 0: none): an SVE
/// host's vectors are planned at that length (a power of two, at most
/// kMaxScalableBits; vscaleMin follows), a RISC-V V host's length becomes
/// its zvl<N>b features (LLVM's host features give none). The caches,
/// page and cores keep their defaults. hostCpuTarget's first half, apart so
/// that tests can describe hosts of other architectures.
CpuTarget describeHostCpu(llvm::Triple::ArchType arch, StringRef cpu,
                          llvm::StringMap<bool> features,
                          int64_t scalableVectorBits);

/// The target of an LLVM CPU name: "native" is the host (hostCpuTarget);
/// an x86-64 name (x86-64-v3, skylake-avx512, znver4, ...), an AArch64
/// one (neoverse-n1, neoverse-v2, cortex-a78, apple-m1, ...) or a RISC-V
/// 64 one (sifive-x280, spacemit-x60, sifive-u74, ...) gives the
/// architecture, the features and vector width (AArch64: NEON's 128 bits),
/// with the default caches and the name's tuning (ahead of time: the
/// machine is not known). With `onHost` (a JIT, whose code runs here) the
/// name gives only the instruction set: the features, the vector width (the
/// vector units at most that wide; an SVE name's width is the host's SVE
/// length, which no name gives) and the mask registers; the caches, cores
/// and tuning are the host's, and a CPU of another architecture is an
/// error. Fails with a message for an unknown name.
FailureOr<CpuTarget> cpuTargetForName(StringRef name, std::string &error,
                                      bool onHost = false);

/// `target` with the entries of the #dlti.target_system_spec in scope at
/// `op` for device "CPU" applied: "max_vector_op_width" (bits, upstream's
/// key), "cache_line_size_in_bytes", "page_size_in_bytes",
/// "L1_cache_size_in_bytes" (upstream's key), "L2_cache_size_in_bytes",
/// "L3_cache_size_in_bytes", "cores", "prefetch_lines_ahead",
/// "vector_unit_width", "parallel_min_bytes", "tile_blocks",
/// "tile_max_block_lines", "prefetch_block_lines", "offset_tile_bytes",
/// "offset_chunk_bytes", "streamed_vector_copy_bytes",
/// "long_offset_tiles", "prefetch_offset_tables",
/// "gather_offset_rows", "prefetch_index_streams", "mesh_l3" and
/// "nontemporal_stores" (the last six 0 or 1),
/// each an integer in a range that keeps the thresholds' arithmetic exact
/// (a line and a page powers of two). An entry outside it is an error on
/// `op`.
FailureOr<CpuTarget> applyDltiCpuSpec(Operation *op, CpuTarget target);

/// The target a pass plans for at `op`: the CPU named by `cpu` (empty: the
/// defaults; with `onHost`, on the host as cpuTargetForName says), then the
/// #dlti.target_system_spec in scope, then `vectorBits` where nonzero.
/// Errors (an unknown CPU, a bad entry, a vector width that is not a
/// positive multiple of 64) are emitted on `op`.
FailureOr<CpuTarget> resolveCpuTarget(Operation *op, StringRef cpu,
                                      int64_t vectorBits, bool onHost = false);

/// A feature string as CpuTarget::features writes it ("+avx2,-avx512f") as
/// a map from each feature to whether it is on.
llvm::StringMap<bool> featureMap(StringRef features);

/// The features `target` enables that `host` names as off, comma-separated
/// (empty: such a host runs its code). Features `host` does not name (x87)
/// cannot be judged and are not listed.
std::string featuresMissing(const CpuTarget &target,
                            const llvm::StringMap<bool> &host);

/// featuresMissing for this host: LLVM's host features with the OS's
/// vector length (RISC-V V's zvl<N>b, as describeHostCpu).
std::string featuresMissingOnHost(const CpuTarget &target);

/// The features this host lacks (featuresMissingOnHost's, as a sorted
/// list) for code LLVM compiles for `cpu` (empty: the architecture's
/// baseline) with `features` on top, as a function's target-cpu and
/// target-features attributes give them (applied in order; on x86 a
/// feature also turns on what it implies, and off what needs it). Fails with
/// `error` where `cpu` is not a CPU of the host's architecture
/// (cpuTargetForName, on the host).
FailureOr<SmallVector<std::string>>
codeFeaturesMissingOnHost(StringRef cpu, StringRef features,
                          std::string &error);

/// Whether `bits` can be a vector width: a positive multiple of 64, at most
/// 4096.
bool isValidVectorBits(int64_t bits);

/// The N of RISC-V's feature zvl<N>b (the vector registers' guaranteed
/// length in bits), with or without a leading '+'; 0 for any other name.
int64_t riscvZvlBits(llvm::StringRef feature);

} // namespace mlir::gather

#endif // GATHER_TARGET_CPUTARGET_H
