//===- VectorRows.cpp - element gathers vectorized along rows -------------===//
//
// Genuine element gathers (no trailing block to copy) run one output row per
// scf.forall iteration, V lanes at a time: index values read contiguously or
// gathered along the indices row, the policy in vector arithmetic, and the
// elements fetched with one vector.gather. Rows whose offsets come from a
// table resolved before the loops load one element per iteration instead.
//
//===----------------------------------------------------------------------===//

#include "LoweringState.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Dialect/Utils/StaticValueUtils.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"

using namespace mlir;
using namespace mlir::gather;
using namespace mlir::gather::lowering;
/// for 32-bit elements, capped at 16 lanes).
static int64_t lanesFor(unsigned bitWidth) {
  return std::min<int64_t>(16, std::max<int64_t>(4, 512 / bitWidth));
}

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
                                 Value rowBase, bool indicesVary) {
  int64_t last = s.rank - 1;
  Value zero = constIndex(b, loc, 0);
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
          hit = arith::CmpIOp::create(lb, ll, arith::CmpIPredicate::sge,
                                      offset, zero);
          offset = arith::SelectOp::create(lb, ll, hit, offset, zero);
        }
        offset = arith::AddIOp::create(lb, ll, offset, rowBase);
        // The innermost dimension as a non-axis: the element's own
        // coordinate, unless the input broadcasts it.
        if (!llvm::is_contained(s.axes, last) &&
            s.inputUnitStatic[last] != std::optional<bool>(true)) {
          Value own = j;
          if (s.inputUnit[last])
            own = arith::SelectOp::create(lb, ll, s.inputUnit[last], zero, j);
          offset = arith::AddIOp::create(lb, ll, offset, own);
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

/// One output row per iteration of an scf.forall over the outer dimensions;
/// along the row, V lanes at a time: index values are read with one masked
/// vector.transfer_read where they are contiguous (one axis) or a
/// vector.gather along the indices row (k interleaved coordinates), resolved
/// with vector arithmetic, and the elements fetched with one vector.gather:
/// along the input row when only the innermost input coordinate varies per
/// lane, else from the input collapsed to 1-D with linear offsets.
Value lowering::buildVectorRows(OpBuilder &b, Location loc,
                                const LoweringState &s, Value init,
                                bool useOffsetTable, bool prefetch) {
  MultiaxisOp op = s.op;
  int64_t rank = s.rank;
  int64_t last = rank - 1;
  int64_t k = s.coordinateSize;
  auto outputType = cast<RankedTensorType>(init.getType());
  Type elementType = outputType.getElementType();
  Type indexElementType =
      cast<RankedTensorType>(op.getIndices().getType()).getElementType();
  int64_t lanes = lanesFor(elementType.getIntOrFloatBitWidth());
  auto indexVecType = VectorType::get({lanes}, b.getIndexType());
  auto rawVecType = VectorType::get({lanes}, indexElementType);
  auto valueVecType = VectorType::get({lanes}, elementType);
  auto maskType = VectorType::get({lanes}, b.getI1Type());
  auto splat = [&](OpBuilder &vb, Location vl, Value scalar) -> Value {
    return vector::BroadcastOp::create(vb, vl, indexVecType, scalar);
  };

  SmallVector<OpFoldResult> upperBounds;
  for (int64_t d = 0; d < last; ++d)
    upperBounds.push_back(tensor::getMixedSize(b, loc, init, d));
  // Which coordinates vary with the lane (the innermost output coordinate).
  bool indicesVary = s.indicesUnitStatic[last] != std::optional<bool>(true);
  bool innermostIsAxis = llvm::is_contained(s.axes, last);
  bool onlyInnermostVaries =
      indicesVary && s.axes.size() == 1 && innermostIsAxis;
  // Linear offsets need the input as one dimension; collapse_shape is free
  // on the contiguous buffers gathers read (bufferization copies otherwise).
  Value flatInput;
  SmallVector<Value> inputStrides(rank);
  useOffsetTable = useOffsetTable && !onlyInnermostVaries;
  if (!onlyInnermostVaries) {
    flatInput = collapseToOneDimension(b, loc, op.getInput());
    inputStrides = rowMajorStrides(b, loc, s.inputSize);
  }
  // Indices reused by many rows: resolve each coordinate tuple once, into
  // its linear offset; the rows then read offsets contiguously.
  Value offsetTable;
  if (useOffsetTable)
    offsetTable = buildAxisOffsetTable(b, loc, s, inputStrides);

  SmallVector<int64_t> order = outerLoopOrder(s, last, elementType);
  bool outputOrder = llvm::equal(order, llvm::seq<int64_t>(last));
  // Rows read along the innermost input dimension fetch the next row
  // meanwhile (the row after in the output's order).
  std::optional<RowPrefetch> rowPrefetch;
  if (prefetch && onlyInnermostVaries && outputOrder)
    rowPrefetch = planRowPrefetch(b, loc, s, init, lanes);
  SmallVector<OpFoldResult> loopBounds;
  for (int64_t d : order)
    loopBounds.push_back(upperBounds[d]);
  auto forall = scf::ForallOp::create(b, loc, loopBounds, ValueRange{init},
                                      std::nullopt);
  OpBuilder::InsertionGuard guard(b);
  b.setInsertionPoint(forall.getTerminator());
  // Indexed by output dimension.
  SmallVector<Value> ivs(last);
  for (auto [loop, d] : llvm::enumerate(order))
    ivs[d] = forall.getInductionVars()[loop];
  Value rowLength = tensor::DimOp::create(b, loc, init, last);
  SmallVector<OpFoldResult> rowOffsets(ivs.begin(), ivs.end());
  rowOffsets.push_back(b.getIndexAttr(0));
  SmallVector<OpFoldResult> rowSizes(last, b.getIndexAttr(1));
  rowSizes.push_back(tensor::getMixedSize(b, loc, init, last));
  SmallVector<OpFoldResult> ones(rank, b.getIndexAttr(1));
  Value sharedOut = forall.getRegionIterArgs()[0];
  Value row = tensor::ExtractSliceOp::create(b, loc, sharedOut, rowOffsets,
                                             rowSizes, ones);

  Value zeroIndex = constIndex(b, loc, 0);
  SmallVector<Value> indicesPos, inputPos;
  for (int64_t d = 0; d < last; ++d) {
    indicesPos.push_back(broadcastCoord(b, loc, ivs[d], s.indicesUnitStatic[d],
                                        s.indicesUnit[d]));
    inputPos.push_back(
        broadcastCoord(b, loc, ivs[d], s.inputUnitStatic[d], s.inputUnit[d]));
  }
  indicesPos.push_back(zeroIndex);
  inputPos.push_back(zeroIndex);
  Value zeroVec = arith::ConstantOp::create(
      b, loc, indexVecType,
      DenseElementsAttr::get(indexVecType, b.getIndexAttr(0)));
  // With the offset table: the row's offset from the dimensions that are
  // not axes and not the innermost one, once per row.
  Value rowBase;
  if (offsetTable) {
    rowBase = zeroIndex;
    for (int64_t d = 0; d < last; ++d) {
      if (llvm::is_contained(s.axes, d))
        continue;
      rowBase = arith::AddIOp::create(
          b, loc, rowBase,
          arith::MulIOp::create(b, loc, inputPos[d], inputStrides[d]));
    }
    Value rowResult = buildOffsetTableRow(b, loc, s, row, rowLength,
                                          offsetTable, flatInput, indicesPos,
                                          rowBase, indicesVary);
    b.setInsertionPointToStart(forall.getTerminator().getBody());
    tensor::ParallelInsertSliceOp::create(b, loc, rowResult, sharedOut,
                                          rowOffsets, rowSizes, ones);
    return forall.getResult(0);
  }
  Value laneIds = vector::StepOp::create(b, loc, indexVecType);
  Value passThrough = arith::ConstantOp::create(
      b, loc, valueVecType,
      DenseElementsAttr::get(valueVecType, b.getZeroAttr(elementType)));
  Value rawPad = arith::ConstantOp::create(b, loc, indexElementType,
                                           b.getZeroAttr(indexElementType));
  auto minorMap = AffineMapAttr::get(
      AffineMap::getMinorIdentityMap(rank, 1, b.getContext()));
  ArrayAttr notInBounds = b.getBoolArrayAttr({false});
  ArrayAttr inBounds = b.getBoolArrayAttr({true});
  Value allLanes = arith::ConstantOp::create(
      b, loc, maskType, DenseElementsAttr::get(maskType, b.getBoolAttr(true)));

  // Under a check in the loops, the lanes that read an invalid index are
  // accumulated along the row and reported once after it.
  bool reports = s.errorFlag && !fillsInvalid(s);
  // Under `fill`, and under a check in the loops, lanes with an invalid
  // index are masked off the gather: they read nothing and take the zero
  // pass-through, so their index needs no select and one compare per
  // coordinate serves the read and the check.
  bool masksInvalid = fillsInvalid(s) || reports;
  SmallVector<Value> loopInits = {row};
  if (reports)
    loopInits.push_back(arith::ConstantOp::create(
        b, loc, maskType,
        DenseElementsAttr::get(maskType, b.getBoolAttr(false))));
  // A step's index values as `readSteps` reads them, where the indices
  // row may have one tuple at run time (its size is dynamic): then
  // `readFirst` repeats that tuple in every lane.
  auto readOrBroadcast =
      [&](OpBuilder &rb, Location rl,
          function_ref<Value(OpBuilder &, Location)> readSteps,
          function_ref<Value(OpBuilder &, Location)> readFirst) -> Value {
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
  };
  // One vector step at `j`: `full` when all its lanes are in the row (no
  // mask, reads and writes in bounds), else masked to the row's end.
  auto step = [&](OpBuilder &lb, Location ll, Value j, ValueRange iterArgs,
                  bool full) -> SmallVector<Value> {
    Value badLanes = reports ? iterArgs[1] : Value();
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
    // Interleaved coordinates (k > 1): the step's k * lanes index values
    // in one contiguous read, each coordinate taken out with a shuffle
    // (lane l of coordinate c is value l * k + c). A vector.gather per
    // coordinate read them element by element.
    Value interleaved;
    if (indicesVary && k > 1) {
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
        return vector::TransferReadOp::create(rb, rl, wideType, op.getIndices(),
                                              at, minorMap, rawPad, wideMask,
                                              transferBounds);
      };
      auto readTuple = [&](OpBuilder &tb, Location tl) -> Value {
        SmallVector<Value> at = indicesPos;
        at.back() = constIndex(tb, tl, 0);
        Value tuple = vector::TransferReadOp::create(
            tb, tl, VectorType::get({k}, indexElementType), op.getIndices(),
            at, minorMap, rawPad, Value(), inBounds);
        SmallVector<int64_t> repeated;
        for (int64_t l = 0; l < lanes * k; ++l)
          repeated.push_back(l % k);
        return vector::ShuffleOp::create(tb, tl, tuple, tuple, repeated);
      };
      interleaved = readOrBroadcast(lb, ll, readSteps, readTuple);
    }
    Value gatherMask = laneMask;
    Value values;
    SmallVector<Value> axisCoords(s.axes.size());
    for (auto [c, axis] : llvm::enumerate(s.axes)) {
      Value raw;
      if (!indicesVary) {
        // Every lane reads the same index value.
        SmallVector<Value> at = indicesPos;
        at.back() = constIndex(lb, ll, c);
        Value scalar =
            tensor::ExtractOp::create(lb, ll, op.getIndices(), at);
        raw = vector::BroadcastOp::create(lb, ll, rawVecType, scalar);
      } else if (k == 1) {
        // Contiguous index values.
        auto readRow = [&](OpBuilder &rb, Location rl) -> Value {
          SmallVector<Value> at = indicesPos;
          at.back() = j;
          return vector::TransferReadOp::create(
              rb, rl, rawVecType, op.getIndices(), at, minorMap, rawPad,
              mask, transferBounds);
        };
        auto readFirst = [&](OpBuilder &tb, Location tl) -> Value {
          SmallVector<Value> at = indicesPos;
          at.back() = constIndex(tb, tl, 0);
          Value scalar = tensor::ExtractOp::create(tb, tl, op.getIndices(), at);
          return vector::BroadcastOp::create(tb, tl, rawVecType, scalar);
        };
        raw = readOrBroadcast(lb, ll, readRow, readFirst);
      } else {
        SmallVector<int64_t> coordinateLanes;
        for (int64_t l = 0; l < lanes; ++l)
          coordinateLanes.push_back(l * k + static_cast<int64_t>(c));
        raw = vector::ShuffleOp::create(lb, ll, interleaved, interleaved,
                                        coordinateLanes);
      }
      Value index =
          indexElementType.isIndex()
              ? raw
              : arith::IndexCastOp::create(lb, ll, indexVecType, raw)
                    .getResult();
      ResolvedIndexValue resolved = buildResolvedIndex(
          lb, ll, s.policy, index, splat(lb, ll, s.inputSize[axis]),
          /*readIsMasked=*/masksInvalid);
      if (resolved.valid && masksInvalid)
        gatherMask = arith::AndIOp::create(lb, ll, gatherMask, resolved.valid);
      axisCoords[c] = resolved.index;
    }
    // The bad lanes are the row's lanes the checks took off the gather.
    if (reports && gatherMask != laneMask)
      badLanes = arith::OrIOp::create(
          lb, ll, badLanes,
          arith::XOrIOp::create(lb, ll, gatherMask, laneMask));
    if (onlyInnermostVaries) {
      values = vector::GatherOp::create(
          lb, ll, valueVecType, op.getInput(), inputPos,
          axisCoords.front(), gatherMask, passThrough, nullptr);
    } else {
      // Linear offset of each lane's input element.
      Value offsets = zeroVec;
      for (int64_t d = 0; d < rank; ++d) {
        Value coord;
        auto axisIt = llvm::find(s.axes, d);
        if (axisIt != s.axes.end()) {
          coord = axisCoords[axisIt - s.axes.begin()];
        } else if (d == last) {
          coord = s.inputUnitStatic[d] == std::optional<bool>(true)
                      ? zeroVec
                  : s.inputUnit[d]
                      ? arith::SelectOp::create(
                            lb, ll,
                            vector::BroadcastOp::create(lb, ll, maskType,
                                                        s.inputUnit[d]),
                            zeroVec, laneCoords)
                            .getResult()
                      : laneCoords;
        } else {
          coord = splat(lb, ll, inputPos[d]);
        }
        Value term = arith::MulIOp::create(
            lb, ll, coord, splat(lb, ll, inputStrides[d]));
        offsets = arith::AddIOp::create(lb, ll, offsets, term);
      }
      values = vector::GatherOp::create(lb, ll, valueVecType, flatInput,
                                        ValueRange{zeroIndex}, offsets,
                                        gatherMask, passThrough, nullptr);
    }
    SmallVector<Value> writeAt(last, zeroIndex);
    writeAt.push_back(j);
    Value updated = vector::TransferWriteOp::create(
                        lb, ll, values, iterArgs[0], writeAt, minorMap,
                        mask, transferBounds)
                        .getResult();
    SmallVector<Value> yields = {updated};
    if (reports)
      yields.push_back(badLanes);
    return yields;
  };
  // Full steps without masks, then the row's rest as one masked step: with
  // a dynamic row length a mask in every step kept the loop from being the
  // static one (W3 with a dynamic row length: 5.5 -> 1.9 ms on 2 threads).
  Value lanesValue = constIndex(b, loc, lanes);
  Value fullEnd = arith::SubIOp::create(
      b, loc, rowLength, arith::RemUIOp::create(b, loc, rowLength, lanesValue));
  SmallVector<Value> results =
      scf::ForOp::create(
          b, loc, zeroIndex, fullEnd, lanesValue, loopInits,
          [&](OpBuilder &lb, Location ll, Value j, ValueRange iterArgs) {
            scf::YieldOp::create(lb, ll, step(lb, ll, j, iterArgs, true));
          })
          .getResults();
  std::optional<int64_t> staticRowLength = getConstantIntValue(rowSizes.back());
  if (!staticRowLength || *staticRowLength % lanes != 0) {
    Value hasRest = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ult,
                                          fullEnd, rowLength);
    SmallVector<Value> fullResults = results;
    results = scf::IfOp::create(
                  b, loc, hasRest,
                  [&](OpBuilder &tb, Location tl) {
                    scf::YieldOp::create(
                        tb, tl, step(tb, tl, fullEnd, fullResults, false));
                  },
                  [&](OpBuilder &eb, Location el) {
                    scf::YieldOp::create(eb, el, fullResults);
                  })
                  ->getResults();
  }
  if (reports) {
    Value anyBad = vector::ReductionOp::create(
        b, loc, vector::CombiningKind::OR, results[1]);
    reportIfAnyInvalid(b, loc, s, anyBad);
  }
  b.setInsertionPointToStart(forall.getTerminator().getBody());
  tensor::ParallelInsertSliceOp::create(b, loc, results[0], sharedOut,
                                        rowOffsets, rowSizes, ones);
  return forall.getResult(0);
}