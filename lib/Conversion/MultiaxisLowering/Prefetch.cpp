//===- Prefetch.cpp - software prefetch of what later iterations read -----===//
//
// Part of the gather project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// A gather reads its input at places that only the indices know, so the
// hardware prefetchers, which follow addresses, cannot run ahead of it: each
// miss costs a full memory latency, and a core keeps only a few in flight.
// The CPU forms therefore prefetch what a later iteration of their parallel
// loop reads: the block that a block copy takes some iterations ahead (its
// index read early), or, for element gathers along dense rows, the whole
// next input row while the current one is gathered.
//
//===----------------------------------------------------------------------===//

#include "Prefetch.h"
#include "LoopOrder.h"
#include "gather/Utils/ElementBytes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Arith/Utils/Utils.h"
#include "mlir/Dialect/Bufferization/IR/Bufferization.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Dialect/Utils/StaticValueUtils.h"
#include "llvm/Support/MathExtras.h"

using namespace mlir;
using namespace mlir::gather;
using namespace mlir::gather::lowering;

namespace {
/// Prefetches per vector step of a dynamic row plan (a code shape, not a
/// machine's size: the lines each step covers are spread over them).
constexpr int64_t kUnrolledLines = 4;
/// A block prefetch carries into the next outer iteration where its
/// distance is at least 1 / kCarryRowFraction of the inner loop's length.
constexpr int64_t kCarryRowFraction = 16;
} // namespace

/// Whether a tensor of `type`, `elementBytes` an element, is larger than
/// the caches keep: of dynamic size, or of prefetchMinInputBytes or more
/// (sizes whose product overflows are beyond any memory: no). A dynamic
/// size counts as large: a dynamic table is a model's, and a prefetch of a
/// cached line costs an instruction.
static bool largerThanCachesKeep(const LoweringState &s, RankedTensorType type,
                                 int64_t elementBytes) {
  if (!type.hasStaticShape())
    return true;
  int64_t bytes = elementBytes;
  for (int64_t size : type.getShape())
    if (llvm::MulOverflow(bytes, size, bytes))
      return false;
  return bytes >= s.target.prefetchMinInputBytes();
}

/// Whether prefetching the input can pay: its element type has a byte
/// size, its dimensions from `firstStaticDim` on (what the prefetch plan is
/// made of) are static, and it is larger than the caches keep.
static bool worthPrefetching(const LoweringState &s, int64_t firstStaticDim) {
  auto type = cast<RankedTensorType>(s.op.getInput().getType());
  int64_t elementBytes = packedElementBytes(type.getElementType());
  if (!elementBytes)
    return false;
  for (int64_t d = firstStaticDim; d < type.getRank(); ++d)
    if (type.isDynamicDim(d))
      return false;
  return largerThanCachesKeep(s, type, elementBytes);
}

/// `tensor` (the input, or a view of it) as a read-only buffer of any
/// layout, for memref.prefetch (one-shot-bufferize replaces it with the
/// input's buffer).
static Value readOnlyBuffer(OpBuilder &b, Location loc, Value tensor) {
  auto type = cast<RankedTensorType>(tensor.getType());
  SmallVector<int64_t> strides(type.getRank(), ShapedType::kDynamic);
  auto layout =
      StridedLayoutAttr::get(b.getContext(), ShapedType::kDynamic, strides);
  auto bufferType =
      MemRefType::get(type.getShape(), type.getElementType(), layout);
  return bufferization::ToBufferOp::create(b, loc, bufferType, tensor,
                                           /*readOnly=*/true);
}

static Value inputBuffer(OpBuilder &b, Location loc, const LoweringState &s) {
  return readOnlyBuffer(b, loc, s.op.getInput());
}

static void prefetch(OpBuilder &b, Location loc, Value buffer,
                     ValueRange coords, int64_t locality = 3) {
  memref::PrefetchOp::create(b, loc, buffer, coords, /*isWrite=*/false,
                             locality, /*isDataCache=*/true);
}

