//===- GatherShapes.cpp - shape rules shared by all gather ops ------------===//
//
// Part of the gather project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "gather/Dialect/Gather/IR/GatherShapes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/BuiltinTypes.h"
#include "llvm/ADT/SmallSet.h"

using namespace mlir;
using namespace mlir::gather;

static constexpr int64_t kDynamic = ShapedType::kDynamic;

static bool isStatic(int64_t size) { return !ShapedType::isDynamic(size); }

int64_t mlir::gather::getLogicalIndicesSize(int64_t size,
                                            int64_t valuesPerCoordinate) {
  return isStatic(size) ? size / valuesPerCoordinate : kDynamic;
}

SmallVector<int64_t>
mlir::gather::getLogicalIndicesShape(ArrayRef<int64_t> indicesShape,
                                     int64_t coordinateSize) {
  SmallVector<int64_t> logical(indicesShape);
  if (!logical.empty())
    logical.back() = getLogicalIndicesSize(logical.back(), coordinateSize);
  return logical;
}

Value mlir::gather::buildDimSize(OpBuilder &builder, Location loc, Value shaped,
                                 int64_t dim) {
  auto type = cast<ShapedType>(shaped.getType());
  if (!type.isDynamicDim(dim))
    return arith::ConstantIndexOp::create(builder, loc, type.getDimSize(dim));
  if (isa<MemRefType>(type))
    return memref::DimOp::create(builder, loc, shaped, dim);
  return tensor::DimOp::create(builder, loc, shaped, dim);
}

Value mlir::gather::buildRefinedEmpty(OpBuilder &builder, Location loc,
                                      Value like, RankedTensorType type) {
  SmallVector<Value> dynamicSizes;
  for (int64_t d = 0; d < type.getRank(); ++d)
    if (type.isDynamicDim(d))
      dynamicSizes.push_back(tensor::DimOp::create(builder, loc, like, d));
  return tensor::EmptyOp::create(builder, loc, type.getShape(),
                                 type.getElementType(), dynamicSizes);
}

Value mlir::gather::buildSelectAddressed(
    OpBuilder &builder, Location loc, Value lastPosition,
    int64_t numGatheredDims, llvm::function_ref<Value(int64_t)> perComponent) {
  Value selected = perComponent(numGatheredDims - 1);
  if (numGatheredDims <= 1)
    return selected;
  Value component = arith::RemUIOp::create(
      builder, loc, lastPosition,
      arith::ConstantIndexOp::create(builder, loc, numGatheredDims));
  for (int64_t c = numGatheredDims - 2; c >= 0; --c) {
    Value isC =
        arith::CmpIOp::create(builder, loc, arith::CmpIPredicate::eq, component,
                              arith::ConstantIndexOp::create(builder, loc, c));
    selected =
        arith::SelectOp::create(builder, loc, isC, perComponent(c), selected);
  }
  return selected;
}

Value mlir::gather::buildElementRead(OpBuilder &builder, Location loc,
                                     Value shaped, ValueRange position) {
  if (isa<MemRefType>(shaped.getType()))
    return memref::LoadOp::create(builder, loc, shaped, position);
  return tensor::ExtractOp::create(builder, loc, shaped, position);
}

Value mlir::gather::buildLogicalIndicesSize(OpBuilder &builder, Location loc,
                                            Value indices, int64_t dim,
                                            int64_t valuesPerCoordinate) {
  auto type = cast<ShapedType>(indices.getType());
  int64_t size = type.getDimSize(dim);
  if (isStatic(size))
    return arith::ConstantIndexOp::create(
        builder, loc, getLogicalIndicesSize(size, valuesPerCoordinate));
  Value dynamic = buildDimSize(builder, loc, indices, dim);
  if (valuesPerCoordinate == 1)
    return dynamic;
  Value divisor =
      arith::ConstantIndexOp::create(builder, loc, valuesPerCoordinate);
  return arith::DivUIOp::create(builder, loc, dynamic, divisor);
}

