//===- CpuTarget.cpp - the machine the CPU lowering plans for -------------===//
//
// Part of the gather project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "gather/Target/CpuTarget.h"
#include "gather/Target/HostVectorLength.h"

#include "mlir/Dialect/DLTI/DLTI.h"
#include "mlir/IR/BuiltinAttributes.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/bit.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Process.h"
#include "llvm/Support/Threading.h"
#include "llvm/Support/raw_ostream.h"
#include "llvm/TargetParser/AArch64TargetParser.h"
#include "llvm/TargetParser/Host.h"
#include "llvm/TargetParser/RISCVTargetParser.h"
#include "llvm/TargetParser/X86TargetParser.h"

#include <algorithm>

using namespace mlir;
using namespace mlir::gather;

llvm::Triple::ArchType mlir::gather::hostArch() {
  static const llvm::Triple::ArchType arch =
      llvm::Triple(llvm::sys::getProcessTriple()).getArch();
  return arch;
}

int64_t CpuTarget::prefetchLinesAhead() const {
  if (prefetchLinesAheadGiven > 0)
    return prefetchLinesAheadGiven;
  // 8 KiB in flight covers a core's memory latency at its bandwidth (about
  // 100 ns at 80 GB/s); a larger L1 does not need more (docs/Lowering.md).
  constexpr int64_t kBytesInFlight = 8 * 1024;
  return std::max<int64_t>(1, std::min(l1dBytes / 4, kBytesInFlight) /
                                  cacheLineBytes);
}
int64_t CpuTarget::prefetchMinInputBytes() const { return l2Bytes; }
int64_t CpuTarget::reuseFootprintBytes() const { return l1dBytes / 2; }
int64_t CpuTarget::offsetTileFootprintBytes(bool fewReads) const {
  if (offsetTileBytesGiven > 0)
    return offsetTileBytesGiven;
  return fewReads && longOffsetTiles ? l2Bytes / 2 : 2 * l1dBytes;
}
int64_t CpuTarget::copyChunkBytes() const { return 8 * (vectorBits / 8); }
int64_t CpuTarget::vectorCopyMaxBytes(bool streamedFromMemory) const {
  // Rows of 4-32 KiB streamed from a table of 64-128 MB took 0.78-0.96 of
  // memcpy's time from 64-byte aligned data and 0.60-0.78 from numpy's (16
  // bytes past a page); 64 KiB rows 0.86-1.03, 256 KiB and 1 MiB rows
  // 0.99-1.15. Into a cached output, 4 KiB rows took 1.05x memcpy's time
  // from aligned data (Zen 4, docs/Lowering.md).
  if (!streamedFromMemory)
    return pageBytes;
  if (streamedVectorCopyBytesGiven > 0)
    return streamedVectorCopyBytesGiven;
  return std::max(pageBytes, 2 * l1dBytes);
}
int64_t CpuTarget::prefetchMaxBlockLines() const {
  if (prefetchBlockLinesGiven > 0)
    return prefetchBlockLinesGiven;
  // The hardware prefetchers follow a row's own reads once its first lines
  // came in; past 16 each prefetch only took an issue slot and a miss
  // buffer (3 KiB rows 1.01-1.07x faster with 16 than with all 48 on a Zen
  // 2; 4 or 8 lost on 1.5 KiB rows: docs/Lowering.md).
  constexpr int64_t kLinesHardwareFollows = 16;
  return std::max<int64_t>(
      1, std::min(pageBytes / cacheLineBytes, kLinesHardwareFollows));
}
int64_t CpuTarget::vectorRowMinBytes() const { return cacheLineBytes; }
int64_t CpuTarget::smallBlockBytes() const {
  return tileMaxBlockLines * cacheLineBytes;
}
int64_t CpuTarget::rolledLaneLoopBytes() const { return 2 * cacheLineBytes; }
int64_t CpuTarget::tileBlocks() const {
  if (tileBlocksGiven > 0)
    return tileBlocksGiven;
  return std::max<int64_t>(4, std::min(vectorBits, vectorUnitBits) / 64);
}
int64_t CpuTarget::vectorRowLanes(unsigned bitWidth) const {
  return std::min<int64_t>(
      16, std::max<int64_t>(4, vectorBits / std::max(1u, bitWidth)));
}

