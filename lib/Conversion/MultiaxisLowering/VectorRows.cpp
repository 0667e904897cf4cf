//===- VectorRows.cpp - element gathers vectorized along rows -------------===//
//
// Part of the gather project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// Genuine element gathers (no trailing block to copy) run one output row per
// scf.forall iteration, V lanes at a time: index values read contiguously or
// gathered along the indices row, the policy in vector arithmetic, and the
// elements fetched with one vector.gather. Rows whose offsets come from a
// table resolved before the loops load one element per iteration instead.
//
//===----------------------------------------------------------------------===//

#include "VectorRows.h"
#include "IndexTables.h"
#include "LoopOrder.h"
#include "LoweringPlan.h"
#include "Prefetch.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Dialect/Utils/StaticValueUtils.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"

using namespace mlir;
using namespace mlir::gather;
using namespace mlir::gather::lowering;

/// Element gathers whose innermost output dimension is not a copied block
/// are vectorized along that dimension. i1 has no byte-addressed vector
/// form; other integers and floats do.
bool lowering::canVectorizeInnermost(const LoweringState &s, Type elementType) {
  if (s.rank < 2 || s.axes.empty() || !elementType.isIntOrFloat() ||
      elementType.getIntOrFloatBitWidth() < 8)
    return false;
  // An empty input has nothing to gather (and cannot be collapsed with a
  // dynamic size).
  auto inputType = cast<RankedTensorType>(s.op.getInput().getType());
  if (llvm::is_contained(inputType.getShape(), 0))
    return false;
  // A slice of a larger tensor (gather.elements with smaller indices, with
  // dynamic sizes always) bufferizes to a strided view. The gather along
  // input rows (a single axis, the innermost) addresses such a view where
  // the rows keep a unit stride: slices of unit innermost stride that keep
  // the rank. The linear-offset forms collapse the input to one dimension,
  // which a strided view cannot be without a copy.
  int64_t last = s.rank - 1;
  bool alongRows = s.indicesUnitStatic[last] != std::optional<bool>(true) &&
                   s.axes.size() == 1 && s.axes.front() == last;
  return slicesAllowed(s.op.getInput(), [&](tensor::ExtractSliceOp slice) {
    return alongRows && keepsUnitStrideRows(slice);
  });
}

/// A row whose elements' offsets come from the offset table: one scalar
/// load and store per element. On the CPU measured (AMD Zen 4) this beats
/// the gather instruction by 20% (bench/README.md, W5), and the backend
/// may still vectorize the loop where its cost model prefers gathers.
static Value buildOffsetTableRow(OpBuilder &b, Location loc,
                                 const LoweringState &s, Value row,
                                 Value rowLength, Value offsetTable,
                                 Value flatInput, ArrayRef<Value> indicesPos,
                                 Value rowBase, bool indicesVary,
                                 const std::optional<TablePrefetch> &prefetch) {
  int64_t last = s.rank - 1;
  Value zero = constIndex(b, loc, 0);
  // Each element also prefetches the one at its offset a few iterations
  // ahead: a row's reads are scattered over the input, out of the hardware
  // prefetchers' sight (W5 of bench/run.py: bench/README.md).
  Value aheadBase;
  if (prefetch)
    aheadBase = emitTablePrefetchBase(b, loc, *prefetch, rowBase);
  // Every element of the row at the same offset (the indices broadcast).
  Value sharedOffset;
  if (!indicesVary)
    sharedOffset = tensor::ExtractOp::create(b, loc, offsetTable, indicesPos);
  Type elementType = cast<RankedTensorType>(row.getType()).getElementType();
  auto loop = scf::ForOp::create(
      b, loc, zero, rowLength, constIndex(b, loc, 1), ValueRange{row},
      [&](OpBuilder &lb, Location ll, Value j, ValueRange iterArgs) {
        Value offset = sharedOffset;
        if (!offset) {
          SmallVector<Value> at(indicesPos);
          at.back() = j;
          offset = tensor::ExtractOp::create(lb, ll, offsetTable, at);
        }
        // The table holds -1 for a `fill` miss (and reported `error`
        // misses itself): read element 0, keep zero.
        Value hit;
        if (fillsInvalid(s)) {
          hit = arith::CmpIOp::create(lb, ll, arith::CmpIPredicate::sge, offset,
                                      zero);
          offset = arith::SelectOp::create(lb, ll, hit, offset, zero);
        }
        Value tableOffset = offset;
        offset = arith::AddIOp::create(lb, ll, tableOffset, rowBase);
        // The innermost dimension as a non-axis: the element's own
        // coordinate, unless the input broadcasts it.
        Value own;
        if (!llvm::is_contained(s.axes, last) &&
            s.inputUnitStatic[last] != std::optional<bool>(true)) {
          own = j;
          if (s.inputUnit[last])
            own = arith::SelectOp::create(lb, ll, s.inputUnit[last], zero, j);
          offset = arith::AddIOp::create(lb, ll, offset, own);
        }
        if (prefetch) {
          Value ahead = arith::AddIOp::create(lb, ll, tableOffset, aheadBase);
          if (own)
            ahead = arith::AddIOp::create(lb, ll, ahead, own);
          emitTablePrefetch(lb, ll, *prefetch, ahead);
        }
        Value element = tensor::ExtractOp::create(lb, ll, flatInput, offset);
        if (hit)
          element = arith::SelectOp::create(
              lb, ll, hit, element,
              arith::ConstantOp::create(lb, ll, lb.getZeroAttr(elementType)));
        SmallVector<Value> at(last, zero);
        at.push_back(j);
        scf::YieldOp::create(
            lb, ll,
            tensor::InsertOp::create(lb, ll, element, iterArgs[0], at)
                .getResult());
      });
  return loop.getResult(0);
}