/// Where the op's indices are one index value of its whole indices, read
/// through slices of them that keep the rank and step 1 (then reshaped, as
/// the multiaxis form's unit dimensions are): the plan's whole indices,
/// sizes and position (the slices' offsets added up) and the loop
/// dimension, the whole indices' innermost of more than one element. The
/// embedding bag's steps of one row each (gather-fuse-consumers) ran 1.16x
/// as long without it (Zen 4; docs/Lowering.md).
static bool planWholeIndicesPosition(OpBuilder &b, Location loc,
                                     const LoweringState &s,
                                     BlockPrefetch &plan) {
  Value whole = s.op.getWholeIndices();
  auto type = cast<RankedTensorType>(s.op.getIndices().getType());
  if (!whole || s.resolved || s.axes.size() != 1 || s.coordinateSize != 1 ||
      !type.hasStaticShape() || type.getNumElements() != 1)
    return false;
  Value sliced = s.op.getIndices();
  while (isa_and_nonnull<tensor::ExpandShapeOp, tensor::CollapseShapeOp>(
      sliced.getDefiningOp()))
    sliced = sliced.getDefiningOp()->getOperand(0);
  auto wholeType = cast<RankedTensorType>(whole.getType());
  int64_t rank = wholeType.getRank();
  if (cast<RankedTensorType>(sliced.getType()).getRank() != rank)
    return false;
  SmallVector<OpFoldResult> position(rank, b.getIndexAttr(0));
  for (Value v = sliced; v != whole;) {
    auto slice = v.getDefiningOp<tensor::ExtractSliceOp>();
    if (!slice || !slice.hasUnitStride() ||
        slice.getSourceType().getRank() != rank)
      return false;
    for (auto [at, offset] : llvm::zip(position, slice.getMixedOffsets())) {
      std::optional<int64_t> x = getConstantIntValue(at),
                             y = getConstantIntValue(offset);
      at = x && y ? b.getIndexAttr(*x + *y)
                  : OpFoldResult(arith::AddIOp::create(
                        b, loc, getValueOrCreateConstantIndexOp(b, loc, at),
                        getValueOrCreateConstantIndexOp(b, loc, offset)));
    }
    v = slice.getSource();
  }
  std::optional<int64_t> loopDim;
  for (int64_t d = rank - 1; d >= 0 && !loopDim; --d)
    if (wholeType.getDimSize(d) != 1)
      loopDim = d;
  if (!loopDim)
    return false;
  plan.loopDim = *loopDim;
  plan.wholeIndices = whole;
  plan.wholeSizes = tensor::getMixedSizes(b, loc, whole);
  plan.wholePosition = std::move(position);
  return true;
}

std::optional<BlockPrefetch>
lowering::planBlockPrefetch(OpBuilder &b, Location loc, const LoweringState &s,
                            Value init, int64_t blockStart) {
  if (blockStart < 1 || !worthPrefetching(s, s.rank))
    return std::nullopt;
  auto type = cast<RankedTensorType>(s.op.getInput().getType());
  int64_t elementBytes = packedElementBytes(type.getElementType());
  bool dynamicBlock = false;
  int64_t blockBytes = elementBytes;
  for (int64_t d = blockStart; d < s.rank; ++d) {
    if (type.isDynamicDim(d))
      dynamicBlock = true;
    else if (llvm::MulOverflow(blockBytes, type.getDimSize(d), blockBytes))
      return std::nullopt;
  }
  if (blockBytes == 0)
    return std::nullopt;
  BlockPrefetch plan;
  plan.locality = s.target.prefetchBlocksL2 ? 2 : 3;
  // Ahead along the innermost loop dimension that has more than one
  // iteration (the order one thread runs them in); for one block, ahead in
  // the whole indices it reads a slice of.
  if (std::optional<int64_t> loopDim = innermostLoopDimension(
          cast<RankedTensorType>(init.getType()).getShape(), blockStart))
    plan.loopDim = *loopDim;
  else if (!planWholeIndicesPosition(b, loc, s, plan))
    return std::nullopt;
  plan.buffer = inputBuffer(b, loc, s);
  plan.lineElements =
      std::max<int64_t>(1, s.target.cacheLineBytes / elementBytes);
  if (dynamicBlock) {
    // The static plan's numbers at run time (a block gather with dynamic
    // sizes: W1's rows went without prefetch and took 1.4x as long).
    // Sizes of real buffers keep these products from overflowing; the
    // loops, and with them the prefetches, run only for a block that is
    // not empty.
    Value bytes = constIndex(b, loc, elementBytes);
    for (int64_t d = blockStart; d < s.rank; ++d)
      bytes = arith::MulIOp::create(b, loc, bytes, s.inputSize[d]);
    Value one = constIndex(b, loc, 1);
    Value lines = arith::MaxUIOp::create(
        b, loc,
        arith::CeilDivUIOp::create(b, loc, bytes,
                                   constIndex(b, loc, s.target.cacheLineBytes)),
        one);
    plan.dynamicDistance = arith::MaxUIOp::create(
        b, loc,
        arith::DivUIOp::create(
            b, loc, constIndex(b, loc, s.target.prefetchLinesAhead()), lines),
        one);
    plan.rowLength = s.inputSize[s.rank - 1];
    plan.dynamicRowLines = arith::MinUIOp::create(
        b, loc,
        arith::CeilDivUIOp::create(b, loc, plan.rowLength,
                                   constIndex(b, loc, plan.lineElements)),
        constIndex(b, loc, s.target.prefetchMaxBlockLines()));
    return plan;
  }
  int64_t lines =
      (blockBytes + s.target.cacheLineBytes - 1) / s.target.cacheLineBytes;
  plan.distance = std::max<int64_t>(1, s.target.prefetchLinesAhead() / lines);
  // Lines along the innermost block dimension; a block with several rows
  // gets its first row's (the hardware follows the others).
  int64_t rowElements = type.getDimSize(s.rank - 1);
  int64_t lineElements =
      std::max<int64_t>(1, s.target.cacheLineBytes / elementBytes);
  int64_t rowTotalLines = (rowElements + lineElements - 1) / lineElements;
  int64_t rowLines =
      std::min<int64_t>(s.target.prefetchMaxBlockLines(), rowTotalLines);
  for (int64_t m = 0; m < rowLines; ++m)
    plan.rowOffsets.push_back(m * lineElements);
  // Every row of more than one line also prefetches the line of its last
  // element, one line more where the row does not start on a line boundary
  // (as the dynamic plan does): rows that end a few bytes into a page
  // stalled on that line, which no prefetch and no hardware stream had
  // touched. Read from numpy's arrays (16 bytes past a page), W2 (16 lines
  // a row) took 1.07-1.31x as long without it, 2 KiB rows (32 lines)
  // 1.35-1.49x, W1 (48) 1.06-1.10x (Zen 4; docs/Lowering.md).
  if (rowTotalLines > 1)
    plan.rowOffsets.push_back(rowElements - 1);
  return plan;
}