bool mlir::gather::areBroadcastCompatible(int64_t a, int64_t b) {
  return !isStatic(a) || !isStatic(b) || a == b || a == 1 || b == 1;
}

int64_t mlir::gather::broadcastDimSize(int64_t a, int64_t b) {
  if (a == 1)
    return b;
  if (b == 1)
    return a;
  if (isStatic(a))
    return a;
  return b;
}

std::optional<BroadcastSide> mlir::gather::getStaticBroadcastSide(int64_t a,
                                                                  int64_t b) {
  if (b == 1 || (isStatic(a) && a != 1))
    return BroadcastSide::First;
  if (a == 1 || (isStatic(b) && b != 1))
    return BroadcastSide::Second;
  return std::nullopt;
}

Value mlir::gather::buildBroadcastCompatible(OpBuilder &builder, Location loc,
                                             Value a, Value b) {
  Value one = arith::ConstantIndexOp::create(builder, loc, 1);
  auto eq = [&](Value x, Value y) -> Value {
    return arith::CmpIOp::create(builder, loc, arith::CmpIPredicate::eq, x, y);
  };
  Value same = eq(a, b);
  Value aIsOne = eq(a, one);
  Value bIsOne = eq(b, one);
  Value eitherOne = arith::OrIOp::create(builder, loc, aIsOne, bIsOne);
  return arith::OrIOp::create(builder, loc, same, eitherOne);
}

Value mlir::gather::buildBroadcastSize(OpBuilder &builder, Location loc,
                                       Value a, Value b) {
  Value one = arith::ConstantIndexOp::create(builder, loc, 1);
  Value aIsOne =
      arith::CmpIOp::create(builder, loc, arith::CmpIPredicate::eq, a, one);
  return arith::SelectOp::create(builder, loc, aIsOne, b, a);
}

static FailureOr<GatherShape> finish(GatherShape shape,
                                     ArrayRef<int64_t> dataShape,
                                     ArrayRef<int64_t> indicesShape) {
  for (const OutputDimSource &src : shape.dimSources) {
    int64_t fromIndices = kDynamic;
    if (src.indicesDim)
      fromIndices = getLogicalIndicesSize(indicesShape[*src.indicesDim],
                                          src.indicesDivisor);
    if (src.dataDim && src.indicesDim)
      shape.outputShape.push_back(
          broadcastDimSize(dataShape[*src.dataDim], fromIndices));
    else if (src.dataDim)
      shape.outputShape.push_back(dataShape[*src.dataDim]);
    else
      shape.outputShape.push_back(fromIndices);
  }
  return shape;
}

FailureOr<GatherShape> mlir::gather::analyzeMultiaxisShapes(
    ArrayRef<int64_t> inputShape, ArrayRef<int64_t> indicesShape,
    ArrayRef<int64_t> axes, EmitErrorFn emitError) {
  int64_t rank = inputShape.size();
  if (static_cast<int64_t>(indicesShape.size()) != rank) {
    if (emitError)
      emitError() << "indices rank (" << indicesShape.size()
                  << ") must equal input rank (" << rank << ")";
    return failure();
  }
  llvm::SmallSet<int64_t, 8> seen;
  for (int64_t axis : axes) {
    if (axis < 0 || axis >= rank) {
      if (emitError)
        emitError() << "axis " << axis << " is out of range [0, " << rank
                    << ")";
      return failure();
    }
    if (!seen.insert(axis).second) {
      if (emitError)
        emitError() << "axis " << axis << " appears more than once in axes";
      return failure();
    }
  }
  int64_t coordinateSize = std::max<int64_t>(axes.size(), 1);
  if (rank > 0 && isStatic(indicesShape.back()) &&
      indicesShape.back() % coordinateSize != 0) {
    if (emitError)
      emitError() << "last indices dimension (" << indicesShape.back()
                  << ") must be a multiple of the coordinate size "
                  << coordinateSize << " (the number of axes)";
    return failure();
  }

  GatherShape shape;
  for (int64_t d = 0; d < rank; ++d) {
    OutputDimSource src;
    src.indicesDim = d;
    if (d == rank - 1)
      src.indicesDivisor = coordinateSize;
    if (!seen.contains(d)) {
      src.dataDim = d;
      int64_t logical =
          getLogicalIndicesSize(indicesShape[d], src.indicesDivisor);
      if (!areBroadcastCompatible(inputShape[d], logical)) {
        if (emitError)
          emitError() << "non-axis dimension " << d << ": input size "
                      << inputShape[d] << " and logical indices size "
                      << logical
                      << " are not broadcast-compatible (equal, or one of "
                         "them 1)";
        return failure();
      }
    }
    shape.dimSources.push_back(src);
  }
  return finish(std::move(shape), inputShape, indicesShape);
}