/// The tile of offset-table rows along the innermost loop dimension that
/// moves along the input, where the indices broadcast along it and index
/// rows loop inside it (an NHWC lookup of (n, c) pairs: pixels, then index
/// rows): each index row then writes a run of the tile's output rows
/// instead of one row per pixel, while the tile's pixels stay in cache
/// for the next index row. W5 of bench/run.py (Zen 3, 2 threads, compiled
/// alternately with DLTI L1 sizes that give each tile): tiles of 8 pixels
/// 1.07-1.19x faster than one pixel at a time, tiles of 4 0.80-0.93x.
/// Tiles divide the dimension (static sizes); none below 2.
static void planOffsetTableTile(const LoweringState &s,
                                RankedTensorType outputType,
                                VectorRowsPlan &plan) {
  std::optional<InputLoop> loop = innermostInputLoop(s, plan.order, outputType);
  if (!loop || !loop->innerLoops ||
      s.indicesUnitStatic[loop->dim] != std::optional<bool>(true))
    return;
  // Each read counted as a line of its own.
  int64_t pixelBytes;
  if (llvm::MulOverflow(loop->reads, s.target.cacheLineBytes, pixelBytes))
    return;
  int64_t pixels = s.target.offsetTileFootprintBytes() / pixelBytes;
  int64_t size = outputType.getDimSize(loop->dim);
  int64_t rows = 1;
  while (2 * rows <= pixels && size % (2 * rows) == 0)
    rows *= 2;
  if (rows < 2)
    return;
  plan.tileDim = loop->dim;
  plan.tileRows = rows;
}

