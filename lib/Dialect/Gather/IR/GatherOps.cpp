//===- GatherOps.cpp - gather dialect operations --------------------------===//
//
// Part of the gather project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "gather/Dialect/Gather/IR/GatherOps.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Dialect/Utils/IndexingUtils.h"
#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/Matchers.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/IR/TypeUtilities.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/Support/MathExtras.h"

using namespace mlir;
using namespace mlir::gather;

//===----------------------------------------------------------------------===//
// The destination type in the custom assembly: `into <init type>`, which is
// also the result type on tensors (buffers have no result).
//===----------------------------------------------------------------------===//

static ParseResult parseDestinationType(OpAsmParser &parser, Type &initType,
                                        Type &outputType) {
  if (parser.parseType(initType))
    return failure();
  if (isa<RankedTensorType>(initType))
    outputType = initType;
  return success();
}

static void printDestinationType(OpAsmPrinter &printer, Operation *,
                                 Type initType, Type) {
  printer << initType;
}

/// A run-time error kind as its keyword (`shape_mismatch`).
static ParseResult parseRuntimeErrorKind(OpAsmParser &parser,
                                         IntegerAttr &kind) {
  SMLoc at = parser.getCurrentLocation();
  StringRef keyword;
  if (parser.parseKeyword(&keyword))
    return failure();
  for (int64_t k = static_cast<int64_t>(RuntimeErrorKind::IndexOutOfBounds);
       const char *known = getRuntimeErrorKindKeyword(k); ++k) {
    if (keyword == known) {
      kind = parser.getBuilder().getI64IntegerAttr(k);
      return success();
    }
  }
  return parser.emitError(at, "unknown run-time error kind '")
         << keyword << "'";
}

static void printRuntimeErrorKind(OpAsmPrinter &printer, Operation *,
                                  IntegerAttr kind) {
  if (const char *keyword = getRuntimeErrorKindKeyword(kind.getInt()))
    printer << keyword;
  else
    printer << "<invalid kind " << kind.getInt() << ">";
}

#define GET_OP_CLASSES
#include "gather/Dialect/Gather/IR/GatherInterfaces.cpp.inc"
#include "gather/Dialect/Gather/IR/GatherOps.cpp.inc"

//===----------------------------------------------------------------------===//
// Shared op logic
//===----------------------------------------------------------------------===//

static ArrayRef<int64_t> shapeOf(Value value) {
  return cast<ShapedType>(value.getType()).getShape();
}

Value mlir::gather::createEmptyInit(OpBuilder &builder, Location loc,
                                    const GatherShape &shape, Value data,
                                    Value indices) {
  SmallVector<OpFoldResult> sizes =
      reifyOutputShape(builder, loc, shape, data, indices);
  Type elementType = cast<ShapedType>(data.getType()).getElementType();
  return tensor::EmptyOp::create(builder, loc, sizes, elementType);
}

/// An empty destination when `shape` holds (the operands follow the rules).
static Value emptyInitOrNull(OpBuilder &builder, Location loc,
                             FailureOr<GatherShape> shape, Value data,
                             Value indices) {
  return succeeded(shape) ? createEmptyInit(builder, loc, *shape, data, indices)
                          : Value();
}

Value mlir::gather::createMultiaxisInit(OpBuilder &builder, Location loc,
                                        Value input, Value indices,
                                        ArrayRef<int64_t> axes) {
  return emptyInitOrNull(
      builder, loc,
      analyzeMultiaxisShapes(shapeOf(input), shapeOf(indices), axes, nullptr),
      input, indices);
}

Value mlir::gather::createBlockInit(OpBuilder &builder, Location loc,
                                    Value data, Value indices, int64_t axis) {
  return emptyInitOrNull(
      builder, loc,
      analyzeBlockShapes(shapeOf(data), shapeOf(indices), axis, nullptr), data,
      indices);
}

Value mlir::gather::createElementsInit(OpBuilder &builder, Location loc,
                                       Value data, Value indices,
                                       int64_t axis) {
  return emptyInitOrNull(
      builder, loc,
      analyzeElementsShapes(shapeOf(data), shapeOf(indices), axis, nullptr),
      data, indices);
}

Value mlir::gather::createNdInit(OpBuilder &builder, Location loc, Value data,
                                 Value indices, int64_t batchDims) {
  return emptyInitOrNull(
      builder, loc,
      analyzeNdShapes(shapeOf(data), shapeOf(indices), batchDims, nullptr),
      data, indices);
}

