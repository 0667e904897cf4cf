//===- ScalarImplementation.cpp - any gather op, one element at a time ----===//
//
// The scalar semantics of all four ops on tensors or buffers, without the
// rewrite to gather.multiaxis (which needs reshapes that buffers with
// arbitrary layouts do not have): where each output coordinate reads its
// index values and its source element. The index policy is IndexPolicy's,
// the multiaxis coordinates are ElementComputation's. Used by the buffer
// lowering and by tiling's scalar implementation.
//
//===----------------------------------------------------------------------===//

#include "LoweringState.h"
#include "gather/Conversion/MultiaxisLowering/RuntimeErrors.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"

using namespace mlir;
using namespace mlir::gather;
using namespace mlir::gather::lowering;

namespace {
/// One index value an output element reads: its position in the indices
/// and the source dimension it addresses.
struct IndexRead {
  SmallVector<Value> position;
  int64_t sourceDim;
};
} // namespace

/// The source coordinate of a non-gathered dimension: the output coordinate,
/// or 0 where the source dimension is a broadcast 1.
static Value followOutput(OpBuilder &b, Location loc, Value source, int64_t dim,
                          Value outCoord, bool mayBroadcast) {
  auto type = cast<ShapedType>(source.getType());
  if (!mayBroadcast || (!type.isDynamicDim(dim) && type.getDimSize(dim) != 1))
    return outCoord;
  if (!type.isDynamicDim(dim))
    return constIndex(b, loc, 0);
  Value isUnit =
      arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq,
                            buildDimSize(b, loc, source, dim),
                            constIndex(b, loc, 1));
  return arith::SelectOp::create(b, loc, isUnit, constIndex(b, loc, 0),
                                 outCoord);
}

/// Source coordinates (with placeholders at the gathered dimensions) and
/// the index values that fill them, for block, elements and nd.
static void mapCoordinates(OpBuilder &b, Location loc, Operation *op,
                           ValueRange out, SmallVectorImpl<Value> &source,
                           SmallVectorImpl<IndexRead> &reads) {
  if (auto block = dyn_cast<BlockOp>(op)) {
    // data[out[:a], indices[out[a:a+q]], out[a+q:]]
    int64_t axis = block.getNormalizedAxis();
    int64_t q = cast<ShapedType>(block.getIndices().getType()).getRank();
    source.append(out.begin(), out.begin() + axis);
    source.push_back(Value());
    source.append(out.begin() + axis + q, out.end());
    reads.push_back({llvm::to_vector(out.slice(axis, q)), axis});
    return;
  }
  if (auto elements = dyn_cast<ElementsOp>(op)) {
    // data[out with out[a] = indices[out]]
    int64_t axis = elements.getNormalizedAxis();
    source.append(out.begin(), out.end());
    source[axis] = Value();
    reads.push_back({llvm::to_vector(out), axis});
    return;
  }
  auto nd = cast<NdOp>(op);
  // data[out[:b], indices[out[:q-1], j] for j < k, out[q-1:]]
  int64_t batchDims = nd.getBatchDims();
  auto indicesType = cast<ShapedType>(nd.getIndices().getType());
  int64_t q = indicesType.getRank();
  int64_t k = indicesType.getShape().back();
  for (int64_t d = 0; d < batchDims; ++d)
    source.push_back(
        followOutput(b, loc, nd.getData(), d, out[d], /*mayBroadcast=*/true));
  for (int64_t j = 0; j < k; ++j) {
    SmallVector<Value> position(out.begin(), out.begin() + (q - 1));
    position.push_back(constIndex(b, loc, j));
    reads.push_back({position, batchDims + j});
    source.push_back(Value());
  }
  source.append(out.begin() + (q - 1), out.end());
}

GatherElementValue mlir::gather::buildGatherElement(OpBuilder &b, Location loc,
                                                    Operation *gatherOp,
                                                    ValueRange coords) {
  auto op = cast<GatherOpInterface>(gatherOp);
  IndexPolicy policy = op.getIndexPolicy();
  Value source = op.getSource();
  auto sourceType = cast<ShapedType>(source.getType());
  Type elementType = sourceType.getElementType();

  SmallVector<Value> at;
  Value valid;
  if (auto multiaxis = dyn_cast<MultiaxisOp>(gatherOp)) {
    LoweringState s = prepareLowering(b, loc, multiaxis);
    InputCoords input = computeInputCoords(b, loc, s, coords);
    at = std::move(input.coords);
    valid = input.valid;
  } else {
    SmallVector<IndexRead> reads;
    mapCoordinates(b, loc, gatherOp, coords, at, reads);
    for (const IndexRead &read : reads) {
      Value raw = buildElementRead(b, loc, op.getIndices(), read.position);
      ResolvedIndexValue resolved = buildResolvedIndex(
          b, loc, policy, toIndex(b, loc, raw),
          buildDimSize(b, loc, source, read.sourceDim));
      valid = andValues(b, loc, valid, resolved.valid);
      at[read.sourceDim] = resolved.index;
    }
  }

  // An empty gathered dimension has no element 0 to read an invalid index
  // through (every index is invalid then).
  Value readable;
  for (int64_t dim : op.getGatheredDims()) {
    if (!sourceType.isDynamicDim(dim) && sourceType.getDimSize(dim) > 0)
      continue;
    readable = andValues(
        b, loc, readable,
        arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ne,
                              buildDimSize(b, loc, source, dim),
                              constIndex(b, loc, 0)));
  }
  Value zero = arith::ConstantOp::create(b, loc, elementType,
                                         b.getZeroAttr(elementType));
  Value element;
  if (!readable) {
    element = buildElementRead(b, loc, source, at);
  } else {
    element = scf::IfOp::create(
                  b, loc, readable,
                  [&](OpBuilder &tb, Location tl) {
                    scf::YieldOp::create(tb, tl,
                                         buildElementRead(tb, tl, source, at));
                  },
                  [&](OpBuilder &eb, Location el) {
                    scf::YieldOp::create(eb, el, zero);
                  })
                  .getResult(0);
    valid = andValues(b, loc, valid, readable);
  }

  GatherElementValue result{element, Value()};
  if (!valid)
    return result;
  if (policy.outOfBounds == OutOfBoundsMode::fill)
    result.value = arith::SelectOp::create(b, loc, valid, element, zero);
  else if (policy.canTrap())
    result.invalid = notValue(b, loc, valid);
  return result;
}

