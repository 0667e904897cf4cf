//===- RuntimeChecks.cpp - the rules only the run time decides ------------===//
//
// Part of the gather project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "gather/Dialect/Gather/Utils/RuntimeChecks.h"
#include "gather/Dialect/Gather/IR/GatherOps.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Arith/Utils/Utils.h"
#include "mlir/Dialect/Bufferization/IR/Bufferization.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Dialect/Utils/StaticValueUtils.h"

using namespace mlir;
using namespace mlir::gather;

static Value constIndex(OpBuilder &b, Location loc, int64_t v) {
  return arith::ConstantIndexOp::create(b, loc, v);
}

/// Size `d` of `shaped` as the op that made it gives it, without building
/// anything: a constant where static, else a tensor.empty's or a
/// rank-keeping tensor.extract_slice's size; null otherwise.
static OpFoldResult madeSize(Value shaped, int64_t d) {
  auto type = cast<ShapedType>(shaped.getType());
  if (!type.isDynamicDim(d))
    return IntegerAttr::get(IndexType::get(shaped.getContext()),
                            type.getDimSize(d));
  Operation *def = shaped.getDefiningOp();
  if (auto empty = dyn_cast_or_null<tensor::EmptyOp>(def))
    return empty.getMixedSizes()[d];
  if (auto slice = dyn_cast_or_null<tensor::ExtractSliceOp>(def);
      slice && slice.getType().getRank() == type.getRank())
    return slice.getMixedSizes()[d];
  return OpFoldResult();
}

/// What a size is made of: through tensor.dim of a constant dimension (in
/// range, of a ranked tensor), madeSize, recursively; otherwise the size
/// itself.
static OpFoldResult sizeSource(OpFoldResult size) {
  for (int steps = 0; steps < 8; ++steps) {
    auto dim = dyn_cast_if_present<Value>(size)
                   ? cast<Value>(size).getDefiningOp<tensor::DimOp>()
                   : tensor::DimOp();
    std::optional<int64_t> index = dim ? dim.getConstantIndex() : std::nullopt;
    auto type = dim ? dyn_cast<RankedTensorType>(dim.getSource().getType())
                    : RankedTensorType();
    if (!index || !type || *index < 0 || *index >= type.getRank())
      return size;
    OpFoldResult made = madeSize(dim.getSource(), *index);
    if (!made)
      return size;
    size = made;
  }
  return size;
}

/// Whether two sizes are equal by construction: the same constant, the
/// same value, or the same dimension of the same tensor, after sizeSource.
/// (Not through ValueBoundsOpInterface: its tensor.dim model crashes on a
/// constant dimension out of range, which the fuzzer writes.)
static bool sameSize(OpFoldResult a, OpFoldResult b) {
  if (!a || !b)
    return false;
  a = sizeSource(a);
  b = sizeSource(b);
  if (isEqualConstantIntOrValue(a, b))
    return true;
  auto dimA = dyn_cast<Value>(a) ? cast<Value>(a).getDefiningOp<tensor::DimOp>()
                                 : tensor::DimOp();
  auto dimB = dyn_cast<Value>(b) ? cast<Value>(b).getDefiningOp<tensor::DimOp>()
                                 : tensor::DimOp();
  return dimA && dimB && dimA.getSource() == dimB.getSource() &&
         dimA.getConstantIndex() &&
         dimA.getConstantIndex() == dimB.getConstantIndex();
}