VectorRowsPlan lowering::planVectorRows(const LoweringState &s,
                                        RankedTensorType outputType,
                                        bool offsetTable, bool prefetch) {
  VectorRowsPlan plan;
  int64_t last = s.rank - 1;
  Type elementType = outputType.getElementType();
  plan.lanes = s.target.vectorRowLanes(elementType.getIntOrFloatBitWidth());
  plan.indicesVary = s.indicesUnitStatic[last] != std::optional<bool>(true);
  bool innermostIsAxis = llvm::is_contained(s.axes, last);
  plan.onlyInnermostVaries =
      plan.indicesVary && s.axes.size() == 1 && innermostIsAxis;
  // Along the input row the lanes' elements are one vector.gather from the
  // row: no offsets, so no offset table.
  plan.offsetTable = offsetTable && !plan.onlyInnermostVaries;
  plan.order = outerLoopOrder(s, last, elementType);
  // Rows read along the innermost input dimension fetch the next row
  // meanwhile (the row after in the output's order).
  plan.prefetchNextRow = prefetch && plan.onlyInnermostVaries &&
                         llvm::equal(plan.order, llvm::seq<int64_t>(last));
  plan.prefetchTable = prefetch && plan.offsetTable;
  if (plan.offsetTable)
    planOffsetTableTile(s, outputType, plan);
  plan.reports = s.errorFlag && !fillsInvalid(s);
  plan.masksInvalid = fillsInvalid(s) || plan.reports;
  plan.streamingStoreMinBytes = streamingStoreMinBytes(s, outputType);
  return plan;
}

namespace {
/// Emits the rows of one vector-rows gather: what is shared by the steps
/// of a row, computed once per row, and the steps.
class RowEmitter {
public:
  RowEmitter(const LoweringState &s, const VectorRowsPlan &plan,
             RankedTensorType outputType, OpBuilder &b)
      : s(s), plan(plan), rank(s.rank), last(s.rank - 1), k(s.coordinateSize),
        elementType(outputType.getElementType()),
        indexElementType(cast<RankedTensorType>(s.op.getIndices().getType())
                             .getElementType()),
        indexVecType(VectorType::get({plan.lanes}, b.getIndexType())),
        rawVecType(VectorType::get({plan.lanes}, indexElementType)),
        valueVecType(VectorType::get({plan.lanes}, elementType)),
        maskType(VectorType::get({plan.lanes}, b.getI1Type())),
        badLanesType(s.target.maskRegisters
                         ? maskType
                         : VectorType::get({plan.lanes}, b.getI64Type())) {}

  Value splat(OpBuilder &b, Location loc, Value scalar) const {
    return vector::BroadcastOp::create(b, loc, indexVecType, scalar);
  }

  /// The constants and positions the steps of a row share.
  void prepareSteps(OpBuilder &b, Location loc) {
    laneIds = vector::StepOp::create(b, loc, indexVecType);
    passThrough = arith::ConstantOp::create(
        b, loc, valueVecType,
        DenseElementsAttr::get(valueVecType, b.getZeroAttr(elementType)));
    rawPad = arith::ConstantOp::create(b, loc, indexElementType,
                                       b.getZeroAttr(indexElementType));
    minorMap = AffineMapAttr::get(
        AffineMap::getMinorIdentityMap(rank, 1, b.getContext()));
    notInBounds = b.getBoolArrayAttr({false});
    inBounds = b.getBoolArrayAttr({true});
    allLanes = arith::ConstantOp::create(
        b, loc, maskType,
        DenseElementsAttr::get(maskType, b.getBoolAttr(true)));
  }

  /// A step's index values as `readSteps` reads them, where the indices
  /// row may have one tuple at run time (its size is dynamic): then
  /// `readFirst` repeats that tuple in every lane.
  Value
  readOrBroadcast(OpBuilder &rb, Location rl,
                  function_ref<Value(OpBuilder &, Location)> readSteps,
                  function_ref<Value(OpBuilder &, Location)> readFirst) const {
    if (s.indicesUnitStatic[last])
      return readSteps(rb, rl);
    return scf::IfOp::create(
               rb, rl, s.indicesUnit[last],
               [&](OpBuilder &tb, Location tl) {
                 scf::YieldOp::create(tb, tl, readFirst(tb, tl));
               },
               [&](OpBuilder &eb, Location el) {
                 scf::YieldOp::create(eb, el, readSteps(eb, el));
               })
        .getResult(0);
  }