void mlir::gather::buildGatherElementStore(OpBuilder &b, Location loc,
                                           Operation *gatherOp,
                                           ValueRange coords,
                                           SymbolTableCollection *symbolTables) {
  auto op = cast<GatherOpInterface>(gatherOp);
  GatherElementValue element = buildGatherElement(b, loc, gatherOp, coords);
  memref::StoreOp::create(b, loc, element.value, op.getInit(), coords);
  if (!element.invalid)
    return;
  scf::IfOp::create(b, loc, element.invalid, [&](OpBuilder &tb, Location tl) {
    emitIndexOutOfBoundsReport(tb, tl, gatherOp, /*indicesToHost=*/nullptr,
                               symbolTables);
    scf::YieldOp::create(tb, tl);
  });
}

Value mlir::gather::buildAddressedDimSize(OpBuilder &b, Location loc,
                                          Operation *gatherOp,
                                          Value lastPosition) {
  auto op = cast<GatherOpInterface>(gatherOp);
  SmallVector<int64_t> dims = op.getGatheredDims();
  return buildSelectAddressed(
      b, loc, lastPosition, dims.size(),
      [&](int64_t c) { return buildDimSize(b, loc, op.getSource(), dims[c]); });
}

/// Under `error`, every index value must be valid also when the output is
/// empty and no element reads it (docs/GatherDialect.md): checked by a scan
/// over the indices, only taken when the output is empty.
static void buildEmptyOutputIndexCheck(OpBuilder &b, Location loc,
                                       Operation *gatherOp,
                                       SymbolTableCollection *symbolTables) {
  auto op = cast<GatherOpInterface>(gatherOp);
  IndexPolicy policy = op.getIndexPolicy();
  if (!policy.canTrap() || op.getGatheredDims().empty())
    return;
  auto outputType = cast<ShapedType>(op.getInit().getType());
  if (!llvm::is_contained(outputType.getShape(), 0) &&
      !llvm::is_contained(outputType.getShape(), ShapedType::kDynamic))
    return;
  Value empty;
  for (int64_t d = 0, e = outputType.getRank(); d < e; ++d) {
    Value isZero = arith::CmpIOp::create(
        b, loc, arith::CmpIPredicate::eq, buildDimSize(b, loc, op.getInit(), d),
        constIndex(b, loc, 0));
    empty = empty ? arith::OrIOp::create(b, loc, empty, isZero).getResult()
                  : isZero;
  }
  if (!empty)
    return;
  // The shared check function scans the indices.
  scf::IfOp::create(b, loc, empty, [&](OpBuilder &tb, Location tl) {
    emitIndexOutOfBoundsReport(tb, tl, gatherOp, /*indicesToHost=*/nullptr,
                               symbolTables, /*onlyIfInvalid=*/true);
    scf::YieldOp::create(tb, tl);
  });
}

void mlir::gather::buildUnderShapeChecks(
    OpBuilder &b, Location loc, Operation *gatherOp,
    llvm::function_ref<void(OpBuilder &, Location)> body,
    SymbolTableCollection *symbolTables) {
  SmallVector<RuntimeShapeCheck> checks =
      buildRuntimeShapeChecks(b, loc, gatherOp);
  Value shapesHold = allShapeChecksHold(b, loc, checks);
  if (!shapesHold) {
    body(b, loc);
    return;
  }
  scf::IfOp::create(
      b, loc, shapesHold,
      [&](OpBuilder &tb, Location tl) {
        body(tb, tl);
        scf::YieldOp::create(tb, tl);
      },
      [&](OpBuilder &eb, Location el) {
        reportFailedShapeCheck(eb, el, gatherOp, checks, symbolTables);
        scf::YieldOp::create(eb, el);
      });
}

LogicalResult mlir::gather::lowerBufferGather(RewriterBase &rewriter,
                                              Operation *gatherOp,
                                              SymbolTableCollection *symbolTables) {
  auto op = dyn_cast<GatherOpInterface>(gatherOp);
  if (!op || !isa<MemRefType>(op.getInit().getType()) ||
      failed(op.analyzeShapes(nullptr)))
    return failure();
  Location loc = gatherOp->getLoc();
  rewriter.setInsertionPoint(gatherOp);
  buildUnderShapeChecks(
      rewriter, loc, gatherOp,
      [&](OpBuilder &b, Location l) {
        buildEmptyOutputIndexCheck(b, l, gatherOp, symbolTables);
        Value init = op.getInit();
        int64_t rank = cast<MemRefType>(init.getType()).getRank();
        SmallVector<Value> sizes;
        for (int64_t d = 0; d < rank; ++d)
          sizes.push_back(buildDimSize(b, l, init, d));
        buildParallelOverShape(
            b, l, sizes, [&](OpBuilder &nb, Location nl, ValueRange ivs) {
              buildGatherElementStore(nb, nl, gatherOp, ivs, symbolTables);
            });
      },
      symbolTables);
  rewriter.eraseOp(gatherOp);
  return success();
}