BlockPrefetch lowering::prefetchReading(OpBuilder &b, Location loc,
                                        const BlockPrefetch &plan,
                                        Value input) {
  BlockPrefetch reading = plan;
  reading.buffer = readOnlyBuffer(b, loc, input);
  return reading;
}

/// Whether `plan`'s distance is static and shorter than a static `length`
/// of its loop: a position ahead then reaches at most the next outer
/// position.
static bool distanceWithin(const BlockPrefetch &plan,
                           std::optional<int64_t> length) {
  return length && !plan.dynamicDistance && plan.distance < *length;
}

/// The position `distance` iterations after `ivs` along `plan.loopDim` of
/// loops over `upperBounds`, clamped to the last one or carried into the
/// next outer loop.
static SmallVector<Value> positionAhead(OpBuilder &b, Location loc,
                                        const BlockPrefetch &plan,
                                        ValueRange ivs,
                                        ArrayRef<OpFoldResult> upperBounds) {
  int64_t inner = plan.loopDim;
  Value distance = plan.dynamicDistance ? plan.dynamicDistance
                                        : constIndex(b, loc, plan.distance);
  Value ahead = arith::AddIOp::create(b, loc, ivs[inner], distance);
  Value length = getValueOrCreateConstantIndexOp(b, loc, upperBounds[inner]);
  Value one = constIndex(b, loc, 1);
  Value lastIteration = arith::SubIOp::create(b, loc, length, one);
  SmallVector<Value> coords(ivs.begin(), ivs.end());
  std::optional<int64_t> outer;
  for (int64_t d = inner - 1; d >= 0 && !outer; --d)
    if (getConstantIntValue(upperBounds[d]) != std::optional<int64_t>(1))
      outer = d;
  // Only where the clamp would leave a sixteenth or more of the rows
  // unprefetched (or may: a dynamic length or distance): the carry costs
  // about eight instructions a row, and W2's rows (8 of every 500
  // unprefetched) ran 0.98-1.04x as long with it (Zen 4).
  std::optional<int64_t> staticLength = getConstantIntValue(upperBounds[inner]);
  if (staticLength && !plan.dynamicDistance &&
      plan.distance * kCarryRowFraction < *staticLength)
    outer.reset();
  if (!outer) {
    coords[inner] = arith::MinUIOp::create(b, loc, ahead, lastIteration);
  } else {
    // Past the end of `inner`, the next iterations of `outer`: the same
    // thread's under OpenMP's static schedule, which deals out the outer
    // dimension in chunks. Clamped there, each row of [bags, rows] indices
    // began with `distance` rows that no prefetch had asked for (an
    // embedding bag of 32 rows of 512 bytes took 1.2x as long as with the
    // carry; docs/Lowering.md). A static length divides by a constant; a
    // dynamic one carries once.
    bool carryOnce = !staticLength || distanceWithin(plan, staticLength);
    Value steps, within;
    if (carryOnce) {
      Value past = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::uge,
                                         ahead, length);
      steps = arith::SelectOp::create(b, loc, past, one, constIndex(b, loc, 0));
      within = arith::SelectOp::create(
          b, loc, past, arith::SubIOp::create(b, loc, ahead, length), ahead);
      // (Still past it where a dynamic distance or length may exceed it.)
      if (!staticLength || plan.dynamicDistance)
        within = arith::MinUIOp::create(b, loc, within, lastIteration);
    } else {
      steps = arith::DivUIOp::create(b, loc, ahead, length);
      within = arith::RemUIOp::create(b, loc, ahead, length);
    }
    Value outerLast = arith::SubIOp::create(
        b, loc, getValueOrCreateConstantIndexOp(b, loc, upperBounds[*outer]),
        one);
    Value outerAhead = arith::AddIOp::create(b, loc, ivs[*outer], steps);
    Value beyond = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ugt,
                                         outerAhead, outerLast);
    coords[*outer] =
        arith::SelectOp::create(b, loc, beyond, outerLast, outerAhead);
    coords[inner] =
        arith::SelectOp::create(b, loc, beyond, lastIteration, within);
  }
  return coords;
}