int64_t CpuTarget::registerLanes(unsigned bitWidth) const {
  return std::max<int64_t>(1, vectorBits / std::max(1u, bitWidth));
}

int64_t CpuTarget::streamingStoreMinBytes() const {
  if (!nonTemporalStores)
    return 0;
  return meshL3 ? 4 * l2Bytes : l3Bytes / 2;
}
int64_t CpuTarget::streamingInputMinBytes() const {
  return meshL3 ? l2Bytes / 2 : l3Bytes / 2;
}
int64_t CpuTarget::parallelIterations() const {
  return std::max<int64_t>(16, 4 * cores);
}
int64_t CpuTarget::parallelMinBytes() const {
  constexpr int64_t kMeasuredBytes = 160 * 1024;
  return parallelMinBytesGiven >= 0 ? parallelMinBytesGiven : kMeasuredBytes;
}
int64_t CpuTarget::offsetChunkMinReadBytes() const { return l2Bytes; }
int64_t CpuTarget::offsetChunkBytes() const {
  if (offsetChunkBytesGiven > 0)
    return offsetChunkBytesGiven;
  constexpr int64_t kLargeChunkBytes = 8 * 1024;
  if (largeOffsetChunks)
    return kLargeChunkBytes;
  // An 8-byte offset per line its loads bring into the L1d: two thirds of
  // its lines, the rest left to the offsets, the indices and the output.
  return std::max<int64_t>(1, l1dBytes / cacheLineBytes * 2 / 3) * 8;
}

int64_t CpuTarget::vscaleMin() const {
  if (arch != llvm::Triple::aarch64 || !sve ||
      vectorBits <= kGuaranteedVectorBits)
    return 0;
  return vectorBits / kSveBitsPerVscale;
}

std::string CpuTarget::describe() const {
  std::string text;
  llvm::raw_string_ostream os(text);
  os << "cpu=" << (cpu.empty() ? "generic" : cpu)
     << " arch=" << llvm::Triple::getArchTypeName(arch)
     << " vector-bits=" << vectorBits << " vector-unit-bits=" << vectorUnitBits
     << " mask-registers=" << (maskRegisters ? 1 : 0)
     << " vscale-min=" << vscaleMin()
     << " prefetch-offset-tables=" << static_cast<int64_t>(prefetchOffsetTables)
     << " gather-offset-rows=" << (gatherOffsetRows ? 1 : 0)
     << " collect-offset-rows=" << (collectOffsetRows ? 1 : 0)
     << " prefetch-index-streams=" << static_cast<int64_t>(prefetchIndexStreams)
     << " mesh-l3=" << (meshL3 ? 1 : 0)
     << " nontemporal-stores=" << (nonTemporalStores ? 1 : 0)
     << " long-offset-tiles=" << (longOffsetTiles ? 1 : 0)
     << " cache-line-bytes=" << cacheLineBytes << " page-bytes=" << pageBytes
     << " l1d-bytes=" << l1dBytes << " l2-bytes=" << l2Bytes
     << " l3-bytes=" << l3Bytes << " cores=" << cores
     << " streaming-store-min-bytes=" << streamingStoreMinBytes()
     << " prefetch-lines-ahead=" << prefetchLinesAhead()
     << " parallel-min-bytes=" << parallelMinBytes()
     << " tile-blocks=" << tileBlocks()
     << " tile-max-block-bytes=" << smallBlockBytes()
     << " prefetch-block-lines=" << prefetchMaxBlockLines()
     << " offset-tile-bytes=" << offsetTileFootprintBytes(false)
     << " offset-tile-bytes-few-reads=" << offsetTileFootprintBytes(true)
     << " offset-chunk-bytes=" << offsetChunkBytes()
     << " streamed-vector-copy-bytes=" << vectorCopyMaxBytes(true)
     << " streaming-input-min-bytes=" << streamingInputMinBytes()
     << " prefetch-blocks-l2=" << (prefetchBlocksL2 ? 1 : 0);
  return text;
}

bool mlir::gather::isValidVectorBits(int64_t bits) {
  return bits >= 64 && bits <= 4096 && bits % 64 == 0;
}