/// On tensors the result is the new value of `init`; on buffers there is
/// none.
static LogicalResult inferGatherType(Value init,
                                     SmallVectorImpl<Type> &inferred) {
  if (auto tensorType = dyn_cast<RankedTensorType>(init.getType()))
    inferred.push_back(tensorType);
  return success();
}

/// On buffers the op reads its data and indices and writes its destination
/// (never reading it); on tensors it has no memory effect.
static void getGatherEffects(
    Operation *op, OpOperand &init,
    SmallVectorImpl<SideEffects::EffectInstance<MemoryEffects::Effect>>
        &effects) {
  for (OpOperand &operand : op->getOpOperands()) {
    if (!isa<MemRefType>(operand.get().getType()))
      continue;
    if (&operand == &init)
      effects.emplace_back(MemoryEffects::Write::get(), &operand,
                           SideEffects::DefaultResource::get());
    else
      effects.emplace_back(MemoryEffects::Read::get(), &operand,
                           SideEffects::DefaultResource::get());
  }
}

template <typename OpTy>
static Speculation::Speculatability getGatherSpeculatability(OpTy op) {
  // On buffers the op writes memory: it stays where it is.
  if (!op.hasPureTensorSemantics())
    return Speculation::NotSpeculatable;
  return op.getIndexPolicy().getSpeculatability();
}

template <typename OpTy>
static LogicalResult reifyGatherShape(OpTy op, OpBuilder &builder,
                                      ReifiedRankedShapedTypeDims &reified) {
  FailureOr<GatherShape> shape = op.analyzeShapes();
  if (failed(shape))
    return failure();
  reified.push_back(reifyOutputShape(builder, op.getLoc(), *shape,
                                     op->getOperand(0), op.getIndices()));
  return success();
}

/// The shape rules, with the op's own prefix, and the destination: of the
/// operands' kind (all tensors or all buffers), the data element type, and
/// the output shape the operands imply (a `?` on either side matches).
template <typename OpTy> static LogicalResult verifyGatherShapes(OpTy op) {
  StringRef dataName = isa<MultiaxisOp>(op) ? "input" : "data";
  Type dataType = op->getOperand(0).getType();
  Type indicesType = op.getIndices().getType();
  Type initType = op.getInit().getType();
  bool tensors = isa<RankedTensorType>(dataType);
  if (isa<RankedTensorType>(indicesType) != tensors ||
      isa<RankedTensorType>(initType) != tensors)
    return op.emitOpError("operands must be all tensors or all memrefs, got ")
           << dataName << " " << dataType << ", indices " << indicesType
           << " and init " << initType;
  if (Value whole = op.getWholeIndices();
      whole && isa<RankedTensorType>(whole.getType()) != tensors)
    return op.emitOpError("whole_indices type ")
           << whole.getType() << " must be a "
           << (tensors ? "tensor" : "memref") << " like the other operands";
  // Sizes and offsets in bytes must fit in 64 bits for the lowerings' index
  // arithmetic; a static shape whose byte size does not is rejected (the
  // static sizes of a shape with dynamic ones, too: they are a lower bound
  // unless a dynamic size is 0).
  auto exceedsAddressSpace = [](ShapedType shaped) {
    Type element = shaped.getElementType();
    uint64_t bytes = element.isIntOrFloat()
                         ? llvm::divideCeil(element.getIntOrFloatBitWidth(), 8)
                         : 8;
    bool overflow = false;
    for (int64_t size : shaped.getShape())
      if (!ShapedType::isDynamic(size))
        bytes = llvm::SaturatingMultiply<uint64_t>(bytes, size, &overflow);
    return overflow || bytes > static_cast<uint64_t>(INT64_MAX);
  };
  for (auto [name, type] : {std::pair<StringRef, Type>(dataName, dataType),
                            {"indices", indicesType},
                            {"init", initType}})
    if (exceedsAddressSpace(cast<ShapedType>(type)))
      return op.emitOpError()
             << name << " type " << type << " is larger than 2^63 bytes";
  FailureOr<GatherShape> shape =
      op.analyzeShapes([&]() { return op.emitOpError(); });
  if (failed(shape))
    return failure();
  Type elementType = cast<ShapedType>(dataType).getElementType();
  auto outputType = cast<ShapedType>(initType);
  ArrayRef<int64_t> inferred = shape->outputShape;
  auto inferredType = [&] {
    return RankedTensorType::get(inferred, elementType);
  };
  // The rewrites write the inferred type: it must be as addressable as the
  // operands (a broadcast or a block gather can multiply their sizes).
  if (exceedsAddressSpace(inferredType()))
    return op.emitOpError("inferred output type ")
           << inferredType() << " is larger than 2^63 bytes";
  if (outputType.getElementType() != elementType)
    return op.emitOpError("init element type ")
           << outputType.getElementType() << " must equal the " << dataName
           << " element type " << elementType;
  if (outputType.getRank() != static_cast<int64_t>(inferred.size()))
    return op.emitOpError("init rank (")
           << outputType.getRank() << ") must be " << inferred.size()
           << " (inferred output type " << inferredType() << ")";
  for (auto [dim, sizes] :
       llvm::enumerate(llvm::zip(outputType.getShape(), inferred))) {
    auto [written, expected] = sizes;
    if (ShapedType::isDynamic(written) || ShapedType::isDynamic(expected) ||
        written == expected)
      continue;
    return op.emitOpError("init dimension ")
           << dim << " (" << written << ") must be " << expected
           << " (inferred output type " << inferredType() << ")";
  }
  return success();
}