  /// Interleaved coordinates (k > 1): the step's k * lanes index values at
  /// `j` in one contiguous read, each coordinate later taken out with a
  /// shuffle (lane l of coordinate c is value l * k + c). A vector.gather
  /// per coordinate read them element by element.
  Value readInterleaved(OpBuilder &lb, Location ll, Value j, Value remaining,
                        ArrayAttr transferBounds) const {
    int64_t lanes = plan.lanes;
    auto wideType = VectorType::get({lanes * k}, indexElementType);
    auto readSteps = [&](OpBuilder &rb, Location rl) -> Value {
      SmallVector<Value> at = indicesPos;
      at.back() = arith::MulIOp::create(rb, rl, j, constIndex(rb, rl, k));
      Value wideMask;
      if (remaining)
        wideMask = vector::CreateMaskOp::create(
            rb, rl, VectorType::get({lanes * k}, rb.getI1Type()),
            ValueRange{arith::MulIOp::create(rb, rl, remaining,
                                             constIndex(rb, rl, k))});
      return vector::TransferReadOp::create(rb, rl, wideType, s.op.getIndices(),
                                            at, minorMap, rawPad, wideMask,
                                            transferBounds);
    };
    auto readTuple = [&](OpBuilder &tb, Location tl) -> Value {
      SmallVector<Value> at = indicesPos;
      at.back() = constIndex(tb, tl, 0);
      Value tuple = vector::TransferReadOp::create(
          tb, tl, VectorType::get({k}, indexElementType), s.op.getIndices(), at,
          minorMap, rawPad, Value(), inBounds);
      SmallVector<int64_t> repeated;
      for (int64_t l = 0; l < lanes * k; ++l)
        repeated.push_back(l % k);
      return vector::ShuffleOp::create(tb, tl, tuple, tuple, repeated);
    };
    return readOrBroadcast(lb, ll, readSteps, readTuple);
  }

  /// The raw index values of component `c` for the step's lanes at `j`.
  Value readComponent(OpBuilder &lb, Location ll, int64_t c, Value j,
                      Value mask, Value interleaved,
                      ArrayAttr transferBounds) const {
    if (!plan.indicesVary) {
      // Every lane reads the same index value.
      SmallVector<Value> at = indicesPos;
      at.back() = constIndex(lb, ll, c);
      Value scalar = tensor::ExtractOp::create(lb, ll, s.op.getIndices(), at);
      return vector::BroadcastOp::create(lb, ll, rawVecType, scalar);
    }
    if (k == 1) {
      // Contiguous index values.
      auto readRow = [&](OpBuilder &rb, Location rl) -> Value {
        SmallVector<Value> at = indicesPos;
        at.back() = j;
        return vector::TransferReadOp::create(rb, rl, rawVecType,
                                              s.op.getIndices(), at, minorMap,
                                              rawPad, mask, transferBounds);
      };
      auto readFirst = [&](OpBuilder &tb, Location tl) -> Value {
        SmallVector<Value> at = indicesPos;
        at.back() = constIndex(tb, tl, 0);
        Value scalar = tensor::ExtractOp::create(tb, tl, s.op.getIndices(), at);
        return vector::BroadcastOp::create(tb, tl, rawVecType, scalar);
      };
      return readOrBroadcast(lb, ll, readRow, readFirst);
    }
    SmallVector<int64_t> coordinateLanes;
    for (int64_t l = 0; l < plan.lanes; ++l)
      coordinateLanes.push_back(l * k + c);
    return vector::ShuffleOp::create(lb, ll, interleaved, interleaved,
                                     coordinateLanes);
  }

  /// The linear offset of each lane's input element in the flat input.
  Value laneOffsets(OpBuilder &lb, Location ll, ArrayRef<Value> axisCoords,
                    Value laneCoords) const {
    Value offsets = zeroVec;
    for (int64_t d = 0; d < rank; ++d) {
      Value coord;
      auto axisIt = llvm::find(s.axes, d);
      if (axisIt != s.axes.end()) {
        coord = axisCoords[axisIt - s.axes.begin()];
      } else if (d == last) {
        coord =
            s.inputUnitStatic[d] == std::optional<bool>(true) ? zeroVec
            : s.inputUnit[d]
                ? arith::SelectOp::create(lb, ll,
                                          vector::BroadcastOp::create(
                                              lb, ll, maskType, s.inputUnit[d]),
                                          zeroVec, laneCoords)
                      .getResult()
                : laneCoords;
      } else {
        coord = splat(lb, ll, inputPos[d]);
      }
      Value term =
          arith::MulIOp::create(lb, ll, coord, splat(lb, ll, inputStrides[d]));
      offsets = arith::AddIOp::create(lb, ll, offsets, term);
    }
    return offsets;
  }

