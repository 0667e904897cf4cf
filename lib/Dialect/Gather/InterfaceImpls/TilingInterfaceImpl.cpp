//===- TilingInterfaceImpl.cpp - tiling and fusion of gather ops ----------===//
//
// Part of the gather project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// The iteration domain of every gather op is its output, all loops parallel.
// A tile of the output reads a slice of the operands: the source and index
// dimensions that output dimensions follow are sliced with the tile (a
// broadcast size-1 dimension stays whole), the gathered source dimensions and
// the coordinate dimension of gather.nd stay whole, since any index value may
// address any position there. The tile is the same op on the slices, so the
// index policy, broadcasting and the checks of `error` are those of the
// untiled op: every index value an output element reads is still checked.
//
// Shape conditions that only the run time decides (dynamic broadcasts, the
// sizes of gather.elements, the init size) are those of the whole op. Each
// tile checks them on the whole operands before it slices them, so that a
// tile never slices out of bounds and a violation is reported as the untiled
// op would report it. A tile of an op whose output is empty does not exist,
// so such an op reads and checks no index value once tiled. An invalid index
// value is reported as the untiled op reports it, too: each tile carries the
// op's indices as written (`whole_indices`), which the report scans, unless
// an op that fusion may pull into the tiles computes them
// (getWholeIndicesForTiles).
//
//===----------------------------------------------------------------------===//

#include "gather/Dialect/Gather/InterfaceImpls/InterfaceImpls.h"

#include "gather/Dialect/Gather/IR/GatherDialect.h"
#include "gather/Dialect/Gather/IR/GatherOps.h"
#include "gather/Dialect/Gather/Utils/RuntimeChecks.h"
#include "gather/Dialect/Gather/Utils/Semantics.h"

#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Dialect/Utils/StaticValueUtils.h"
#include "mlir/Interfaces/TilingInterface.h"

using namespace mlir;
using namespace mlir::gather;