/// Under the `error` policy, rejects constant index values that can never be
/// valid. `dimForComponent[p % size]` is the data dimension addressed by an
/// index value at position p of the last indices dimension.
template <typename OpTy>
static LogicalResult verifyConstantIndices(OpTy op,
                                           ArrayRef<int64_t> dimForComponent) {
  IndexPolicy policy = op.getIndexPolicy();
  if (!policy.canTrap() || dimForComponent.empty())
    return success();
  DenseIntElementsAttr values;
  if (!matchPattern(op.getIndices(), m_Constant(&values)))
    return success();
  ArrayRef<int64_t> dataShape = shapeOf(op->getOperand(0));
  ArrayRef<int64_t> indicesShape = shapeOf(op.getIndices());
  int64_t lastSize = indicesShape.empty() ? 1 : indicesShape.back();
  SmallVector<int64_t> strides = indicesShape.empty()
                                     ? SmallVector<int64_t>()
                                     : computeStrides(indicesShape);

  int64_t linear = 0;
  for (const APInt &raw : values.getValues<APInt>()) {
    int64_t position = linear++;
    int64_t value = raw.getSExtValue();
    int64_t dataDim = dimForComponent[getAddressedComponent(
        position % lastSize, dimForComponent.size())];
    int64_t size = dataShape[dataDim];
    if (ShapedType::isDynamic(size))
      continue;
    if (policy.isValid(value, size))
      continue;
    InFlightDiagnostic diag = op.emitOpError("index ") << value;
    if (values.isSplat()) {
      diag << " (every indices element)";
    } else {
      diag << " at indices position [";
      llvm::interleaveComma(delinearize(position, strides), diag);
      diag << "]";
    }
    diag << " is out of bounds for " << op->getOperand(0).getType()
         << " dimension " << dataDim << " of size " << size;
    if (value < 0 && !policy.wrapsNegative() && value >= -size)
      diag << " (negative_indices = out_of_bounds)";
    return diag;
  }
  return success();
}

#define GATHER_COMMON_METHODS(OpTy, AnalyzeExpr)                               \
  FailureOr<GatherShape> OpTy::analyzeShapes(EmitErrorFn emitError) {          \
    Adaptor adaptor(*this);                                                    \
    return AnalyzeExpr(shapeOf(getOperand(0)), shapeOf(getIndices()),          \
                       emitError);                                             \
  }                                                                            \
  LogicalResult OpTy::inferReturnTypes(MLIRContext *, std::optional<Location>, \
                                       Adaptor adaptor,                        \
                                       SmallVectorImpl<Type> &inferred) {      \
    return inferGatherType(adaptor.getInit(), inferred);                       \
  }                                                                            \
  void OpTy::getEffects(                                                       \
      SmallVectorImpl<SideEffects::EffectInstance<MemoryEffects::Effect>>      \
          &effects) {                                                          \
    getGatherEffects(*this, getInitMutable(), effects);                        \
  }                                                                            \
  Speculation::Speculatability OpTy::getSpeculatability() {                    \
    return getGatherSpeculatability(*this);                                    \
  }                                                                            \
  LogicalResult OpTy::reifyResultShapes(                                       \
      OpBuilder &builder, ReifiedRankedShapedTypeDims &reified) {              \
    return reifyGatherShape(*this, builder, reified);                          \
  }                                                                            \
  Value OpTy::getSource() { return getOperand(0); }

//===----------------------------------------------------------------------===//
// MultiaxisOp
//===----------------------------------------------------------------------===//

#define MULTIAXIS_ANALYZE(data, indices, emit)                                 \
  analyzeMultiaxisShapes(data, indices, adaptor.getAxes(), emit)