  /// One vector step at `j`: `full` when all its lanes are in the row (no
  /// mask, reads and writes in bounds), else masked to the row's end.
  /// Yields the updated row (and the bad lanes so far, under a check).
  SmallVector<Value> step(OpBuilder &lb, Location ll, Value j,
                          ValueRange iterArgs, bool full) const {
    Value badLanes = plan.reports ? iterArgs[1] : Value();
    if (rowPrefetch)
      emitRowPrefetch(lb, ll, s, *rowPrefetch, inputPos, ivs[last - 1], j);
    // `mask` is null for a full step (the transfers take none);
    // `laneMask` is what the gathers take.
    Value mask, laneMask = allLanes, remaining;
    if (!full) {
      remaining = arith::SubIOp::create(lb, ll, rowLength, j);
      mask =
          vector::CreateMaskOp::create(lb, ll, maskType, ValueRange{remaining});
      laneMask = mask;
    }
    ArrayAttr transferBounds = full ? inBounds : notInBounds;
    // Output coordinates of the lanes along the row.
    Value laneCoords = arith::AddIOp::create(lb, ll, laneIds, splat(lb, ll, j));
    Value interleaved;
    if (plan.indicesVary && k > 1)
      interleaved = readInterleaved(lb, ll, j, remaining, transferBounds);
    Value gatherMask = laneMask;
    SmallVector<Value> axisCoords(s.axes.size());
    for (auto [c, axis] : llvm::enumerate(s.axes)) {
      Value raw =
          readComponent(lb, ll, c, j, mask, interleaved, transferBounds);
      Value index = indexElementType.isIndex()
                        ? raw
                        : arith::IndexCastOp::create(lb, ll, indexVecType, raw)
                              .getResult();
      // Lanes with an invalid index are masked off the gather (they read
      // offset 0, and take the zero pass-through under `fill`), so their
      // index needs no select and one compare per coordinate serves the
      // read and the check.
      ResolvedIndexValue resolved = buildResolvedIndex(
          lb, ll, s.policy, index, splat(lb, ll, s.inputSize[axis]),
          /*readIsMasked=*/plan.masksInvalid);
      if (resolved.valid && plan.masksInvalid)
        gatherMask = arith::AndIOp::create(lb, ll, gatherMask, resolved.valid);
      axisCoords[c] = resolved.index;
    }
    // The bad lanes are the row's lanes the checks took off the gather.
    if (plan.reports && gatherMask != laneMask) {
      Value bad = arith::XOrIOp::create(lb, ll, gatherMask, laneMask);
      if (badLanesType != maskType)
        bad = arith::ExtSIOp::create(lb, ll, badLanesType, bad);
      badLanes = arith::OrIOp::create(lb, ll, badLanes, bad);
    }
    // Lanes off the mask (past the row's end, or with an invalid index)
    // read offset 0 of the row or the input instead, so that the gather
    // itself takes no mask: LLVM turns a masked gather into a test and a
    // branch per lane wherever the target has no gather instruction it
    // deems fast (AVX2 on AMD, SSE). Lanes with an invalid index then take
    // the pass-through by a select; those past the row's end are not
    // written. Under `error` no select: a bad lane keeps what offset 0
    // holds, since no output is returned after an error (one blend fewer
    // per step, with the accumulation below what made W8's checks cheap).
    bool maskedLanes = gatherMask != allLanes;
    bool selectsInvalid = gatherMask != laneMask && !plan.reports;
    Value base = plan.onlyInnermostVaries ? s.op.getInput() : flatInput;
    SmallVector<Value> basePos = plan.onlyInnermostVaries
                                     ? SmallVector<Value>(inputPos)
                                     : SmallVector<Value>{zeroIndex};
    Value gatherAt = plan.onlyInnermostVaries
                         ? axisCoords.front()
                         : laneOffsets(lb, ll, axisCoords, laneCoords);
    if (maskedLanes)
      gatherAt = arith::SelectOp::create(lb, ll, gatherMask, gatherAt, zeroVec);
    // Offset 0 exists: the loops run only where no axis is empty
    // (buildNonEmptyAxesCheck), or under `unchecked`, where an empty axis
    // makes the row's own lanes read out of bounds already.
    Value values =
        vector::GatherOp::create(lb, ll, valueVecType, base, basePos, gatherAt,
                                 allLanes, passThrough, nullptr);
    if (selectsInvalid)
      values = arith::SelectOp::create(lb, ll, gatherMask, values, passThrough);
    SmallVector<Value> writeAt(last, zeroIndex);
    writeAt.push_back(j);
    Value updated =
        vector::TransferWriteOp::create(lb, ll, values, iterArgs[0], writeAt,
                                        minorMap, mask, transferBounds)
            .getResult();
    SmallVector<Value> yields = {updated};
    if (plan.reports)
      yields.push_back(badLanes);
    return yields;
  }