/// The index value `distance` elements further on in whole indices of a
/// function's argument (contiguous: the pipeline bufferizes function
/// boundaries with the identity layout), read as one row (collapse_shape,
/// a view), clamped to the last: the carry into the next outer position
/// divides by a length the distance reaches (2048 bags of 20 rows, 32 rows
/// ahead: the fused bag took 1.05-1.10x the time of the same bags read from
/// flat indices; bench/README.md) and otherwise costs two compares and
/// four selects a row where this read adds and clamps. Null elsewhere.
static Value flatIndexAhead(OpBuilder &b, Location loc,
                            const BlockPrefetch &plan) {
  auto type = cast<RankedTensorType>(plan.wholeIndices.getType());
  int64_t rank = type.getRank();
  if (rank < 2 || !isa<BlockArgument>(plan.wholeIndices) ||
      !isa<func::FuncOp>(
          cast<BlockArgument>(plan.wholeIndices).getOwner()->getParentOp()))
    return nullptr;
  Value flat = constIndex(b, loc, 0), total = constIndex(b, loc, 1);
  for (int64_t d = 0; d < rank; ++d) {
    Value size = getValueOrCreateConstantIndexOp(b, loc, plan.wholeSizes[d]);
    flat = arith::AddIOp::create(
        b, loc, arith::MulIOp::create(b, loc, flat, size),
        getValueOrCreateConstantIndexOp(b, loc, plan.wholePosition[d]));
    total = arith::MulIOp::create(b, loc, total, size);
  }
  Value distance = plan.dynamicDistance ? plan.dynamicDistance
                                        : constIndex(b, loc, plan.distance);
  Value last = arith::SubIOp::create(b, loc, total, constIndex(b, loc, 1));
  Value ahead = arith::MinUIOp::create(
      b, loc, arith::AddIOp::create(b, loc, flat, distance), last);
  SmallVector<ReassociationIndices> all(1);
  for (int64_t d = 0; d < rank; ++d)
    all.front().push_back(d);
  Value row = tensor::CollapseShapeOp::create(b, loc, plan.wholeIndices, all);
  return tensor::ExtractOp::create(b, loc, row, ValueRange{ahead});
}