GATHER_COMMON_METHODS(MultiaxisOp, MULTIAXIS_ANALYZE)

SmallVector<int64_t> MultiaxisOp::getGatheredDims() {
  return llvm::to_vector(getAxes());
}

LogicalResult MultiaxisOp::verify() {
  if (failed(verifyGatherShapes(*this)))
    return failure();
  return verifyConstantIndices(*this, getAxes());
}

//===----------------------------------------------------------------------===//
// BlockOp
//===----------------------------------------------------------------------===//

#define BLOCK_ANALYZE(data, indices, emit)                                     \
  analyzeBlockShapes(data, indices, adaptor.getAxis(), emit)
GATHER_COMMON_METHODS(BlockOp, BLOCK_ANALYZE)

SmallVector<int64_t> BlockOp::getGatheredDims() {
  return {getNormalizedAxis()};
}

LogicalResult BlockOp::verify() {
  if (failed(verifyGatherShapes(*this)))
    return failure();
  int64_t axis = getNormalizedAxis();
  return verifyConstantIndices(*this, ArrayRef<int64_t>(axis));
}

//===----------------------------------------------------------------------===//
// ElementsOp
//===----------------------------------------------------------------------===//

#define ELEMENTS_ANALYZE(data, indices, emit)                                  \
  analyzeElementsShapes(data, indices, adaptor.getAxis(), emit)
GATHER_COMMON_METHODS(ElementsOp, ELEMENTS_ANALYZE)

SmallVector<int64_t> ElementsOp::getGatheredDims() {
  return {getNormalizedAxis()};
}

LogicalResult ElementsOp::verify() {
  if (failed(verifyGatherShapes(*this)))
    return failure();
  int64_t axis = getNormalizedAxis();
  return verifyConstantIndices(*this, ArrayRef<int64_t>(axis));
}

//===----------------------------------------------------------------------===//
// NdOp
//===----------------------------------------------------------------------===//

#define ND_ANALYZE(data, indices, emit)                                        \
  analyzeNdShapes(data, indices, adaptor.getBatchDims(), emit)
GATHER_COMMON_METHODS(NdOp, ND_ANALYZE)

SmallVector<int64_t> NdOp::getGatheredDims() {
  int64_t batchDims = getBatchDims();
  int64_t coordinateSize = shapeOf(getIndices()).back();
  return llvm::to_vector(
      llvm::seq<int64_t>(batchDims, batchDims + coordinateSize));
}

LogicalResult NdOp::verify() {
  if (failed(verifyGatherShapes(*this)))
    return failure();
  int64_t batchDims = getBatchDims();
  int64_t coordinateSize = shapeOf(getIndices()).back();
  SmallVector<int64_t> dims = llvm::to_vector(
      llvm::seq<int64_t>(batchDims, batchDims + coordinateSize));
  return verifyConstantIndices(*this, dims);
}

//===----------------------------------------------------------------------===//
// Run-time checks
//===----------------------------------------------------------------------===//

LogicalResult CheckShapeOp::verify() {
  // I64Attr reads back unsigned: take the signed values.
  int64_t kind = getKindAttr().getInt(), dim = getDimAttr().getInt();
  if (!isShapeErrorKind(kind))
    return emitOpError("kind ") << kind << " is not a shape error kind";
  if (dim < 0)
    return emitOpError("dim ") << dim << " is negative";
  return success();
}

namespace {
/// A check of a condition that holds is no check.
struct EraseHoldingShapeCheck : OpRewritePattern<CheckShapeOp> {
  using OpRewritePattern::OpRewritePattern;

  LogicalResult matchAndRewrite(CheckShapeOp op,
                                PatternRewriter &rewriter) const override {
    if (!matchPattern(op.getHolds(), m_One()))
      return rewriter.notifyMatchFailure(op, "condition not known to hold");
    rewriter.eraseOp(op);
    return success();
  }
};
} // namespace

void CheckShapeOp::getCanonicalizationPatterns(RewritePatternSet &results,
                                               MLIRContext *context) {
  results.add<EraseHoldingShapeCheck>(context);
}

LogicalResult CheckIndicesOp::verify() {
  if (getDims().empty())
    return emitOpError("dims must name at least one dimension");
  if (getSizes().size() != getDims().size())
    return emitOpError("has ")
           << getSizes().size() << " sizes for " << getDims().size() << " dims";
  for (int64_t dim : getDims())
    if (dim < 0)
      return emitOpError("dim ") << dim << " is negative";
  return success();
}