  const LoweringState &s;
  const VectorRowsPlan &plan;
  int64_t rank, last, k;
  Type elementType, indexElementType;
  VectorType indexVecType, rawVecType, valueVecType, maskType;
  /// The bad lanes carried along a row: the mask itself in mask registers,
  /// else the lanes of the index compares (64-bit), so that accumulating
  /// them is one OR per register, where an i1 vector was packed in every
  /// step (W8 of bench/run.py with AVX2: 71 instructions a step of 8 lanes,
  /// then 66, 56 unchecked; the check cost 7-12% of the `unchecked` time,
  /// then 1-7%).
  VectorType badLanesType;

  // Before the loops.
  Value flatInput;
  SmallVector<Value> inputStrides;
  std::optional<RowPrefetch> rowPrefetch;
  // Per row.
  SmallVector<Value> ivs, indicesPos, inputPos;
  Value rowLength, zeroIndex, zeroVec;
  // Per row, shared by its steps.
  Value laneIds, passThrough, rawPad, allLanes;
  AffineMapAttr minorMap;
  ArrayAttr notInBounds, inBounds;
};
} // namespace

/// One output row per iteration of an scf.forall over the outer dimensions;
/// along the row, V lanes at a time: index values are read with one masked
/// vector.transfer_read where they are contiguous (one axis) or a
/// vector.gather along the indices row (k interleaved coordinates), resolved
/// with vector arithmetic, and the elements fetched with one vector.gather:
/// along the input row when only the innermost input coordinate varies per
/// lane, else from the input collapsed to 1-D with linear offsets.
Value lowering::buildVectorRows(OpBuilder &b, Location loc,
                                const LoweringState &s, Value init,
                                const VectorRowsPlan &plan) {
  MultiaxisOp op = s.op;
  int64_t rank = s.rank;
  int64_t last = rank - 1;
  auto outputType = cast<RankedTensorType>(init.getType());
  RowEmitter rows(s, plan, outputType, b);

  SmallVector<OpFoldResult> upperBounds;
  for (int64_t d = 0; d < last; ++d)
    upperBounds.push_back(tensor::getMixedSize(b, loc, init, d));
  // Linear offsets need the input as one dimension; collapse_shape is free
  // on the contiguous buffers gathers read (bufferization copies otherwise).
  rows.inputStrides.resize(rank);
  if (!plan.onlyInnermostVaries) {
    rows.flatInput = collapseToOneDimension(b, loc, op.getInput());
    rows.inputStrides = rowMajorStrides(b, loc, s.inputSize);
  }
  // Indices reused by many rows: resolve each coordinate tuple once, into
  // its linear offset; the rows then read offsets contiguously.
  Value offsetTable;
  if (plan.offsetTable)
    offsetTable = buildAxisOffsetTable(b, loc, s, rows.inputStrides);
  if (plan.prefetchNextRow)
    rows.rowPrefetch = planRowPrefetch(b, loc, s, init, plan.lanes);
  std::optional<TablePrefetch> tablePrefetch;
  if (plan.prefetchTable)
    tablePrefetch =
        planTablePrefetch(b, loc, s, rows.flatInput, plan.order, outputType);
  bool tiled = offsetTable && plan.tileRows > 1;
  SmallVector<OpFoldResult> loopBounds;
  for (int64_t d : plan.order)
    loopBounds.push_back(
        tiled && d == plan.tileDim
            ? b.getIndexAttr(outputType.getDimSize(d) / plan.tileRows)
            : upperBounds[d]);
  auto forall =
      scf::ForallOp::create(b, loc, loopBounds, ValueRange{init}, std::nullopt);
  markStreamingStores(forall, plan.streamingStoreMinBytes);
  OpBuilder::InsertionGuard guard(b);
  b.setInsertionPoint(forall.getTerminator());
  // Indexed by output dimension (a tile's first position along tileDim).
  rows.ivs.resize(last);
  for (auto [loop, d] : llvm::enumerate(plan.order))
    rows.ivs[d] = forall.getInductionVars()[loop];
  if (tiled)
    rows.ivs[plan.tileDim] = arith::MulIOp::create(
        b, loc, rows.ivs[plan.tileDim], constIndex(b, loc, plan.tileRows));
  rows.rowLength = tensor::DimOp::create(b, loc, init, last);
  SmallVector<OpFoldResult> rowOffsets(rows.ivs.begin(), rows.ivs.end());
  rowOffsets.push_back(b.getIndexAttr(0));
  SmallVector<OpFoldResult> rowSizes(last, b.getIndexAttr(1));
  rowSizes.push_back(tensor::getMixedSize(b, loc, init, last));
  if (tiled)
    rowSizes[plan.tileDim] = b.getIndexAttr(plan.tileRows);
  SmallVector<OpFoldResult> ones(rank, b.getIndexAttr(1));
  Value sharedOut = forall.getRegionIterArgs()[0];
  Value row = tensor::ExtractSliceOp::create(b, loc, sharedOut, rowOffsets,
                                             rowSizes, ones);

  rows.zeroIndex = constIndex(b, loc, 0);
  for (int64_t d = 0; d < last; ++d) {
    rows.indicesPos.push_back(broadcastCoord(
        b, loc, rows.ivs[d], s.indicesUnitStatic[d], s.indicesUnit[d]));
    rows.inputPos.push_back(broadcastCoord(
        b, loc, rows.ivs[d], s.inputUnitStatic[d], s.inputUnit[d]));
  }
  rows.indicesPos.push_back(rows.zeroIndex);
  rows.inputPos.push_back(rows.zeroIndex);
  rows.zeroVec = arith::ConstantOp::create(
      b, loc, rows.indexVecType,
      DenseElementsAttr::get(rows.indexVecType, b.getIndexAttr(0)));
  if (offsetTable) {
    // The row's offset from the dimensions that are not axes and not the
    // innermost one, once per row.
    Value rowBase = rows.zeroIndex;
    for (int64_t d = 0; d < last; ++d) {
      if (llvm::is_contained(s.axes, d))
        continue;
      rowBase =
          arith::AddIOp::create(b, loc, rowBase,
                                arith::MulIOp::create(b, loc, rows.inputPos[d],
                                                      rows.inputStrides[d]));
    }
    Value rowResult;
    if (!tiled) {
      rowResult = buildOffsetTableRow(
          b, loc, s, row, rows.rowLength, offsetTable, rows.flatInput,
          rows.indicesPos, rowBase, plan.indicesVary, tablePrefetch);
    } else {
      // The tile's rows one after another, each at its own row base (the
      // indices broadcast along the tile: one table row serves them all).
      int64_t t = plan.tileDim;
      SmallVector<OpFoldResult> oneRow(last, b.getIndexAttr(1));
      oneRow.push_back(rowSizes.back());
      rowResult =
          scf::ForOp::create(
              b, loc, rows.zeroIndex, constIndex(b, loc, plan.tileRows),
              constIndex(b, loc, 1), ValueRange{row},
              [&](OpBuilder &lb, Location ll, Value x, ValueRange iterArgs) {
                SmallVector<OpFoldResult> at(rank, lb.getIndexAttr(0));
                at[t] = x;
                Value sub = tensor::ExtractSliceOp::create(lb, ll, iterArgs[0],
                                                           at, oneRow, ones);
                Value base = arith::AddIOp::create(
                    lb, ll, rowBase,
                    arith::MulIOp::create(lb, ll, x, rows.inputStrides[t]));
                Value result = buildOffsetTableRow(
                    lb, ll, s, sub, rows.rowLength, offsetTable, rows.flatInput,
                    rows.indicesPos, base, plan.indicesVary, tablePrefetch);
                scf::YieldOp::create(
                    lb, ll,
                    tensor::InsertSliceOp::create(lb, ll, result, iterArgs[0],
                                                  at, oneRow, ones)
                        .getResult());
              })
              .getResult(0);
    }
    b.setInsertionPointToStart(forall.getTerminator().getBody());
    tensor::ParallelInsertSliceOp::create(b, loc, rowResult, sharedOut,
                                          rowOffsets, rowSizes, ones);
    return forall.getResult(0);
  }
  rows.prepareSteps(b, loc);

  // Under a check in the loops, the lanes that read an invalid index are
  // accumulated along the row and reported once after it.
  SmallVector<Value> loopInits = {row};
  if (plan.reports)
    loopInits.push_back(arith::ConstantOp::create(
        b, loc, rows.badLanesType,
        DenseElementsAttr::get(
            rows.badLanesType,
            b.getZeroAttr(rows.badLanesType.getElementType()))));
  // Full steps without masks, then the row's rest as one masked step: with
  // a dynamic row length a mask in every step kept the loop from being the
  // static one (W3 with a dynamic row length: 5.5 -> 1.9 ms on 2 threads).
  Value lanesValue = constIndex(b, loc, plan.lanes);
  Value fullEnd = arith::SubIOp::create(
      b, loc, rows.rowLength,
      arith::RemUIOp::create(b, loc, rows.rowLength, lanesValue));
  SmallVector<Value> results =
      scf::ForOp::create(
          b, loc, rows.zeroIndex, fullEnd, lanesValue, loopInits,
          [&](OpBuilder &lb, Location ll, Value j, ValueRange iterArgs) {
            scf::YieldOp::create(lb, ll, rows.step(lb, ll, j, iterArgs, true));
          })
          .getResults();
  std::optional<int64_t> staticRowLength = getConstantIntValue(rowSizes.back());
  if (!staticRowLength || *staticRowLength % plan.lanes != 0) {
    Value hasRest = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ult,
                                          fullEnd, rows.rowLength);
    SmallVector<Value> fullResults = results;
    results = scf::IfOp::create(
                  b, loc, hasRest,
                  [&](OpBuilder &tb, Location tl) {
                    scf::YieldOp::create(
                        tb, tl, rows.step(tb, tl, fullEnd, fullResults, false));
                  },
                  [&](OpBuilder &eb, Location el) {
                    scf::YieldOp::create(eb, el, fullResults);
                  })
                  ->getResults();
  }
  if (plan.reports) {
    Value anyBad = vector::ReductionOp::create(
        b, loc, vector::CombiningKind::OR, results[1]);
    if (rows.badLanesType != rows.maskType)
      anyBad = arith::CmpIOp::create(
          b, loc, arith::CmpIPredicate::ne, anyBad,
          arith::ConstantOp::create(b, loc, b.getI64IntegerAttr(0)));
    reportIfAnyInvalid(b, loc, s, anyBad);
  }
  b.setInsertionPointToStart(forall.getTerminator().getBody());
  tensor::ParallelInsertSliceOp::create(b, loc, results[0], sharedOut,
                                        rowOffsets, rowSizes, ones);
  return forall.getResult(0);
}