namespace {

/// The part of one operand dimension a tile reads.
struct DimSlice {
  OpFoldResult offset, size;
};

/// Whole dimensions of `operand`.
SmallVector<DimSlice> wholeSlices(OpBuilder &b, Location loc, Value operand) {
  SmallVector<DimSlice> slices;
  for (OpFoldResult size : tensor::getMixedSizes(b, loc, operand))
    slices.push_back({b.getIndexAttr(0), size});
  return slices;
}

/// The slice of dimension `dim` of `operand` that output tile
/// [offset, offset + size) of a dimension following it reads, where the
/// operand holds `valuesPerElement` values per output element along `dim`.
/// With `mayBroadcast`, an operand dimension of logical size 1 is a
/// broadcast and read whole.
DimSlice sliceFollowingOutput(OpBuilder &b, Location loc, Value operand,
                              int64_t dim, int64_t valuesPerElement,
                              OpFoldResult offset, OpFoldResult size,
                              int64_t outputSize, bool mayBroadcast) {
  AffineExpr d0 = b.getAffineDimExpr(0);
  DimSlice scaled{affine::makeComposedFoldedAffineApply(
                      b, loc, d0 * valuesPerElement, {offset}),
                  affine::makeComposedFoldedAffineApply(
                      b, loc, d0 * valuesPerElement, {size})};
  int64_t operandSize = cast<ShapedType>(operand.getType()).getDimSize(dim);
  if (!mayBroadcast || outputSize == 1)
    return scaled;
  DimSlice whole{b.getIndexAttr(0), b.getIndexAttr(valuesPerElement)};
  if (!ShapedType::isDynamic(operandSize))
    return operandSize == valuesPerElement ? whole : scaled;
  // Only the run time knows whether this side is the broadcast one.
  Value isBroadcast = arith::CmpIOp::create(
      b, loc, arith::CmpIPredicate::eq, buildDimSize(b, loc, operand, dim),
      arith::ConstantIndexOp::create(b, loc, valuesPerElement));
  auto choose = [&](OpFoldResult ifBroadcast, OpFoldResult otherwise) {
    return OpFoldResult(arith::SelectOp::create(
        b, loc, isBroadcast,
        getValueOrCreateConstantIndexOp(b, loc, ifBroadcast),
        getValueOrCreateConstantIndexOp(b, loc, otherwise)));
  };
  return {choose(whole.offset, scaled.offset), choose(whole.size, scaled.size)};
}

/// The operand slices that output tile (offsets, sizes) of `op` reads.
struct OperandSlices {
  SmallVector<DimSlice> source, indices;
};
FailureOr<OperandSlices> computeOperandSlices(OpBuilder &b, Location loc,
                                              GatherOpInterface op,
                                              ArrayRef<OpFoldResult> offsets,
                                              ArrayRef<OpFoldResult> sizes) {
  FailureOr<GatherShape> shape = op.analyzeShapes(nullptr);
  if (failed(shape))
    return failure();
  Value source = op.getSource(), indices = op.getIndices();
  OperandSlices slices{wholeSlices(b, loc, source),
                       wholeSlices(b, loc, indices)};
  for (auto [dim, src] : llvm::enumerate(shape->dimSources)) {
    // Broadcasting exists only where both operands give the dimension.
    bool mayBroadcast = src.dataDim && src.indicesDim;
    int64_t outputSize = shape->outputShape[dim];
    if (src.dataDim)
      slices.source[*src.dataDim] =
          sliceFollowingOutput(b, loc, source, *src.dataDim, 1, offsets[dim],
                               sizes[dim], outputSize, mayBroadcast);
    if (src.indicesDim)
      slices.indices[*src.indicesDim] = sliceFollowingOutput(
          b, loc, indices, *src.indicesDim, src.indicesDivisor, offsets[dim],
          sizes[dim], outputSize, mayBroadcast);
  }
  // gather.elements: the data dimensions off the axis follow the output (the
  // indices give the output shape; the data may be larger there).
  if (auto elements = dyn_cast<ElementsOp>(op.getOperation())) {
    int64_t axis = elements.getNormalizedAxis();
    for (int64_t dim = 0, e = offsets.size(); dim < e; ++dim)
      if (dim != axis)
        slices.source[dim] = {offsets[dim], sizes[dim]};
  }
  return slices;
}

Value extractSlice(OpBuilder &b, Location loc, Value tensor,
                   ArrayRef<DimSlice> slices) {
  SmallVector<OpFoldResult> offsets, sizes;
  for (const DimSlice &slice : slices) {
    offsets.push_back(slice.offset);
    sizes.push_back(slice.size);
  }
  // A tensor with a static empty dimension has no element to read, and
  // tensor.extract_slice rejects even offset 0 there: any tensor of the
  // slice's sizes will do.
  auto type = cast<RankedTensorType>(tensor.getType());
  if (llvm::is_contained(type.getShape(), 0))
    return tensor::EmptyOp::create(b, loc, sizes, type.getElementType());
  SmallVector<OpFoldResult> strides(slices.size(), b.getIndexAttr(1));
  return tensor::ExtractSliceOp::create(b, loc, tensor, offsets, sizes,
                                        strides);
}

/// The indices as written of `op` (what its error report names positions
/// in): its own unless the canonical rewrites reshaped them (gather.origin);
/// then the value they reshaped, found back through the reshapes (which
/// keep row-major positions), or null where it is not found (constants
/// folded into another shape, whose values the verifier has checked).
Value findWrittenIndices(GatherOpInterface op) {
  Operation *gatherOp = op.getOperation();
  OriginAttr origin = gatherOp->getContext()
                          ->getLoadedDialect<GatherDialect>()
                          ->getOriginAttrHelper()
                          .getAttr(gatherOp);
  if (!origin)
    return op.getIndices();
  ArrayRef<int64_t> written = origin.getIndices();
  auto isWritten = [&](Value value) {
    auto type = dyn_cast<RankedTensorType>(value.getType());
    if (!type || type.getRank() != static_cast<int64_t>(written.size()))
      return false;
    for (auto [have, want] : llvm::zip_equal(type.getShape(), written))
      if (!ShapedType::isDynamic(have) && !ShapedType::isDynamic(want) &&
          have != want)
        return false;
    return true;
  };
  for (Value value = op.getIndices();;) {
    if (isWritten(value))
      return value;
    Operation *def = value.getDefiningOp();
    if (!isa_and_nonnull<tensor::CollapseShapeOp, tensor::ExpandShapeOp,
                         tensor::CastOp>(def))
      return Value();
    value = def->getOperand(0);
  }
}

} // namespace

