//===- GatherShapes.cpp - shape rules shared by all gather ops ------------===//

#include "gather/Dialect/Gather/IR/GatherShapes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/BuiltinTypes.h"
#include "llvm/ADT/SmallSet.h"

using namespace mlir;
using namespace mlir::gather;

static constexpr int64_t kDynamic = ShapedType::kDynamic;

static bool isStatic(int64_t size) { return !ShapedType::isDynamic(size); }

/// Prints a size, `?` for dynamic.
static std::string sizeStr(int64_t size) {
  return isStatic(size) ? std::to_string(size) : std::string("?");
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

/// Two sizes may broadcast: equal, one of them 1, or not known statically.
static bool areBroadcastCompatible(int64_t a, int64_t b) {
  return !isStatic(a) || !isStatic(b) || a == b || a == 1 || b == 1;
}

static FailureOr<GatherShape> finish(GatherShape shape,
                                     ArrayRef<int64_t> dataShape,
                                     ArrayRef<int64_t> indicesShape) {
  for (const OutputDimSource &src : shape.dimSources) {
    int64_t fromIndices = kDynamic;
    if (src.indicesDim) {
      int64_t size = indicesShape[*src.indicesDim];
      fromIndices = isStatic(size) ? size / src.indicesDivisor : kDynamic;
    }
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

FailureOr<GatherShape>
mlir::gather::analyzeMultiaxisShapes(ArrayRef<int64_t> inputShape,
                                     ArrayRef<int64_t> indicesShape,
                                     ArrayRef<int64_t> axes,
                                     EmitErrorFn emitError) {
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
      int64_t logical = indicesShape[d];
      if (isStatic(logical))
        logical /= src.indicesDivisor;
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
                              ArrayRef<int64_t> indicesShape,
                              int64_t batchDims, EmitErrorFn emitError) {
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
                  << " must equal indices size " << indicesSize
                  << " (or be 1)";
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
  auto dataType = cast<RankedTensorType>(data.getType());
  auto indicesType = cast<RankedTensorType>(indices.getType());
  SmallVector<OpFoldResult> sizes;
  for (auto [size, src] : llvm::zip(shape.outputShape, shape.dimSources)) {
    if (isStatic(size)) {
      sizes.push_back(builder.getIndexAttr(size));
      continue;
    }
    auto dataSize = [&]() -> Value {
      return tensor::DimOp::create(builder, loc, data, *src.dataDim);
    };
    auto indicesSize = [&]() -> Value {
      Value dim = tensor::DimOp::create(builder, loc, indices, *src.indicesDim);
      if (src.indicesDivisor == 1)
        return dim;
      Value divisor =
          arith::ConstantIndexOp::create(builder, loc, src.indicesDivisor);
      return arith::DivUIOp::create(builder, loc, dim, divisor);
    };
    if (!src.indicesDim) {
      sizes.push_back(dataSize());
      continue;
    }
    if (!src.dataDim) {
      sizes.push_back(indicesSize());
      continue;
    }
    // Both sides take part in a broadcast. A side statically known to be
    // other than 1 decides the size; else pick at run time.
    int64_t staticData = dataType.getDimSize(*src.dataDim);
    int64_t staticIndices = indicesType.getDimSize(*src.indicesDim);
    if (isStatic(staticIndices))
      staticIndices /= src.indicesDivisor;
    if (staticIndices == 1 || (isStatic(staticData) && staticData != 1)) {
      sizes.push_back(dataSize());
      continue;
    }
    if (staticData == 1 || (isStatic(staticIndices) && staticIndices != 1)) {
      sizes.push_back(indicesSize());
      continue;
    }
    Value fromData = dataSize();
    Value fromIndices = indicesSize();
    Value one = arith::ConstantIndexOp::create(builder, loc, 1);
    Value dataIsOne = arith::CmpIOp::create(
        builder, loc, arith::CmpIPredicate::eq, fromData, one);
    sizes.push_back(
        arith::SelectOp::create(builder, loc, dataIsOne, fromIndices, fromData)
            .getResult());
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
mlir::gather::unitDimGroups(ArrayRef<int64_t> keptPositions,
                            int64_t highRank) {
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
      expand ? highShape : SmallVector<int64_t>(lowShape.begin(), lowShape.end());
  reshape.isIdentity = static_cast<int64_t>(lowShape.size()) == highRank;
  return reshape;
}

static SmallVector<int64_t> iotaFrom(int64_t begin, int64_t count) {
  return llvm::to_vector(llvm::seq<int64_t>(begin, begin + count));
}

MultiaxisForm mlir::gather::getBlockMultiaxisForm(
    ArrayRef<int64_t> dataShape, ArrayRef<int64_t> indicesShape,
    int64_t axis) {
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
    ArrayRef<int64_t> dataShape, ArrayRef<int64_t> indicesShape,
    int64_t axis) {
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

std::optional<int64_t> mlir::gather::resolveIndex(int64_t value, int64_t size,
                                                  bool wrapNegative,
                                                  int outOfBoundsMode,
                                                  bool &isFill) {
  isFill = false;
  if (value < 0 && wrapNegative && value >= -size)
    value += size;
  if (value >= 0 && value < size)
    return value;
  // Values of OutOfBoundsMode: error 0, clamp 1, fill 2, unchecked 3.
  if (outOfBoundsMode == 1 && size > 0)
    return std::clamp<int64_t>(value, 0, size - 1);
  if (outOfBoundsMode == 2) {
    isFill = true;
    return 0;
  }
  return std::nullopt;
}

FailureOr<SmallVector<Attribute>> mlir::gather::evaluateMultiaxis(
    ArrayRef<Attribute> input, ArrayRef<int64_t> inputShape,
    ArrayRef<int64_t> inputStrides, ArrayRef<int64_t> indices,
    ArrayRef<int64_t> indicesShape, ArrayRef<int64_t> axes,
    ArrayRef<int64_t> outputShape, bool wrapNegative, int outOfBoundsMode,
    Attribute zero) {
  int64_t rank = outputShape.size();
  int64_t k = std::max<int64_t>(axes.size(), 1);
  SmallVector<int64_t> logical(indicesShape);
  if (rank > 0)
    logical.back() /= k;
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
          resolveIndex(indices[indicesBase + j], inputShape[axis],
                       wrapNegative, outOfBoundsMode, isFill);
      if (!at)
        return failure();
      fill |= isFill;
      inputOffset += *at * inputStrides[axis];
    }
    result.push_back(fill ? zero : input[inputOffset]);
  }
  return result;
}