void lowering::emitBlockPrefetch(OpBuilder &b, Location loc,
                                 const LoweringState &s,
                                 const BlockPrefetch &plan, ValueRange ivs,
                                 ArrayRef<OpFoldResult> upperBounds,
                                 int64_t blockStart) {
  if (plan.wholeIndices) {
    // The one index value `distance` further on in the whole indices, to an
    // address in the input (the other dimensions before the block are 1).
    Value raw = flatIndexAhead(b, loc, plan);
    if (!raw) {
      SmallVector<Value> position = positionAhead(
          b, loc, plan,
          getValueOrCreateConstantIndexOp(b, loc, plan.wholePosition),
          plan.wholeSizes);
      raw = tensor::ExtractOp::create(b, loc, plan.wholeIndices, position);
    }
    int64_t axis = s.axes.front();
    auto inputType = cast<RankedTensorType>(s.op.getInput().getType());
    SmallVector<Value> coords(s.rank, constIndex(b, loc, 0));
    coords[axis] = buildAddressIndex(
        b, loc, s.policy, toIndex(b, loc, raw), s.inputSize[axis],
        inputType.isDynamicDim(axis) ? 0 : inputType.getDimSize(axis));
    emitBlockPrefetchAt(b, loc, plan, coords);
    return;
  }
  SmallVector<Value> coords = positionAhead(b, loc, plan, ivs, upperBounds);
  for (int64_t d = blockStart; d < s.rank; ++d)
    coords.push_back(constIndex(b, loc, 0));
  // Clamped whatever the op's policy: a prefetch needs an address in the
  // input, not the policy's answer, and a clamp is two conditional moves
  // where `error` and `fill` would add a compare and branch per index.
  LoweringState clamped = s;
  clamped.policy.outOfBounds = OutOfBoundsMode::clamp;
  clamped.loopReport = LoweringState::LoopReport::None;
  clamped.errorFlag = nullptr;
  InputCoords at = computeInputCoords(b, loc, clamped, coords);
  emitBlockPrefetchAt(b, loc, plan, at.coords);
}

void lowering::emitBlockPrefetchAt(OpBuilder &b, Location loc,
                                   const BlockPrefetch &plan,
                                   ArrayRef<Value> inputCoords) {
  SmallVector<Value> where(inputCoords);
  for (int64_t offset : plan.rowOffsets) {
    where.back() = constIndex(b, loc, offset);
    prefetch(b, loc, plan.buffer, where, plan.locality);
  }
  if (!plan.dynamicRowLines)
    return;
  scf::ForOp::create(b, loc, constIndex(b, loc, 0), plan.dynamicRowLines,
                     constIndex(b, loc, 1), ValueRange{},
                     [&](OpBuilder &lb, Location ll, Value line, ValueRange) {
                       SmallVector<Value> at(where);
                       at.back() = arith::MulIOp::create(
                           lb, ll, line, constIndex(lb, ll, plan.lineElements));
                       prefetch(lb, ll, plan.buffer, at, plan.locality);
                       scf::YieldOp::create(lb, ll);
                     });
  // The row's last line, where the row does not end on a line boundary.
  where.back() =
      arith::SubIOp::create(b, loc, plan.rowLength, constIndex(b, loc, 1));
  prefetch(b, loc, plan.buffer, where, plan.locality);
}