SmallVector<RuntimeShapeCheck>
mlir::gather::buildRuntimeShapeChecks(OpBuilder &b, Location loc,
                                      Operation *gatherOp) {
  auto op = cast<GatherOpInterface>(gatherOp);
  SmallVector<RuntimeShapeCheck> checks;
  FailureOr<GatherShape> shape = op.analyzeShapes(nullptr);
  if (failed(shape))
    return checks;
  Value source = op.getSource(), indices = op.getIndices();
  auto sourceType = cast<ShapedType>(source.getType());
  auto indicesType = cast<ShapedType>(indices.getType());
  auto add = [&](RuntimeErrorKind kind, int64_t dim, Value lhs, Value rhs,
                 Value holds) {
    checks.push_back({holds, kind, dim, lhs, rhs});
  };
  for (const OutputDimSource &src : shape->dimSources) {
    if (!src.dataDim || !src.indicesDim)
      continue;
    int64_t staticIn = sourceType.getDimSize(*src.dataDim);
    int64_t staticIdx = getLogicalIndicesSize(
        indicesType.getDimSize(*src.indicesDim), src.indicesDivisor);
    // Verified statically, or a static 1 that broadcasts to anything.
    if ((!ShapedType::isDynamic(staticIn) &&
         !ShapedType::isDynamic(staticIdx)) ||
        staticIn == 1 || staticIdx == 1)
      continue;
    Value in = buildDimSize(b, loc, source, *src.dataDim);
    Value idx = buildLogicalIndicesSize(b, loc, indices, *src.indicesDim,
                                        src.indicesDivisor);
    add(RuntimeErrorKind::ShapeMismatch, *src.dataDim, in, idx,
        buildBroadcastCompatible(b, loc, in, idx));
  }
  if (auto multiaxis = dyn_cast<MultiaxisOp>(gatherOp)) {
    int64_t rank = indicesType.getRank();
    int64_t k = multiaxis.getCoordinateSize();
    if (rank > 0 && k > 1 && indicesType.isDynamicDim(rank - 1)) {
      Value last = buildDimSize(b, loc, indices, rank - 1);
      Value rem = arith::RemUIOp::create(b, loc, last, constIndex(b, loc, k));
      add(RuntimeErrorKind::IndicesNotWholeCoordinates, rank - 1, last,
          constIndex(b, loc, k),
          arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq, rem,
                                constIndex(b, loc, 0)));
    }
  }
  if (auto elements = dyn_cast<ElementsOp>(gatherOp)) {
    for (int64_t d : getRuntimeBoundedDims(elements)) {
      Value dataSize = buildDimSize(b, loc, source, d);
      Value indicesSize = buildDimSize(b, loc, indices, d);
      add(RuntimeErrorKind::IndicesLargerThanData, d, indicesSize, dataSize,
          arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ule, indicesSize,
                                dataSize));
    }
  }
  // The destination: each size that the types do not prove equal.
  Value init = op.getInit();
  auto initType = cast<ShapedType>(init.getType());
  SmallVector<OpFoldResult> outputSizes =
      reifyOutputShape(b, loc, *shape, source, indices);
  for (auto [d, size] : llvm::enumerate(outputSizes)) {
    if (getConstantIntValue(size) && !initType.isDynamicDim(d))
      continue;
    // Nor where the init was made of this size (a tensor.empty of the
    // indices' dimensions): in a tile, the check's scf.if kept the tile's
    // gather from fusing into its consumer's steps (gather-fuse-consumers).
    if (sameSize(madeSize(init, d), size))
      continue;
    Value actual = buildDimSize(b, loc, init, d);
    Value expected = getValueOrCreateConstantIndexOp(b, loc, size);
    add(RuntimeErrorKind::InitSizeMismatch, d, actual, expected,
        arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq, actual,
                              expected));
  }
  return checks;
}

Value mlir::gather::allShapeChecksHold(OpBuilder &b, Location loc,
                                       ArrayRef<RuntimeShapeCheck> checks) {
  Value all;
  for (const RuntimeShapeCheck &check : checks)
    all = all ? arith::AndIOp::create(b, loc, all, check.holds).getResult()
              : check.holds;
  return all;
}

void mlir::gather::buildShapeCheckReports(OpBuilder &b, Location loc,
                                          Operation *gatherOp,
                                          ArrayRef<RuntimeShapeCheck> checks) {
  StringRef name = getGatherOrigin(gatherOp).getName();
  for (const RuntimeShapeCheck &check : checks)
    CheckShapeOp::create(b, loc, check.holds, static_cast<int64_t>(check.kind),
                         check.dim, check.lhs, check.rhs, name);
}