/// A tile's `whole_indices`: the untiled op's indices as written, so that
/// its report names the position the untiled op would, whichever tile
/// meets an invalid value first. None where nothing is reported (a policy
/// that never traps, no gathered dimension), and none for indices that an
/// op with a TilingInterface computes, unless the caller keeps that
/// producer whole: fusion may pull it into the loop, and the report's use
/// of the whole would then keep the whole computation in the loop (upstream
/// fuse_into_containing_op clones it in for that use, and crashes where the
/// tile sits in the shape checks' scf.if). Such a tile reports positions in
/// its own slice.
Value mlir::gather::getWholeIndicesForTiles(Operation *gatherOp,
                                            bool producerStaysWhole) {
  auto op = cast<GatherOpInterface>(gatherOp);
  if (Value whole = op.getWholeIndices())
    return whole;
  if (!checksIndicesAtRunTime(gatherOp))
    return Value();
  Value written = findWrittenIndices(op);
  if (written && !producerStaysWhole &&
      isa_and_nonnull<TilingInterface>(written.getDefiningOp()))
    return Value();
  return written;
}

namespace {

/// The tile of `gatherOp` at output tile (offsets, sizes): the same op on
/// operand slices, writing into the slice of its init.
FailureOr<TilingResult> tileGather(OpBuilder &b, Operation *gatherOp,
                                   ArrayRef<OpFoldResult> offsets,
                                   ArrayRef<OpFoldResult> sizes) {
  auto op = cast<GatherOpInterface>(gatherOp);
  Value init = op.getInit();
  if (!isa<RankedTensorType>(init.getType()))
    return failure();
  Location loc = gatherOp->getLoc();
  int64_t rank = offsets.size();
  SmallVector<DimSlice> initSlices;
  for (int64_t d = 0; d < rank; ++d)
    initSlices.push_back({offsets[d], sizes[d]});
  Value initTile = extractSlice(b, loc, init, initSlices);

  // The tile, on slices that are in bounds when the whole op's shape
  // conditions hold.
  // The slices further producers can fuse through (not the empty tensors
  // that stand for slices of empty operands).
  SmallVector<Operation *> generatedSlices;
  auto recordSlice = [&](Value tile) {
    if (auto slice = tile.getDefiningOp<tensor::ExtractSliceOp>())
      generatedSlices.push_back(slice);
  };
  recordSlice(initTile);
  auto buildTile = [&](OpBuilder &tb) -> FailureOr<Operation *> {
    FailureOr<OperandSlices> slices =
        computeOperandSlices(tb, loc, op, offsets, sizes);
    if (failed(slices))
      return failure();
    Value sourceTile = extractSlice(tb, loc, op.getSource(), slices->source);
    Value indicesTile = extractSlice(tb, loc, op.getIndices(), slices->indices);
    recordSlice(sourceTile);
    recordSlice(indicesTile);
    SmallVector<Value> operands{sourceTile, indicesTile};
    if (Value whole = getWholeIndicesForTiles(gatherOp,
                                              /*producerStaysWhole=*/false))
      operands.push_back(whole);
    operands.push_back(initTile);
    return mlir::clone(tb, gatherOp, {initTile.getType()}, operands);
  };

  SmallVector<RuntimeShapeCheck> checks =
      buildRuntimeShapeChecks(b, loc, gatherOp);
  if (checks.empty()) {
    FailureOr<Operation *> tiled = buildTile(b);
    if (failed(tiled))
      return failure();
    return TilingResult{
        {*tiled}, SmallVector<Value>((*tiled)->getResults()), generatedSlices};
  }
  Value shapesHold = allShapeChecksHold(b, loc, checks);
  Operation *tiled = nullptr;
  auto ifOp = scf::IfOp::create(
      b, loc, shapesHold,
      [&](OpBuilder &tb, Location tl) {
        FailureOr<Operation *> built = buildTile(tb);
        if (succeeded(built))
          tiled = *built;
        scf::YieldOp::create(tb, tl, tiled ? tiled->getResult(0) : initTile);
      },
      [&](OpBuilder &eb, Location el) {
        buildShapeCheckReports(eb, el, gatherOp, checks);
        scf::YieldOp::create(eb, el, initTile);
      });
  if (!tiled) {
    ifOp->erase();
    return failure();
  }
  return TilingResult{
      {tiled}, SmallVector<Value>(ifOp->getResults()), generatedSlices};
}

template <typename OpTy>
struct GatherTilingModel
    : public TilingInterface::ExternalModel<GatherTilingModel<OpTy>, OpTy> {
  SmallVector<utils::IteratorType> getLoopIteratorTypes(Operation *op) const {
    int64_t rank = cast<OpTy>(op).getOutputType().getRank();
    return SmallVector<utils::IteratorType>(rank,
                                            utils::IteratorType::parallel);
  }

  /// The init's sizes: with destination-passing style the destination
  /// decides the shape of the loops that fill it.
  SmallVector<Range> getIterationDomain(Operation *op, OpBuilder &b) const {
    Value init = cast<OpTy>(op).getInit();
    Location loc = op->getLoc();
    SmallVector<Range> domain;
    int64_t rank = cast<ShapedType>(init.getType()).getRank();
    for (int64_t d = 0; d < rank; ++d) {
      OpFoldResult size = isa<RankedTensorType>(init.getType())
                              ? tensor::getMixedSize(b, loc, init, d)
                              : memref::getMixedSize(b, loc, init, d);
      domain.push_back({b.getIndexAttr(0), size, b.getIndexAttr(1)});
    }
    return domain;
  }

  FailureOr<TilingResult>
  getTiledImplementation(Operation *op, OpBuilder &b,
                         ArrayRef<OpFoldResult> offsets,
                         ArrayRef<OpFoldResult> sizes) const {
    return tileGather(b, op, offsets, sizes);
  }

  /// The iteration domain is the output: a tile is its own result tile.
  LogicalResult
  getResultTilePosition(Operation *op, OpBuilder &b, unsigned resultNumber,
                        ArrayRef<OpFoldResult> offsets,
                        ArrayRef<OpFoldResult> sizes,
                        SmallVector<OpFoldResult> &resultOffsets,
                        SmallVector<OpFoldResult> &resultSizes) const {
    resultOffsets.assign(offsets.begin(), offsets.end());
    resultSizes.assign(sizes.begin(), sizes.end());
    return success();
  }

  LogicalResult getIterationDomainTileFromResultTile(
      Operation *op, OpBuilder &b, unsigned resultNumber,
      ArrayRef<OpFoldResult> offsets, ArrayRef<OpFoldResult> sizes,
      SmallVectorImpl<OpFoldResult> &iterDomainOffsets,
      SmallVectorImpl<OpFoldResult> &iterDomainSizes) const {
    iterDomainOffsets.assign(offsets.begin(), offsets.end());
    iterDomainSizes.assign(sizes.begin(), sizes.end());
    return success();
  }

  /// Fusion as a producer: the consumer's slice of the result is a tile.
  FailureOr<TilingResult>
  generateResultTileValue(Operation *op, OpBuilder &b, unsigned resultNumber,
                          ArrayRef<OpFoldResult> offsets,
                          ArrayRef<OpFoldResult> sizes) const {
    return tileGather(b, op, offsets, sizes);
  }

  /// One output element on buffers, with the lowerings' scalar semantics.
  /// The shape conditions are checked with every element: this form is for
  /// lowering to plain loops, not for speed.
  LogicalResult generateScalarImplementation(Operation *op, OpBuilder &b,
                                             Location loc,
                                             ValueRange ivs) const {
    if (!isa<MemRefType>(cast<OpTy>(op).getInit().getType()))
      return failure();
    buildUnderShapeChecks(b, loc, op, [&](OpBuilder &tb, Location tl) {
      buildGatherElementStore(tb, tl, op, ivs);
    });
    return success();
  }
};

} // namespace

void mlir::gather::registerTilingInterfaceExternalModels(
    DialectRegistry &registry) {
  registry.addExtension(+[](MLIRContext *ctx, GatherDialect *) {
    ctx->loadDialect<affine::AffineDialect, arith::ArithDialect,
                     memref::MemRefDialect, scf::SCFDialect,
                     tensor::TensorDialect>();
    MultiaxisOp::attachInterface<GatherTilingModel<MultiaxisOp>>(*ctx);
    BlockOp::attachInterface<GatherTilingModel<BlockOp>>(*ctx);
    ElementsOp::attachInterface<GatherTilingModel<ElementsOp>>(*ctx);
    NdOp::attachInterface<GatherTilingModel<NdOp>>(*ctx);
  });
}