std::optional<RowPrefetch> lowering::planRowPrefetch(OpBuilder &b, Location loc,
                                                     const LoweringState &s,
                                                     Value init,
                                                     int64_t lanes) {
  int64_t last = s.rank - 1;
  if (last < 1 || !worthPrefetching(s, s.rank))
    return std::nullopt;
  auto type = cast<RankedTensorType>(s.op.getInput().getType());
  // The next row must be another one: not where the rows are a broadcast
  // (a dynamic size of 1 at run time prefetches the same row, clamped).
  if (s.inputUnitStatic[last - 1] == std::optional<bool>(true))
    return std::nullopt;
  int64_t elementBytes = packedElementBytes(type.getElementType());
  int64_t rowLength = cast<RankedTensorType>(init.getType()).getDimSize(last);
  int64_t inputRow = type.getDimSize(last);
  if (rowLength == 0 || inputRow == 0)
    return std::nullopt;
  if (ShapedType::isDynamic(rowLength) || ShapedType::isDynamic(inputRow)) {
    // The same plan at run time: lines per step = ceil(lanes * row bytes /
    // (row length * line bytes)), 0 where the rows are sparse (fewer reads
    // than lines) or empty. Sizes of real buffers keep these products far
    // from overflowing.
    RowPrefetch plan;
    plan.buffer = inputBuffer(b, loc, s);
    plan.inputRow = s.inputSize[last];
    plan.rowLength = tensor::DimOp::create(b, loc, init, last);
    plan.lineElements =
        std::max<int64_t>(1, s.target.cacheLineBytes / elementBytes);
    Value rowBytes = arith::MulIOp::create(b, loc, plan.inputRow,
                                           constIndex(b, loc, elementBytes));
    Value rowLengthBytes = arith::MulIOp::create(
        b, loc, plan.rowLength, constIndex(b, loc, s.target.cacheLineBytes));
    Value stepBytes =
        arith::MulIOp::create(b, loc, rowBytes, constIndex(b, loc, lanes));
    // This runs before the loops, also for an empty output row: divide by
    // at least 1.
    Value divisor =
        arith::MaxUIOp::create(b, loc, rowLengthBytes, constIndex(b, loc, 1));
    Value lines = arith::CeilDivUIOp::create(b, loc, stepBytes, divisor);
    Value dense = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::uge,
                                        rowLengthBytes, rowBytes);
    Value nonEmpty = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ugt,
                                           rowBytes, constIndex(b, loc, 0));
    plan.dynamicLinesPerStep = arith::SelectOp::create(
        b, loc, arith::AndIOp::create(b, loc, dense, nonEmpty), lines,
        constIndex(b, loc, 0));
    // The unrolled prefetches' spacing and the share's last line, in
    // elements (lines >= 1 where they are used).
    Value lineElements = constIndex(b, loc, plan.lineElements);
    plan.dynamicLineStride = arith::MulIOp::create(
        b, loc,
        arith::CeilDivUIOp::create(b, loc, lines,
                                   constIndex(b, loc, kUnrolledLines)),
        lineElements);
    plan.dynamicLastLine = arith::MulIOp::create(
        b, loc,
        arith::SubIOp::create(
            b, loc,
            arith::MaxUIOp::create(b, loc, lines, constIndex(b, loc, 1)),
            constIndex(b, loc, 1)),
        lineElements);
    return plan;
  }
  int64_t rowBytes;
  if (llvm::MulOverflow(inputRow, elementBytes, rowBytes))
    return std::nullopt;
  // Dense rows only: at least one read per line on average, so that the
  // whole row is worth fetching. (Sizes whose products below overflow are
  // far beyond any memory: no prefetch.)
  int64_t rowLengthBytes, stepBytes, scaledStep;
  if (llvm::MulOverflow(rowLength, s.target.cacheLineBytes, rowLengthBytes) ||
      llvm::MulOverflow(lanes, rowBytes, stepBytes) ||
      llvm::MulOverflow(rowLength, inputRow, scaledStep) ||
      rowLengthBytes < rowBytes)
    return std::nullopt;
  RowPrefetch plan;
  plan.buffer = inputBuffer(b, loc, s);
  plan.inputRow = constIndex(b, loc, inputRow);
  plan.lineElements =
      std::max<int64_t>(1, s.target.cacheLineBytes / elementBytes);
  plan.rowLength = constIndex(b, loc, rowLength);
  // Each step of `lanes` outputs covers its share of the next row's lines.
  int64_t bytesPerStep = stepBytes / rowLength + (stepBytes % rowLength != 0);
  plan.linesPerStep =
      (bytesPerStep + s.target.cacheLineBytes - 1) / s.target.cacheLineBytes;
  return plan;
}