/// Checks an ONNX-style axis in [-rank, rank-1] and returns it in [0, rank).
static FailureOr<int64_t> normalizeAxis(int64_t axis, int64_t rank,
                                        EmitErrorFn emitError) {
  if (axis < -rank || axis >= rank) {
    if (emitError)
      emitError() << "axis " << axis << " is out of range [" << -rank << ", "
                  << rank - 1 << "] for data rank " << rank;
    return failure();
  }
  return axis < 0 ? axis + rank : axis;
}

static LogicalResult checkDataRankPositive(ArrayRef<int64_t> dataShape,
                                           EmitErrorFn emitError) {
  if (!dataShape.empty())
    return success();
  if (emitError)
    emitError() << "data must have rank >= 1, got rank 0";
  return failure();
}

FailureOr<GatherShape>
mlir::gather::analyzeBlockShapes(ArrayRef<int64_t> dataShape,
                                 ArrayRef<int64_t> indicesShape, int64_t axis,
                                 EmitErrorFn emitError) {
  if (failed(checkDataRankPositive(dataShape, emitError)))
    return failure();
  int64_t rank = dataShape.size();
  FailureOr<int64_t> normalized = normalizeAxis(axis, rank, emitError);
  if (failed(normalized))
    return failure();

  GatherShape shape;
  for (int64_t d = 0; d < *normalized; ++d)
    shape.dimSources.push_back({static_cast<unsigned>(d), std::nullopt, 1});
  for (unsigned d = 0; d < indicesShape.size(); ++d)
    shape.dimSources.push_back({std::nullopt, d, 1});
  for (int64_t d = *normalized + 1; d < rank; ++d)
    shape.dimSources.push_back({static_cast<unsigned>(d), std::nullopt, 1});
  return finish(std::move(shape), dataShape, indicesShape);
}

FailureOr<GatherShape>
mlir::gather::analyzeElementsShapes(ArrayRef<int64_t> dataShape,
                                    ArrayRef<int64_t> indicesShape,
                                    int64_t axis, EmitErrorFn emitError) {
  if (failed(checkDataRankPositive(dataShape, emitError)))
    return failure();
  int64_t rank = dataShape.size();
  if (static_cast<int64_t>(indicesShape.size()) != rank) {
    if (emitError)
      emitError() << "indices rank (" << indicesShape.size()
                  << ") must equal data rank (" << rank << ")";
    return failure();
  }
  FailureOr<int64_t> normalized = normalizeAxis(axis, rank, emitError);
  if (failed(normalized))
    return failure();
  for (int64_t d = 0; d < rank; ++d) {
    if (d == *normalized || !isStatic(dataShape[d]) ||
        !isStatic(indicesShape[d]) || indicesShape[d] <= dataShape[d])
      continue;
    if (emitError)
      emitError() << "indices dimension " << d << " (" << indicesShape[d]
                  << ") must not exceed data dimension " << d << " ("
                  << dataShape[d] << ") off the gather axis " << *normalized;
    return failure();
  }
  GatherShape shape;
  for (unsigned d = 0; d < indicesShape.size(); ++d)
    shape.dimSources.push_back({std::nullopt, d, 1});
  return finish(std::move(shape), dataShape, indicesShape);
}