void mlir::gather::buildUnderShapeChecks(
    OpBuilder &b, Location loc, Operation *gatherOp,
    function_ref<void(OpBuilder &, Location)> body) {
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
        buildShapeCheckReports(eb, el, gatherOp, checks);
        scf::YieldOp::create(eb, el);
      });
}

/// The sizes of the indices as written (the origin's), from the sizes of
/// `indices`, the op's own: a written dimension that the rewrites merged
/// with others is the rest of its merged dimension after the static ones.
/// Falls back to `indices`' own sizes where that leaves two unknowns.
static SmallVector<Value> buildWrittenIndicesSizes(OpBuilder &b, Location loc,
                                                   OriginAttr origin,
                                                   Value indices) {
  ArrayRef<int64_t> shape = origin.getIndices();
  ArrayRef<int64_t> dims = origin.getIndicesDims();
  auto ownSizes = [&] {
    SmallVector<Value> sizes;
    for (int64_t d = 0, e = cast<ShapedType>(indices.getType()).getRank();
         d < e; ++d)
      sizes.push_back(buildDimSize(b, loc, indices, d));
    return sizes;
  };
  SmallVector<Value> sizes;
  for (auto [written, size] : llvm::enumerate(shape)) {
    if (!ShapedType::isDynamic(size)) {
      sizes.push_back(constIndex(b, loc, size));
      continue;
    }
    int64_t own = dims[written];
    if (own < 0)
      return ownSizes();
    int64_t others = 1;
    for (auto [other, otherSize] : llvm::enumerate(shape)) {
      if (other == written || dims[other] != own)
        continue;
      if (ShapedType::isDynamic(otherSize))
        return ownSizes();
      others *= otherSize;
    }
    Value total = buildDimSize(b, loc, indices, own);
    sizes.push_back(others == 1 ? total
                                : arith::DivUIOp::create(
                                      b, loc, total, constIndex(b, loc, others))
                                      .getResult());
  }
  return sizes;
}

void mlir::gather::buildIndexCheck(OpBuilder &b, Location loc,
                                   Operation *gatherOp, bool assumeInvalid,
                                   IndicesToHostFn indicesToHost) {
  auto op = cast<GatherOpInterface>(gatherOp);
  Value indices = op.getIndices(), source = op.getSource();
  SmallVector<int64_t> gathered = op.getGatheredDims();
  if (gathered.empty())
    return;
  OriginAttr origin = getGatherOrigin(gatherOp);
  // A tile reports in the whole op's indices as written, by their own sizes.
  Value whole = op.getWholeIndices();
  Value scanned = whole ? whole : indices;
  auto scannedType = cast<ShapedType>(scanned.getType());
  int64_t rank = scannedType.getRank();
  // The check reads the indices through a buffer of any layout: the
  // indices themselves, their host copy, or their tensor's buffer (which
  // one-shot-bufferize puts in place of to_buffer).
  Value readable = indicesToHost ? indicesToHost(b, loc, scanned) : scanned;
  auto anyLayout =
      StridedLayoutAttr::get(b.getContext(), ShapedType::kDynamic,
                             SmallVector<int64_t>(rank, ShapedType::kDynamic));
  auto bufferType =
      MemRefType::get(SmallVector<int64_t>(rank, ShapedType::kDynamic),
                      scannedType.getElementType(), anyLayout);
  if (auto tensorType = dyn_cast<RankedTensorType>(readable.getType()))
    readable = bufferization::ToBufferOp::create(
        b, loc,
        MemRefType::get(tensorType.getShape(), tensorType.getElementType(),
                        anyLayout),
        readable, /*readOnly=*/true);
  if (readable.getType() != bufferType)
    readable = memref::CastOp::create(b, loc, bufferType, readable);

  SmallVector<Value> sizes;
  for (int64_t dim : gathered)
    sizes.push_back(buildDimSize(b, loc, source, dim));
  SmallVector<Value> writtenSizes;
  if (whole) {
    for (int64_t d = 0; d < rank; ++d)
      writtenSizes.push_back(buildDimSize(b, loc, whole, d));
  } else {
    writtenSizes = buildWrittenIndicesSizes(b, loc, origin, indices);
  }
  CheckIndicesOp::create(b, loc, readable, sizes, origin.getDims(),
                         writtenSizes, op.getIndexPolicy().negative,
                         assumeInvalid, origin.getName());
}