void lowering::emitRowPrefetch(OpBuilder &b, Location loc,
                               const LoweringState &s, const RowPrefetch &plan,
                               ArrayRef<Value> inputPos, Value rowIv,
                               Value step, std::optional<int64_t> maxStep) {
  int64_t last = s.rank - 1;
  // The next row of this thread's loop, clamped to the last row.
  Value next = arith::AddIOp::create(b, loc, rowIv, constIndex(b, loc, 1));
  Value lastRow = arith::SubIOp::create(b, loc, s.inputSize[last - 1],
                                        constIndex(b, loc, 1));
  next = arith::MinUIOp::create(b, loc, next, lastRow);
  SmallVector<Value> where(inputPos.begin(), inputPos.end());
  where[last - 1] = next;
  // The lines of the next row in proportion to this step's place in the
  // output row: element (step * inputRow / rowLength) onwards.
  Value first = arith::DivUIOp::create(
      b, loc, arith::MulIOp::create(b, loc, step, plan.inputRow),
      plan.rowLength);
  Value lastElement =
      arith::SubIOp::create(b, loc, plan.inputRow, constIndex(b, loc, 1));
  auto prefetchLine = [&](OpBuilder &lb, Location ll, Value offset,
                          bool inRow = false) {
    Value column = arith::AddIOp::create(lb, ll, first, offset);
    where[last] =
        inRow ? column : arith::MinUIOp::create(lb, ll, column, lastElement);
    prefetch(lb, ll, plan.buffer, where);
  };
  if (!plan.dynamicLinesPerStep) {
    // Lines that the largest step keeps in the row need no clamp: on W3 of
    // bench/run.py a compare and a conditional move per line, where every
    // line of a full step is in the row.
    std::optional<int64_t> inputRow = getConstantIntValue(plan.inputRow);
    std::optional<int64_t> rowLength = getConstantIntValue(plan.rowLength);
    std::optional<int64_t> maxFirst;
    if (maxStep && inputRow && rowLength && *rowLength > 0)
      maxFirst = *maxStep * *inputRow / *rowLength;
    for (int64_t m = 0; m < plan.linesPerStep; ++m) {
      int64_t offset = m * plan.lineElements;
      prefetchLine(b, loc, constIndex(b, loc, offset),
                   maxFirst && *maxFirst + offset < *inputRow);
    }
    return;
  }
  // kUnrolledLines prefetches spread over the share, no loop: any loop
  // inside the vector step, even one of zero iterations, kept LLVM from
  // simplifying the step loop and cost W3 with a dynamic table size half
  // its time (4.3 against 2.3 ms). Shares of more lines are sampled;
  // sparse rows (no line) prefetch nothing.
  scf::IfOp::create(b, loc,
                    arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ugt,
                                          plan.dynamicLinesPerStep,
                                          constIndex(b, loc, 0)),
                    [&](OpBuilder &tb, Location tl) {
                      for (int64_t m = 0; m < kUnrolledLines; ++m) {
                        Value offset = arith::MinUIOp::create(
                            tb, tl,
                            arith::MulIOp::create(tb, tl, constIndex(tb, tl, m),
                                                  plan.dynamicLineStride),
                            plan.dynamicLastLine);
                        prefetchLine(tb, tl, offset);
                      }
                      scf::YieldOp::create(tb, tl);
                    });
}

std::optional<IndexPrefetch>
lowering::planIndexPrefetch(OpBuilder &b, Location loc, const LoweringState &s,
                            Value indices, int64_t positions) {
  auto type = cast<RankedTensorType>(s.op.getIndices().getType());
  Type elementType = type.getElementType();
  // Index values of type index are 64-bit on the CPU targets.
  int64_t indexBytes =
      elementType.isIndex() ? 8 : packedElementBytes(elementType);
  if (s.target.prefetchIndexStreams == IndexStreamPrefetch::None ||
      !indexBytes || !largerThanCachesKeep(s, type, indexBytes))
    return std::nullopt;
  int64_t lineBytes = s.target.cacheLineBytes;
  IndexPrefetch plan;
  plan.buffer = readOnlyBuffer(b, loc, indices);
  plan.lineElements = std::max<int64_t>(1, lineBytes / indexBytes);
  plan.linesPerStep =
      (positions * s.coordinateSize * indexBytes + lineBytes - 1) / lineBytes;
  // memref.prefetch's locality 2 is x86's prefetcht1, 3 its prefetcht0.
  plan.locality =
      s.target.prefetchIndexStreams == IndexStreamPrefetch::L2 ? 2 : 3;
  return plan;
}

// The index values of a row are one sequential stream, yet W3 and W8 of
// bench/run.py (8 and 16 KiB index rows) ran 5-10% faster with each step
// prefetching its index values of the next row, and W4 (16 MiB of
// indices, tiles of 8 blocks) 5-11% faster with each tile prefetching the
// index values that its block prefetch reads `distance` blocks later (an
// Intel AVX-512 server core, both vector widths; docs/Lowering.md,
// "Prefetched index rows"). The hardware's stream prefetchers, which stop
// at each 4 KiB page, are the likely reason.
std::optional<IndexPrefetch>
lowering::planIndexRowPrefetch(OpBuilder &b, Location loc,
                               const LoweringState &s, int64_t lanes) {
  int64_t last = s.rank - 1;
  // One indices row broadcast over the rows is the same row for all.
  if (last < 1 || s.indicesUnitStatic[last - 1] == std::optional<bool>(true))
    return std::nullopt;
  return planIndexPrefetch(b, loc, s, s.op.getIndices(), lanes);
}

