//===- StreamingStores.cpp - non-temporal row stores ----------------------===//
//
// Part of the gather project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "gather/CodeGen/Passes.h"
#include "gather/Dialect/Gather/IR/GatherDialect.h"
#include "gather/Target/CpuTarget.h"
#include "gather/Utils/ElementBytes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Utils/StaticValueUtils.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/IR/IRMapping.h"

namespace mlir::gather {
#define GEN_PASS_DEF_GATHERSTREAMINGSTORES
#include "gather/CodeGen/Passes.h.inc"
} // namespace mlir::gather

using namespace mlir;

namespace {
/// A write of the loop that may become a non-temporal store: the buffer it
/// writes (through subviews made in the loop) and the alignment its
/// address has wherever that buffer's start and outer strides have it.
struct Candidate {
  vector::TransferWriteOp write;
  Value buffer;
  int64_t alignment;
};
} // namespace

/// Whether `value` is a multiple of `multiple` by its definition: a
/// constant multiple, a sum of such values, a product with one (the
/// offsets of a rolled row loop: start + r * lanes).
static bool isKnownMultiple(OpFoldResult value, int64_t multiple) {
  if (std::optional<int64_t> c = getConstantIntValue(value))
    return *c % multiple == 0;
  auto v = dyn_cast<Value>(value);
  if (!v)
    return false;
  if (auto add = v.getDefiningOp<arith::AddIOp>())
    return isKnownMultiple(add.getLhs(), multiple) &&
           isKnownMultiple(add.getRhs(), multiple);
  if (auto mul = v.getDefiningOp<arith::MulIOp>())
    return isKnownMultiple(mul.getLhs(), multiple) ||
           isKnownMultiple(mul.getRhs(), multiple);
  // The induction variable of a loop from a multiple in steps of one.
  if (auto loop = scf::getForInductionVarOwner(v))
    return isKnownMultiple(loop.getLowerBound(), multiple) &&
           isKnownMultiple(loop.getStep(), multiple);
  return false;
}

/// The candidate for `write` in `loop`, or nullopt: an unmasked, in-bounds
/// 1-D write of a minor identity map into a memref, of a power-of-two
/// vector of 16 to 64 bytes, at an innermost position that is a known
/// multiple of the vector's lanes (isKnownMultiple), through unit-stride,
/// rank-preserving subviews (each at such an innermost offset) of a buffer
/// defined outside the loop. Its address is then the buffer's first element
/// plus multiples of the buffer's outer strides plus a multiple of the vector's
/// bytes.
static std::optional<Candidate> candidate(vector::TransferWriteOp write,
                                          scf::ForallOp loop) {
  auto memrefType = dyn_cast<MemRefType>(write.getBase().getType());
  VectorType vectorType = write.getVectorType();
  // vector.store takes a memref whose type says its innermost stride is 1
  // (a write into a view of dynamic strides, fuzzer-found, stays as it is).
  if (!memrefType || !memrefType.isLastDimUnitStride() || write.getMask() ||
      vectorType.getRank() != 1 || vectorType.isScalable() ||
      !write.getPermutationMap().isMinorIdentity() ||
      llvm::any_of(write.getInBoundsValues(), [](bool b) { return !b; }))
    return std::nullopt;
  int64_t elementBytes =
      gather::packedElementBytes(memrefType.getElementType());
  int64_t bytes = elementBytes * vectorType.getNumElements();
  if (!elementBytes || bytes < 16 || bytes > 64 || !llvm::isPowerOf2_64(bytes))
    return std::nullopt;
  int64_t lanes = vectorType.getNumElements();
  if (!isKnownMultiple(write.getIndices().back(), lanes))
    return std::nullopt;
  Value buffer = write.getBase();
  while (loop->isAncestor(buffer.getParentBlock()->getParentOp())) {
    auto view = buffer.getDefiningOp<memref::SubViewOp>();
    if (!view || view.getSourceType().getRank() != view.getType().getRank() ||
        !llvm::all_of(
            view.getMixedStrides(),
            [](OpFoldResult s) { return isConstantIntValue(s, 1); }) ||
        !isKnownMultiple(view.getMixedOffsets().back(), lanes))
      return std::nullopt;
    buffer = view.getSource();
  }
  return Candidate{write, buffer, bytes};
}