int64_t mlir::gather::riscvZvlBits(StringRef feature) {
  feature.consume_front("+");
  int64_t bits = 0;
  if (!feature.consume_front("zvl") || !feature.consume_back("b") ||
      feature.getAsInteger(10, bits))
    return 0;
  return bits;
}

static int64_t vectorBitsOf(const llvm::StringMap<bool> &features) {
  if (features.lookup("avx512f"))
    return 512;
  if (features.lookup("avx"))
    return 256;
  // RISC-V's vector extension: registers of at least the zvl<N>b the CPU
  // names (V implies 128); LLVM gives fixed-length vectors up to that width
  // one register each.
  int64_t vlen = 0;
  for (const auto &feature : features)
    if (feature.second)
      vlen = std::max(vlen, riscvZvlBits(feature.first()));
  return std::clamp<int64_t>(vlen, kGuaranteedVectorBits, kMaxScalableBits);
}

/// The width an SVE CPU whose registers are `bits` long is planned at: the
/// largest power of two within them (vscale_range's bounds are powers of
/// two; SVE allowed other multiples of 128 before Armv9.2), at most
/// kMaxScalableBits, and NEON's 128 where they are no longer.
static int64_t sveBitsOf(int64_t bits) {
  if (bits <= kGuaranteedVectorBits)
    return kGuaranteedVectorBits;
  return std::min<int64_t>(llvm::bit_floor(uint64_t(bits)), kMaxScalableBits);
}

/// A RISC-V V host's VLEN as features: zvl<N>b for each N up to it on, the
/// rest off. LLVM then assumes the length the host has, and a named CPU
/// that assumes more (sifive-x280's zvl512b on 256-bit registers) lacks a
/// feature of the host (featuresMissing).
static void addVectorLengthFeatures(llvm::Triple::ArchType arch,
                                    llvm::StringMap<bool> &features,
                                    int64_t scalableVectorBits) {
  if (arch != llvm::Triple::riscv64 || !features.lookup("v") ||
      scalableVectorBits < kGuaranteedVectorBits)
    return;
  constexpr int64_t kMinZvl = 32, kMaxZvl = 65536;
  for (int64_t bits = kMinZvl; bits <= kMaxZvl; bits *= 2)
    features["zvl" + std::to_string(bits) + "b"] = bits <= scalableVectorBits;
}

static std::string featureString(const llvm::StringMap<bool> &features) {
  SmallVector<std::string> names;
  for (const auto &feature : features)
    names.push_back((feature.second ? "+" : "-") + feature.first().str());
  llvm::sort(names);
  return llvm::join(names, ",");
}

/// What a CPU's feature set decides: the feature string, the vector width
/// and the mask registers.
static void setFeatures(CpuTarget &target,
                        const llvm::StringMap<bool> &features) {
  target.features = featureString(features);
  target.vectorBits = vectorBitsOf(features);
  // RISC-V V's masks are registers too: a vector of i1 is a legal type.
  target.maskRegisters =
      features.lookup("avx512f") ||
      (target.arch == llvm::Triple::riscv64 && features.lookup("v"));
  // SVE's predicates do not count: LLVM's fixed-length SVE code moves a
  // vector of i1 through vector registers.
  target.sve = target.arch == llvm::Triple::aarch64 && features.lookup("sve");
}

/// A sysfs cache size ("48K", "1024K", "32M") in bytes, or 0.
static int64_t parseCacheSize(StringRef text) {
  text = text.trim();
  int64_t scale = 1;
  if (text.consume_back("K"))
    scale = 1024;
  else if (text.consume_back("M"))
    scale = 1024 * 1024;
  int64_t value = 0;
  if (text.getAsInteger(10, value) || value <= 0)
    return 0;
  return value * scale;
}

static std::string readSysfs(const std::string &path) {
  auto buffer = llvm::MemoryBuffer::getFileAsStream(path);
  return buffer ? (*buffer)->getBuffer().trim().str() : std::string();
}