FailureOr<GatherShape>
mlir::gather::analyzeNdShapes(ArrayRef<int64_t> dataShape,
                              ArrayRef<int64_t> indicesShape, int64_t batchDims,
                              EmitErrorFn emitError) {
  if (failed(checkDataRankPositive(dataShape, emitError)))
    return failure();
  int64_t dataRank = dataShape.size();
  int64_t indicesRank = indicesShape.size();
  if (indicesRank < 1) {
    if (emitError)
      emitError() << "indices must have rank >= 1, got rank 0";
    return failure();
  }
  if (batchDims < 0) {
    if (emitError)
      emitError() << "batch_dims (" << batchDims << ") must be non-negative";
    return failure();
  }
  if (batchDims >= std::min(dataRank, indicesRank)) {
    if (emitError)
      emitError() << "batch_dims (" << batchDims
                  << ") must be less than min(indices rank, data rank) = "
                  << std::min(dataRank, indicesRank);
    return failure();
  }
  int64_t coordinateSize = indicesShape.back();
  if (!isStatic(coordinateSize)) {
    if (emitError)
      emitError() << "last indices dimension (the coordinate size) must be "
                     "static, got ?";
    return failure();
  }
  if (coordinateSize < 1 || coordinateSize > dataRank - batchDims) {
    if (emitError)
      emitError() << "coordinate size (last indices dimension = "
                  << coordinateSize << ") must be in [1, data rank - "
                  << "batch_dims] = [1, " << dataRank - batchDims << "]";
    return failure();
  }
  for (int64_t d = 0; d < batchDims; ++d) {
    int64_t dataSize = dataShape[d], indicesSize = indicesShape[d];
    if (!isStatic(dataSize) || !isStatic(indicesSize) ||
        dataSize == indicesSize || dataSize == 1)
      continue;
    if (emitError)
      emitError() << "batch dimension " << d << ": data size " << dataSize
                  << " must equal indices size " << indicesSize << " (or be 1)";
    return failure();
  }

  GatherShape shape;
  for (int64_t d = 0; d < indicesRank - 1; ++d) {
    OutputDimSource src;
    src.indicesDim = d;
    if (d < batchDims)
      src.dataDim = d;
    shape.dimSources.push_back(src);
  }
  for (int64_t d = batchDims + coordinateSize; d < dataRank; ++d)
    shape.dimSources.push_back({static_cast<unsigned>(d), std::nullopt, 1});
  return finish(std::move(shape), dataShape, indicesShape);
}

SmallVector<OpFoldResult>
mlir::gather::reifyOutputShape(OpBuilder &builder, Location loc,
                               const GatherShape &shape, Value data,
                               Value indices) {
  auto dataType = cast<ShapedType>(data.getType());
  auto indicesType = cast<ShapedType>(indices.getType());
  SmallVector<OpFoldResult> sizes;
  for (auto [size, src] : llvm::zip(shape.outputShape, shape.dimSources)) {
    if (isStatic(size)) {
      sizes.push_back(builder.getIndexAttr(size));
      continue;
    }
    auto dataSize = [&]() -> Value {
      return buildDimSize(builder, loc, data, *src.dataDim);
    };
    auto indicesSize = [&]() -> Value {
      return buildLogicalIndicesSize(builder, loc, indices, *src.indicesDim,
                                     src.indicesDivisor);
    };
    if (!src.indicesDim) {
      sizes.push_back(dataSize());
      continue;
    }
    if (!src.dataDim) {
      sizes.push_back(indicesSize());
      continue;
    }
    // Both sides take part in a broadcast: the static sizes decide where
    // they can, else the run time does.
    std::optional<BroadcastSide> side = getStaticBroadcastSide(
        dataType.getDimSize(*src.dataDim),
        getLogicalIndicesSize(indicesType.getDimSize(*src.indicesDim),
                              src.indicesDivisor));
    if (side == BroadcastSide::First)
      sizes.push_back(dataSize());
    else if (side == BroadcastSide::Second)
      sizes.push_back(indicesSize());
    else {
      Value fromData = dataSize();
      Value fromIndices = indicesSize();
      sizes.push_back(buildBroadcastSize(builder, loc, fromData, fromIndices));
    }
  }
  return sizes;
}