/// Whether `buffer` (`bytes` or more, its first element aligned to
/// `alignment` and its strides but the innermost to `strideAlignment`, the
/// innermost stride 1) holds at run time: an i1.
static Value runTimeCondition(OpBuilder &b, Location loc, Value buffer,
                              int64_t alignment, int64_t strideAlignment,
                              int64_t minBytes) {
  auto type = cast<MemRefType>(buffer.getType());
  int64_t elementBytes = gather::packedElementBytes(type.getElementType());
  auto index = [&](int64_t v) {
    return arith::ConstantIndexOp::create(b, loc, v).getResult();
  };
  Value zero = index(0);
  Value mask = index(alignment - 1);
  Value strideMask =
      strideAlignment == alignment ? mask : index(strideAlignment - 1);
  Value width = index(elementBytes);
  auto aligned = [&](Value byteValue, Value lowBits) {
    Value low = arith::AndIOp::create(b, loc, byteValue, lowBits);
    return arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq, low, zero)
        .getResult();
  };
  auto metadata = memref::ExtractStridedMetadataOp::create(b, loc, buffer);
  Value pointer =
      memref::ExtractAlignedPointerAsIndexOp::create(b, loc, buffer);
  Value offsetBytes =
      arith::MulIOp::create(b, loc, metadata.getOffset(), width);
  Value condition =
      aligned(arith::AddIOp::create(b, loc, pointer, offsetBytes), mask);
  Value size = width;
  int64_t rank = type.getRank();
  for (int64_t d = 0; d < rank; ++d) {
    size = arith::MulIOp::create(b, loc, size, metadata.getSizes()[d]);
    Value stride = metadata.getStrides()[d];
    Value holds =
        d + 1 == rank
            ? arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq, stride,
                                    index(1))
                  .getResult()
            : aligned(arith::MulIOp::create(b, loc, stride, width), strideMask);
    condition = arith::AndIOp::create(b, loc, condition, holds);
  }
  Value large = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::uge, size,
                                      index(minBytes));
  return arith::AndIOp::create(b, loc, condition, large);
}

/// Orders the non-temporal stores before what the thread does next. x86's
/// are weakly ordered: only `sfence` (or a full fence) orders them.
/// Elsewhere a sequentially consistent fence (AArch64's `dmb ish`: its
/// non-temporal stores obey barriers as plain stores do).
static void emitStoreFence(OpBuilder &b, Location loc,
                           llvm::Triple::ArchType arch) {
  if (arch == llvm::Triple::x86_64 || arch == llvm::Triple::x86) {
    LLVM::CallIntrinsicOp::create(
        b, loc, b.getStringAttr("llvm.x86.sse.sfence"), ValueRange{});
    return;
  }
  LLVM::FenceOp::create(b, loc, LLVM::AtomicOrdering::seq_cst);
}

/// The op to version for `candidates` of `loop`: the innermost op inside
/// the loop that holds them all (the loop over a row's registers), or the
/// loop itself where they are in its body apart.
static Operation *versionedOp(scf::ForallOp loop,
                              ArrayRef<Candidate> candidates) {
  Operation *common = candidates.front().write->getParentOp();
  auto holdsAll = [&](Operation *op) {
    return llvm::all_of(candidates, [&](const Candidate &c) {
      return op->isAncestor(c.write);
    });
  };
  while (common != loop.getOperation() && !holdsAll(common))
    common = common->getParentOp();
  return common;
}