/// Measured tuning, from the CPU's name and, where a VM masks the model,
/// its features: AMX or AVX512-FP16 marks Intel's server cores since
/// Sapphire Rapids (a VM reporting family 6 model 167, which LLVM names
/// rocketlake, a client core, kept both). A VM may mask AMX instead and
/// keep the model (an Emerald Rapids VM did), or mask both the model and
/// AMX, which needs the hypervisor's support, and keep FP16. In LLVM 22's
/// tables exactly the same CPUs have each of the two (sapphirerapids,
/// emeraldrapids, graniterapids, diamondrapids; no client core, no AMD).
static void setTuning(CpuTarget &target,
                      const llvm::StringMap<bool> &features) {
  StringRef cpu = target.cpu;
  bool intelServer = cpu == "sapphirerapids" || cpu == "emeraldrapids" ||
                     features.lookup("amx-tile") ||
                     features.lookup("avx512fp16");
  target.prefetchOffsetTables =
      cpu == "znver1" || intelServer ? OffsetTablePrefetch::None
      : cpu == "znver4"              ? OffsetTablePrefetch::FewReadsPerLine
                                     : OffsetTablePrefetch::EveryRow;
  target.vectorUnitBits = cpu == "znver1" ? 128 : target.vectorBits;
  target.meshL3 = intelServer;
  target.gatherOffsetRows = intelServer;
  target.collectOffsetRows = cpu == "znver4";
  target.longOffsetTiles = cpu == "znver1" || cpu == "znver2";
  target.tileMaxBlockLines = cpu == "znver2" ? 2 : 4;
  target.largeOffsetChunks = cpu == "znver2";
  target.prefetchIndexStreams = cpu == "znver4"
                                    ? IndexStreamPrefetch::L2
                                    : IndexStreamPrefetch::AllLevels;
  target.nonTemporalStores = streamsByDefault(target.arch);
}

/// The data caches of CPU 0 from Linux's sysfs, where present.
static void readHostCaches(CpuTarget &target) {
  for (int index = 0; index < 8; ++index) {
    std::string dir =
        "/sys/devices/system/cpu/cpu0/cache/index" + std::to_string(index);
    std::string type = readSysfs(dir + "/type");
    if (type.empty())
      break;
    if (type == "Instruction")
      continue;
    int64_t level = 0;
    if (StringRef(readSysfs(dir + "/level")).getAsInteger(10, level))
      continue;
    int64_t size = parseCacheSize(readSysfs(dir + "/size"));
    if (size > 0 && level == 1)
      target.l1dBytes = size;
    else if (size > 0 && level == 2)
      target.l2Bytes = size;
    else if (size > 0 && level == 3)
      target.l3Bytes = size;
    int64_t line = 0;
    if (!StringRef(readSysfs(dir + "/coherency_line_size"))
             .getAsInteger(10, line) &&
        line > 0)
      target.cacheLineBytes = line;
  }
}

CpuTarget mlir::gather::describeHostCpu(llvm::Triple::ArchType arch,
                                        StringRef cpu,
                                        llvm::StringMap<bool> features,
                                        int64_t scalableVectorBits) {
  CpuTarget target;
  target.arch = arch;
  target.cpu = cpu.str();
  addVectorLengthFeatures(arch, features, scalableVectorBits);
  setFeatures(target, features);
  if (target.sve)
    target.vectorBits = sveBitsOf(scalableVectorBits);
  setTuning(target, features);
  return target;
}

/// LLVM's host features, with the OS's vector length where it is one.
static const llvm::StringMap<bool> &hostFeatures() {
  static const llvm::StringMap<bool> features = [] {
    llvm::StringMap<bool> features = llvm::sys::getHostCPUFeatures();
    addVectorLengthFeatures(hostArch(), features, hostScalableVectorBits());
    return features;
  }();
  return features;
}

const CpuTarget &mlir::gather::hostCpuTarget() {
  static const CpuTarget host = [] {
    CpuTarget target =
        describeHostCpu(hostArch(), llvm::sys::getHostCPUName(), hostFeatures(),
                        hostScalableVectorBits());
    readHostCaches(target);
    if (unsigned page = llvm::sys::Process::getPageSizeEstimate())
      target.pageBytes = page;
    target.cores = llvm::hardware_concurrency().compute_thread_count();
    return target;
  }();
  return host;
}