//===----------------------------------------------------------------------===//
// Mapping the ONNX-style ops onto gather.multiaxis
//===----------------------------------------------------------------------===//

/// A reshape between `lowShape` and a higher-rank shape that inserts unit
/// dimensions: `positions[i]` is where dimension i of the low shape sits in
/// the high shape. Unit dimensions join the group of the dimension before
/// them (leading ones join the first group).
SmallVector<ReassociationIndices>
mlir::gather::unitDimGroups(ArrayRef<int64_t> keptPositions, int64_t highRank) {
  SmallVector<ReassociationIndices> groups;
  for (size_t i = 0; i < keptPositions.size(); ++i) {
    ReassociationIndices group;
    int64_t begin = i == 0 ? 0 : keptPositions[i];
    int64_t end =
        i + 1 == keptPositions.size() ? highRank : keptPositions[i + 1];
    for (int64_t d = begin; d < end; ++d)
      group.push_back(d);
    groups.push_back(group);
  }
  return groups;
}

static UnitReshape unitReshape(ArrayRef<int64_t> lowShape,
                               ArrayRef<int64_t> positions, int64_t highRank,
                               bool expand) {
  UnitReshape reshape;
  reshape.expand = expand;
  SmallVector<int64_t> highShape(highRank, 1);
  for (auto [dim, pos] : llvm::enumerate(positions))
    highShape[pos] = lowShape[dim];
  reshape.reassociation = unitDimGroups(positions, highRank);
  reshape.resultShape =
      expand ? highShape
             : SmallVector<int64_t>(lowShape.begin(), lowShape.end());
  reshape.isIdentity = static_cast<int64_t>(lowShape.size()) == highRank;
  reshape.positions.assign(positions.begin(), positions.end());
  return reshape;
}

static SmallVector<int64_t> iotaFrom(int64_t begin, int64_t count) {
  return llvm::to_vector(llvm::seq<int64_t>(begin, begin + count));
}

MultiaxisForm mlir::gather::getBlockMultiaxisForm(
    ArrayRef<int64_t> dataShape, ArrayRef<int64_t> indicesShape, int64_t axis) {
  int64_t rank = dataShape.size(), q = indicesShape.size();
  MultiaxisForm form;
  form.axes = {axis};
  // data [lead, s, trail] -> [lead, s, 1 x q, trail].
  SmallVector<int64_t> dataPositions;
  for (int64_t d = 0; d < rank; ++d)
    dataPositions.push_back(d <= axis ? d : d + q);
  form.data = unitReshape(dataShape, dataPositions, rank + q, true);
  // indices [idx] -> [1 x (axis + 1), idx, 1 x trail].
  form.indices =
      unitReshape(indicesShape, iotaFrom(axis + 1, q), rank + q, true);
  // multiaxis output [lead, 1, idx, trail] -> [lead, idx, trail].
  SmallVector<int64_t> outputShape(dataShape.take_front(axis));
  llvm::append_range(outputShape, indicesShape);
  llvm::append_range(outputShape, dataShape.drop_front(axis + 1));
  SmallVector<int64_t> keptPositions;
  for (int64_t d = 0; d < rank + q; ++d)
    if (d != axis)
      keptPositions.push_back(d);
  form.output = unitReshape(outputShape, keptPositions, rank + q, false);
  return form;
}