/// Versions `loop` (marked with `minBytes`, and `rowBytes` or 0): its
/// candidates' writes become non-temporal stores in a copy taken where the
/// run-time condition holds. The copy is of the innermost op that holds
/// every candidate (the loop over a row's registers), the condition
/// computed before the loop: a copy of the whole loop doubled the code of
/// each gather (its index resolution, prefetch and checks), which 1000
/// distinct gathers with dynamic sizes paid in compile time.
static void version(scf::ForallOp loop, int64_t minBytes, int64_t rowBytes,
                    llvm::Triple::ArchType arch) {
  SmallVector<Candidate> candidates;
  loop.walk([&](vector::TransferWriteOp write) {
    if (std::optional<Candidate> c = candidate(write, loop))
      candidates.push_back(*c);
  });
  // One buffer: the output. A loop writing several is left alone.
  if (candidates.empty() || llvm::any_of(candidates, [&](const Candidate &c) {
        return c.buffer != candidates.front().buffer;
      }))
    return;
  int64_t alignment = 0;
  for (const Candidate &c : candidates)
    alignment = std::max(alignment, c.alignment);

  OpBuilder b(loop);
  Location loc = loop.getLoc();
  Value condition =
      runTimeCondition(b, loc, candidates.front().buffer, alignment,
                       std::max(alignment, rowBytes), minBytes);
  Operation *versioned = versionedOp(loop, candidates);
  OpBuilder vb(versioned);
  auto branch = scf::IfOp::create(vb, versioned->getLoc(),
                                  versioned->getResultTypes(), condition,
                                  /*withElseRegion=*/true);
  vb.setInsertionPointToStart(branch.thenBlock());
  IRMapping mapping;
  Operation *copy = vb.clone(*versioned, mapping);
  if (!branch.getResults().empty())
    scf::YieldOp::create(vb, loc, copy->getResults());
  for (const Candidate &c : candidates) {
    auto write = cast<vector::TransferWriteOp>(mapping.lookup(c.write));
    OpBuilder wb(write);
    // Each store's own vector size: the buffer's alignment to the widest
    // makes every store aligned to its own.
    vector::StoreOp::create(wb, write.getLoc(), write.getVector(),
                            write.getBase(), write.getIndices(),
                            /*nontemporal=*/true,
                            llvm::MaybeAlign(c.alignment));
    write.erase();
  }
  versioned->replaceAllUsesWith(branch.getResults());
  vb.setInsertionPointToStart(branch.elseBlock());
  if (!branch.getResults().empty())
    scf::YieldOp::create(vb, loc, versioned->getResults());
  versioned->moveBefore(branch.elseBlock()->getTerminator());
  // Non-temporal stores are weakly ordered: fenced before the caller reads,
  // after the whole loop where the copy ran.
  if (versioned == loop.getOperation()) {
    b.setInsertionPointAfter(copy);
  } else {
    b.setInsertionPointAfter(loop);
    b.setInsertionPointToStart(
        scf::IfOp::create(b, loc, condition).thenBlock());
  }
  emitStoreFence(b, loc, arch);
}

namespace {
struct GatherStreamingStoresPass
    : gather::impl::GatherStreamingStoresBase<GatherStreamingStoresPass> {
  using Base::Base;

  void runOnOperation() override {
    auto *dialect = getContext().getLoadedDialect<gather::GatherDialect>();
    // No gather op was ever lowered in this context: nothing is marked.
    if (!dialect)
      return;
    auto mark = dialect->getStreamingStoresAttrHelper();
    auto rowMark = dialect->getStreamingRowBytesAttrHelper();
    SmallVector<std::tuple<scf::ForallOp, int64_t, int64_t>> marked;
    getOperation()->walk([&](scf::ForallOp loop) {
      if (IntegerAttr bytes = mark.getAttr(loop)) {
        IntegerAttr rowBytes = rowMark.getAttr(loop);
        marked.push_back(
            {loop, bytes.getInt(), rowBytes ? rowBytes.getInt() : 0});
        mark.removeAttr(loop);
        rowMark.removeAttr(loop);
      }
    });
    if (marked.empty())
      return;
    FailureOr<gather::CpuTarget> target = gather::resolveCpuTarget(
        getOperation(), targetCpu, /*vectorBits=*/0, onHost);
    if (failed(target))
      return signalPassFailure();
    for (auto [loop, minBytes, rowBytes] : marked)
      if (loop.getOutputs().empty())
        version(loop, minBytes, rowBytes, target->arch);
  }
};
} // namespace