/// Turns `name` on or off in `features`; for x86 also what it implies (on)
/// or what needs it (off), as LLVM applies a feature.
static void setFeature(llvm::StringMap<bool> &features, StringRef name, bool on,
                       llvm::Triple::ArchType arch) {
  features[name] = on;
  if (arch == llvm::Triple::x86_64)
    llvm::X86::updateImpliedFeatures(name, on, features);
}

/// A list of LLVM's "+feature" and "-feature" into `features`, in order
/// (with `arch`'s implications, setFeature).
template <typename List>
static void
addSignedFeatures(llvm::StringMap<bool> &features, const List &list,
                  llvm::Triple::ArchType arch = llvm::Triple::UnknownArch) {
  for (StringRef feature : list)
    if (feature.size() > 1)
      setFeature(features, feature.drop_front(), feature.front() == '+', arch);
}

FailureOr<CpuTarget> mlir::gather::cpuTargetForName(StringRef name,
                                                    std::string &error,
                                                    bool onHost) {
  if (name == "native")
    return hostCpuTarget();
  // Every architecture's baseline is "generic" to LLVM (AArch64's tables
  // alone list it): on the host, the host's.
  StringRef tableName = name;
  if (name == "generic" && onHost && hostArch() == llvm::Triple::x86_64)
    tableName = "x86-64";
  else if (name == "generic" && onHost && hostArch() == llvm::Triple::riscv64)
    tableName = "generic-rv64";
  llvm::StringMap<bool> features;
  llvm::Triple::ArchType arch;
  if (llvm::X86::parseArchX86(tableName, /*Only64Bit=*/true) !=
      llvm::X86::CK_None) {
    arch = llvm::Triple::x86_64;
    SmallVector<StringRef> enabled;
    llvm::X86::getFeaturesForCPU(tableName, enabled);
    // The CPU's list names some features only through others (avx2 implies
    // avx).
    for (StringRef feature : enabled)
      setFeature(features, feature, true, arch);
  } else if (std::optional<llvm::AArch64::CpuInfo> info =
                 llvm::AArch64::parseCpu(tableName)) {
    arch = llvm::Triple::aarch64;
    llvm::AArch64::ExtensionSet extensions;
    extensions.addCPUDefaults(*info);
    std::vector<StringRef> enabled;
    extensions.toLLVMFeatureList(enabled);
    addSignedFeatures(features, enabled);
  } else if (llvm::RISCV::parseCPU(tableName, /*IsRV64=*/true)) {
    arch = llvm::Triple::riscv64;
    SmallVector<std::string> enabled;
    llvm::RISCV::getFeaturesForCPU(tableName, enabled, /*NeedPlus=*/true);
    addSignedFeatures(features, enabled);
  } else {
    error = ("unknown target CPU '" + name +
             "' (native, or an x86-64, AArch64 or RISC-V 64 CPU name LLVM "
             "knows: x86-64-v3, znver4, skylake-avx512, neoverse-n1, "
             "sifive-x280, ...)")
                .str();
    return failure();
  }
  CpuTarget target;
  if (onHost) {
    if (arch != hostArch()) {
      error = ("target CPU '" + name +
               (arch == llvm::Triple::riscv64 ? "' is a " : "' is an ") +
               llvm::Triple::getArchTypeName(arch) +
               " CPU; the JIT's code runs on this " +
               llvm::Triple::getArchTypeName(hostArch()) + " host")
                  .str();
      return failure();
    }
    // The host's memory system and cores; the instruction set the name
    // allows, which narrows what the host's vector units execute at most.
    target = hostCpuTarget();
    target.cpu = name.str();
    setFeatures(target, features);
    // An SVE name gives no length (LLVM's tables do not): the host's
    // registers do.
    if (target.sve)
      target.vectorBits = sveBitsOf(hostScalableVectorBits());
    target.vectorUnitBits = std::min(target.vectorUnitBits, target.vectorBits);
    return target;
  }
  target.cpu = name.str();
  target.arch = arch;
  setFeatures(target, features);
  setTuning(target, features);
  return target;
}