void lowering::emitIndexRowPrefetch(OpBuilder &b, Location loc,
                                    const LoweringState &s,
                                    const IndexPrefetch &plan,
                                    ArrayRef<Value> indicesPos, Value rowIv,
                                    Value step,
                                    std::optional<int64_t> maxStep) {
  int64_t last = s.rank - 1;
  Value one = constIndex(b, loc, 1);
  // The next row, clamped to the indices' last one (a row broadcast at run
  // time prefetches itself), each position to the row's last value.
  SmallVector<Value> at(indicesPos.begin(), indicesPos.end());
  at[last - 1] = arith::MinUIOp::create(
      b, loc, arith::AddIOp::create(b, loc, rowIv, one),
      arith::SubIOp::create(b, loc, s.logicalIndicesSize[last - 1], one));
  Value perPosition = constIndex(b, loc, s.coordinateSize);
  Value first = arith::MulIOp::create(b, loc, step, perPosition);
  Value lastValue = arith::SubIOp::create(
      b, loc,
      arith::MulIOp::create(b, loc, s.logicalIndicesSize[last], perPosition),
      one);
  std::optional<int64_t> rowValues =
      getConstantIntValue(s.logicalIndicesSize[last]);
  for (int64_t m = 0; m < plan.linesPerStep; ++m) {
    int64_t offset = m * plan.lineElements;
    Value column =
        arith::AddIOp::create(b, loc, first, constIndex(b, loc, offset));
    // (No clamp where the largest step's line is in the row.)
    bool inRow =
        maxStep && rowValues &&
        *maxStep * s.coordinateSize + offset < *rowValues * s.coordinateSize;
    at[last] =
        inRow ? column : arith::MinUIOp::create(b, loc, column, lastValue);
    prefetch(b, loc, plan.buffer, at, plan.locality);
  }
}

void lowering::emitIndexStreamPrefetch(OpBuilder &b, Location loc,
                                       const IndexPrefetch &plan, Value first) {
  // Line m starts at value m * lineElements, inside the tile's values.
  for (int64_t m = 0; m < plan.linesPerStep; ++m)
    prefetch(b, loc, plan.buffer,
             arith::AddIOp::create(b, loc, first,
                                   constIndex(b, loc, m * plan.lineElements))
                 .getResult(),
             plan.locality);
}

std::optional<TablePrefetch>
lowering::planTablePrefetch(OpBuilder &b, Location loc, const LoweringState &s,
                            Value flatInput, ArrayRef<int64_t> order,
                            RankedTensorType outputType) {
  auto type = cast<RankedTensorType>(s.op.getInput().getType());
  int64_t last = s.rank - 1;
  // (The strides below need the static input.)
  if (last < 1 || !type.hasStaticShape() || !worthPrefetching(s, 0))
    return std::nullopt;
  // Row-major strides of the static input, and the largest row base: the
  // non-axis dimensions before the innermost at their last position.
  SmallVector<int64_t> strides(s.rank, 1);
  for (int64_t d = last - 1; d >= 0; --d)
    if (llvm::MulOverflow(strides[d + 1], type.getDimSize(d + 1), strides[d]))
      return std::nullopt;
  TablePrefetch plan;
  for (int64_t d = 0; d < last; ++d)
    if (!llvm::is_contained(s.axes, d))
      plan.maxRowBase += (type.getDimSize(d) - 1) * strides[d];
  // The loops inside the innermost one that moves along the input (and
  // the row) read the same input position: they make one iteration's reads.
  std::optional<InputLoop> loop = innermostInputLoop(s, order, outputType);
  if (!loop)
    return std::nullopt;
  plan.loopDim = loop->dim;
  // As many iterations ahead as keep prefetchLinesAhead lines in flight,
  // counting each read as a line of its own (the offsets of a table rarely
  // share lines), at least one.
  int64_t distance =
      std::max<int64_t>(1, s.target.prefetchLinesAhead() / loop->reads);
  if (llvm::MulOverflow(distance, strides[plan.loopDim], plan.aheadElements))
    return std::nullopt;
  plan.buffer = readOnlyBuffer(b, loc, flatInput);
  return plan;
}

Value lowering::emitTablePrefetchBase(OpBuilder &b, Location loc,
                                      const TablePrefetch &plan,
                                      Value rowBase) {
  // Past the end of its dimension the row base runs into the next row of
  // the dimension outside, which the loops read next where it is the next
  // loop out; clamped, it never leaves the input.
  Value ahead = arith::AddIOp::create(b, loc, rowBase,
                                      constIndex(b, loc, plan.aheadElements));
  return arith::MinUIOp::create(b, loc, ahead,
                                constIndex(b, loc, plan.maxRowBase));
}

void lowering::emitTablePrefetch(OpBuilder &b, Location loc,
                                 const TablePrefetch &plan, Value offset) {
  prefetch(b, loc, plan.buffer, offset);
}