bool mlir::gather::checksIndicesAtRunTime(Operation *gatherOp) {
  auto op = cast<GatherOpInterface>(gatherOp);
  return op.getIndexPolicy().canTrap() && !op.getGatheredDims().empty();
}

/// Whether any dimension of `shaped` is 0 at run time: null where its
/// static sizes prove none is.
static Value buildMayBeEmpty(OpBuilder &b, Location loc, Value shaped) {
  auto type = cast<ShapedType>(shaped.getType());
  if (!llvm::is_contained(type.getShape(), 0) &&
      !llvm::is_contained(type.getShape(), ShapedType::kDynamic))
    return nullptr;
  Value empty;
  for (int64_t d = 0, e = type.getRank(); d < e; ++d) {
    Value isZero = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq,
                                         buildDimSize(b, loc, shaped, d),
                                         constIndex(b, loc, 0));
    empty = empty ? arith::OrIOp::create(b, loc, empty, isZero).getResult()
                  : isZero;
  }
  return empty;
}

/// The index check of an empty output: only where the op has index values.
/// An output is also empty when its indices are: a bag of no rows in
/// convert-linalg-to-gather's embedding bags, whose check (of its whole
/// indices, which its report names) would scan every bag's indices.
static void buildIndexCheckOfEmptyOutput(OpBuilder &b, Location loc,
                                         Operation *gatherOp) {
  Value indices = cast<GatherOpInterface>(gatherOp).getIndices();
  if (llvm::is_contained(cast<ShapedType>(indices.getType()).getShape(), 0))
    return;
  Value noIndices = buildMayBeEmpty(b, loc, indices);
  if (!noIndices) {
    buildIndexCheck(b, loc, gatherOp, /*assumeInvalid=*/false);
    return;
  }
  scf::IfOp::create(
      b, loc, noIndices, /*thenBuilder=*/
      [](OpBuilder &tb, Location tl) { scf::YieldOp::create(tb, tl); },
      /*elseBuilder=*/
      [&](OpBuilder &eb, Location el) {
        buildIndexCheck(eb, el, gatherOp,
                        /*assumeInvalid=*/false);
        scf::YieldOp::create(eb, el);
      });
}

void mlir::gather::buildEmptyOutputIndexCheck(OpBuilder &b, Location loc,
                                              Operation *gatherOp) {
  if (!checksIndicesAtRunTime(gatherOp))
    return;
  Value empty =
      buildMayBeEmpty(b, loc, cast<GatherOpInterface>(gatherOp).getInit());
  if (!empty)
    return;
  scf::IfOp::create(b, loc, empty, [&](OpBuilder &tb, Location tl) {
    buildIndexCheckOfEmptyOutput(tb, tl, gatherOp);
    scf::YieldOp::create(tb, tl);
  });
}

void mlir::gather::buildEmptyOutputChecks(OpBuilder &b, Location loc,
                                          Operation *gatherOp) {
  auto op = cast<GatherOpInterface>(gatherOp);
  Value empty = buildMayBeEmpty(b, loc, op.getInit());
  if (!empty)
    return;
  bool checksIndices = checksIndicesAtRunTime(gatherOp);
  scf::IfOp::create(b, loc, empty, [&](OpBuilder &tb, Location tl) {
    buildUnderShapeChecks(tb, tl, gatherOp, [&](OpBuilder &ib, Location il) {
      if (checksIndices)
        buildIndexCheckOfEmptyOutput(ib, il, gatherOp);
    });
    scf::YieldOp::create(tb, tl);
  });
}