MultiaxisForm mlir::gather::getElementsMultiaxisForm(
    ArrayRef<int64_t> dataShape, ArrayRef<int64_t> indicesShape, int64_t axis) {
  int64_t rank = dataShape.size();
  MultiaxisForm form;
  form.axes = {axis};
  form.data = unitReshape(dataShape, iotaFrom(0, rank), rank, true);
  form.indices = unitReshape(indicesShape, iotaFrom(0, rank), rank, true);
  form.output = unitReshape(indicesShape, iotaFrom(0, rank), rank, false);
  for (int64_t d = 0; d < rank; ++d) {
    int64_t dataSize = dataShape[d], indicesSize = indicesShape[d];
    bool provablySame = isStatic(dataSize) && dataSize == indicesSize;
    // A data size of 1 only meets index sizes 0 and 1, which broadcast
    // correctly.
    if (d != axis && !provablySame && dataSize != 1)
      form.sliceDataDims.push_back(d);
  }
  return form;
}

MultiaxisForm mlir::gather::getNdMultiaxisForm(ArrayRef<int64_t> dataShape,
                                               ArrayRef<int64_t> indicesShape,
                                               int64_t batchDims) {
  int64_t rank = dataShape.size(), q = indicesShape.size();
  int64_t k = indicesShape.back();
  int64_t indexedEnd = batchDims + k;
  int64_t trailing = rank - indexedEnd;
  int64_t leading = std::max(indexedEnd, q - 1);
  int64_t newRank = leading + trailing;
  MultiaxisForm form;
  form.axes = iotaFrom(batchDims, k);
  // data [batch, indexed, trail] -> [batch, indexed, 1 x fill, trail].
  SmallVector<int64_t> dataPositions;
  for (int64_t d = 0; d < rank; ++d)
    dataPositions.push_back(d < indexedEnd ? d : d + leading - indexedEnd);
  form.data = unitReshape(dataShape, dataPositions, newRank, true);
  // indices [lead, k] -> [lead, 1 x fill, k]; the coordinate dimension
  // becomes the (folded) last dimension.
  if (newRank > q - 1) {
    SmallVector<int64_t> positions = iotaFrom(0, q - 1);
    positions.push_back(newRank - 1);
    form.indices = unitReshape(indicesShape, positions, newRank, true);
  } else {
    // No room for a unit dimension: fold k into the last index dimension.
    form.indices.expand = false;
    for (int64_t d = 0; d < q - 2; ++d)
      form.indices.reassociation.push_back({d});
    form.indices.reassociation.push_back({q - 2, q - 1});
    form.indices.resultShape.assign(indicesShape.begin(),
                                    indicesShape.end() - 1);
    int64_t &last = form.indices.resultShape.back();
    last = isStatic(last) ? last * k : kDynamic;
  }
  // multiaxis output [lead, 1 x fill, trail] -> [lead, trail].
  SmallVector<int64_t> outputShape(indicesShape.drop_back());
  llvm::append_range(outputShape, dataShape.drop_front(indexedEnd));
  SmallVector<int64_t> keptPositions = iotaFrom(0, q - 1);
  llvm::append_range(keptPositions, iotaFrom(leading, trailing));
  form.output = unitReshape(outputShape, keptPositions, newRank, false);
  return form;
}

Value mlir::gather::collapseUnitDims(OpBuilder &builder, Location loc,
                                     Value value, ArrayRef<int64_t> unitDims) {
  auto type = cast<RankedTensorType>(value.getType());
  int64_t rank = type.getRank();
  if (unitDims.empty())
    return value;
  SmallVector<int64_t> shape;
  SmallVector<ReassociationIndices> groups;
  ReassociationIndices pending;
  for (int64_t d = 0; d < rank; ++d) {
    pending.push_back(d);
    if (llvm::is_contained(unitDims, d))
      continue;
    shape.push_back(type.getDimSize(d));
    groups.push_back(pending);
    pending.clear();
  }
  // Trailing unit dims join the last group (or form none: rank 0).
  if (!pending.empty() && !groups.empty())
    llvm::append_range(groups.back(), pending);
  return tensor::CollapseShapeOp::create(
      builder, loc, RankedTensorType::get(shape, type.getElementType()), value,
      groups);
}