llvm::StringMap<bool> mlir::gather::featureMap(StringRef features) {
  SmallVector<StringRef> list;
  features.split(list, ',', -1, /*KeepEmpty=*/false);
  llvm::StringMap<bool> map;
  addSignedFeatures(map, list);
  return map;
}

/// The features `features` turns on that `host` names as off, sorted.
static SmallVector<std::string>
missingFrom(const llvm::StringMap<bool> &features,
            const llvm::StringMap<bool> &host) {
  SmallVector<std::string> missing;
  for (const auto &[feature, on] : features)
    // Features the host's list does not name (x87) cannot be judged.
    if (on && host.count(feature) && !host.lookup(feature))
      missing.push_back(feature.str());
  llvm::sort(missing);
  return missing;
}

std::string mlir::gather::featuresMissing(const CpuTarget &target,
                                          const llvm::StringMap<bool> &host) {
  return llvm::join(missingFrom(featureMap(target.features), host), ", ");
}

std::string mlir::gather::featuresMissingOnHost(const CpuTarget &target) {
  return featuresMissing(target, hostFeatures());
}

FailureOr<SmallVector<std::string>>
mlir::gather::codeFeaturesMissingOnHost(StringRef cpu, StringRef features,
                                        std::string &error) {
  llvm::StringMap<bool> needed;
  if (!cpu.empty()) {
    FailureOr<CpuTarget> named = cpuTargetForName(cpu, error, /*onHost=*/true);
    if (failed(named))
      return failure();
    needed = featureMap(named->features);
  }
  // In order, as LLVM applies them: "+avx512bw,-avx512f" leaves neither.
  SmallVector<StringRef> list;
  features.split(list, ',', -1, /*KeepEmpty=*/false);
  addSignedFeatures(needed, list, hostArch());
  return missingFrom(needed, hostFeatures());
}

FailureOr<CpuTarget> mlir::gather::applyDltiCpuSpec(Operation *op,
                                                    CpuTarget target) {
  // The bounds keep every threshold's arithmetic far from overflow (a
  // cache line of 2^63 bytes made the prefetch plan divide by zero).
  struct Entry {
    StringRef key;
    int64_t *field;
    int64_t min, max;
    bool powerOfTwo;
  };
  constexpr int64_t kMaxCacheBytes = int64_t(1) << 40;
  int64_t meshL3 = target.meshL3;
  int64_t nonTemporalStores = target.nonTemporalStores;
  int64_t longOffsetTiles = target.longOffsetTiles;
  int64_t gatherOffsetRows = target.gatherOffsetRows;
  int64_t collectOffsetRows = target.collectOffsetRows;
  int64_t prefetchBlocksL2 = target.prefetchBlocksL2;
  auto offsetTablePrefetch = static_cast<int64_t>(target.prefetchOffsetTables);
  auto indexStreamPrefetch = static_cast<int64_t>(target.prefetchIndexStreams);
  Entry entries[] = {
      {"max_vector_op_width", &target.vectorBits, 64, 4096, false},
      {"vector_unit_width", &target.vectorUnitBits, 64, 4096, false},
      {"cache_line_size_in_bytes", &target.cacheLineBytes, 8, 4096, true},
      {"page_size_in_bytes", &target.pageBytes, 256, int64_t(1) << 30, true},
      {"L1_cache_size_in_bytes", &target.l1dBytes, 1024, kMaxCacheBytes, false},
      {"L2_cache_size_in_bytes", &target.l2Bytes, 1024, kMaxCacheBytes, false},
      {"L3_cache_size_in_bytes", &target.l3Bytes, 1024, kMaxCacheBytes, false},
      {"cores", &target.cores, 1, 1 << 20, false},
      {"prefetch_lines_ahead", &target.prefetchLinesAheadGiven, 1, 1 << 20,
       false},
      {"parallel_min_bytes", &target.parallelMinBytesGiven, 0, kMaxCacheBytes,
       false},
      {"tile_blocks", &target.tileBlocksGiven, 1, 64, false},
      {"prefetch_block_lines", &target.prefetchBlockLinesGiven, 1, 4096, false},
      {"offset_tile_bytes", &target.offsetTileBytesGiven, 1, kMaxCacheBytes,
       false},
      {"offset_chunk_bytes", &target.offsetChunkBytesGiven, 8, 1 << 20, false},
      {"streamed_vector_copy_bytes", &target.streamedVectorCopyBytesGiven, 1,
       kMaxCacheBytes, false},
      {"long_offset_tiles", &longOffsetTiles, 0, 1, false},
      {"tile_max_block_lines", &target.tileMaxBlockLines, 1, 64, false},
      {"prefetch_offset_tables", &offsetTablePrefetch, 0, 2, false},
      {"mesh_l3", &meshL3, 0, 1, false},
      {"gather_offset_rows", &gatherOffsetRows, 0, 1, false},
      {"collect_offset_rows", &collectOffsetRows, 0, 1, false},
      {"prefetch_index_streams", &indexStreamPrefetch, 0, 2, false},
      {"prefetch_blocks_l2", &prefetchBlocksL2, 0, 1, false},
      {"nontemporal_stores", &nonTemporalStores, 0, 1, false}};
  for (Entry entry : entries) {
    FailureOr<Attribute> value = dlti::query(op, {"CPU", entry.key});
    if (failed(value))
      continue;
    auto integer = dyn_cast<IntegerAttr>(*value);
    bool isVectorBits = entry.field == &target.vectorBits ||
                        entry.field == &target.vectorUnitBits;
    std::optional<int64_t> number;
    if (integer && integer.getType().isIntOrIndex() &&
        integer.getValue().getSignificantBits() <= 64)
      number = integer.getValue().getSExtValue();
    if (!number || *number < entry.min || *number > entry.max ||
        (entry.powerOfTwo && !llvm::isPowerOf2_64(*number)) ||
        (isVectorBits && !isValidVectorBits(*number))) {
      return op->emitError("the target description's CPU entry \"")
             << entry.key << "\" must be "
             << (entry.powerOfTwo ? "a power of two"
                 : isVectorBits   ? "a multiple of 64"
                                  : "an integer")
             << " in [" << entry.min << ", " << entry.max << "], got "
             << *value;
    }
    *entry.field = *number;
  }
  target.meshL3 = meshL3 != 0;
  target.nonTemporalStores = nonTemporalStores != 0;
  target.longOffsetTiles = longOffsetTiles != 0;
  target.gatherOffsetRows = gatherOffsetRows != 0;
  target.collectOffsetRows = collectOffsetRows != 0;
  target.prefetchBlocksL2 = prefetchBlocksL2 != 0;
  target.prefetchOffsetTables =
      static_cast<OffsetTablePrefetch>(offsetTablePrefetch);
  target.prefetchIndexStreams =
      static_cast<IndexStreamPrefetch>(indexStreamPrefetch);
  return target;
}

FailureOr<CpuTarget> mlir::gather::resolveCpuTarget(Operation *op,
                                                    StringRef cpu,
                                                    int64_t vectorBits,
                                                    bool onHost) {
  CpuTarget target;
  if (!cpu.empty()) {
    std::string error;
    FailureOr<CpuTarget> named = cpuTargetForName(cpu, error, onHost);
    if (failed(named))
      return op->emitError(error);
    target = std::move(*named);
  }
  FailureOr<CpuTarget> described = applyDltiCpuSpec(op, std::move(target));
  if (failed(described))
    return failure();
  if (vectorBits != 0) {
    if (!isValidVectorBits(vectorBits))
      return op->emitError("vector-bits must be a positive multiple of 64 "
                           "up to 4096, got ")
             << vectorBits;
    described->vectorBits = vectorBits;
  }
  if (!described->vscaleMin())
    return described;
  // vscale_range's bounds are powers of two, and SVE's registers at most
  // 2048 bits.
  int64_t bits = described->vectorBits;
  if (!llvm::isPowerOf2_64(bits) || bits > 2048)
    return op->emitError("vector width ")
           << bits << " of the SVE CPU '" << described->cpu
           << "' is not a power of two in [128, 2048] (the length its SVE "
              "registers guarantee)";
  // SVE's units execute an operation at the registers' width (the named
  // CPU's 128 was NEON's), unless the description says otherwise.
  if (failed(dlti::query(op, {"CPU", "vector_unit_width"})))
    described->vectorUnitBits = bits;
  return described;
}