Value mlir::gather::expandDestination(OpBuilder &builder, Location loc,
                                      Value init, const UnitReshape &collapse,
                                      ArrayRef<int64_t> highShape) {
  if (collapse.isIdentity)
    return init;
  auto initType = cast<RankedTensorType>(init.getType());
  SmallVector<int64_t> expanded(highShape.size(), 1);
  for (auto [low, group] : llvm::enumerate(collapse.reassociation)) {
    // The group's one dimension that is not an inserted unit: the first
    // whose size is not statically 1, else the first.
    int64_t kept = group.front();
    for (int64_t high : group)
      if (highShape[high] != 1) {
        kept = high;
        break;
      }
    expanded[kept] = initType.getDimSize(low);
  }
  return tensor::ExpandShapeOp::create(builder, loc, initType.clone(expanded),
                                       init, collapse.reassociation);
}

Value mlir::gather::buildUnitReshape(OpBuilder &builder, Location loc,
                                     Value value, const UnitReshape &reshape) {
  if (reshape.isIdentity)
    return value;
  auto type = cast<RankedTensorType>(value.getType());
  if (!reshape.expand)
    return tensor::CollapseShapeOp::create(builder, loc, value,
                                           reshape.reassociation);
  auto resultType = type.clone(reshape.resultShape);
  return tensor::ExpandShapeOp::create(builder, loc, resultType, value,
                                       reshape.reassociation);
}

//===----------------------------------------------------------------------===//
// Evaluation
//===----------------------------------------------------------------------===//

FailureOr<SmallVector<Attribute>> mlir::gather::evaluateMultiaxis(
    ArrayRef<Attribute> input, ArrayRef<int64_t> inputShape,
    ArrayRef<int64_t> inputStrides, ArrayRef<int64_t> indices,
    ArrayRef<int64_t> indicesShape, ArrayRef<int64_t> axes,
    ArrayRef<int64_t> outputShape, IndexPolicy policy, Attribute zero) {
  int64_t rank = outputShape.size();
  int64_t k = std::max<int64_t>(axes.size(), 1);
  SmallVector<int64_t> logical = getLogicalIndicesShape(indicesShape, k);
  SmallVector<int64_t> indicesStrides(rank, 1);
  for (int64_t d = rank - 2; d >= 0; --d)
    indicesStrides[d] = indicesStrides[d + 1] * indicesShape[d + 1];
  int64_t count = ShapedType::getNumElements(outputShape);
  SmallVector<Attribute> result;
  result.reserve(count);
  SmallVector<int64_t> coord(rank, 0);
  for (int64_t linear = 0; linear < count; ++linear) {
    int64_t rest = linear;
    for (int64_t d = rank - 1; d >= 0; --d) {
      coord[d] = rest % outputShape[d];
      rest /= outputShape[d];
    }
    int64_t indicesBase = 0, inputOffset = 0;
    for (int64_t d = 0; d < rank; ++d) {
      int64_t p = logical[d] == 1 ? 0 : coord[d];
      indicesBase += (d == rank - 1 ? p * k : p) * indicesStrides[d];
      if (!llvm::is_contained(axes, d))
        inputOffset += (inputShape[d] == 1 ? 0 : coord[d]) * inputStrides[d];
    }
    bool fill = false;
    for (auto [j, axis] : llvm::enumerate(axes)) {
      bool isFill = false;
      std::optional<int64_t> at =
          policy.resolve(indices[indicesBase + j], inputShape[axis], isFill);
      if (!at)
        return failure();
      fill |= isFill;
      inputOffset += *at * inputStrides[axis];
    }
    result.push_back(fill ? zero : input[inputOffset]);
  }
  return result;
}
