//===- GatherOps.cpp - gather dialect operations --------------------------===//

#include "gather/Dialect/Gather/IR/GatherOps.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Utils/IndexingUtils.h"
#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/Matchers.h"
#include "mlir/IR/TypeUtilities.h"
#include "llvm/ADT/STLExtras.h"

using namespace mlir;
using namespace mlir::gather;

#define GET_OP_CLASSES
#include "gather/Dialect/Gather/IR/GatherOps.cpp.inc"

//===----------------------------------------------------------------------===//
// Shared op logic
//===----------------------------------------------------------------------===//

static ArrayRef<int64_t> shapeOf(Value value) {
  return cast<RankedTensorType>(value.getType()).getShape();
}

/// Runs `analyze` with diagnostics prefixed like Operation::emitOpError, so
/// that errors found during type inference (which the verifier runs first)
/// read the same as the op's own verifier errors.
template <typename OpTy, typename AnalyzeFn>
static LogicalResult
inferGatherType(std::optional<Location> location, Value data, Value indices,
                AnalyzeFn &&analyze, SmallVectorImpl<Type> &inferred) {
  auto dataType = dyn_cast<RankedTensorType>(data.getType());
  auto indicesType = dyn_cast<RankedTensorType>(indices.getType());
  if (!dataType || !indicesType)
    return emitOptionalError(location, "'", OpTy::getOperationName(),
                             "' op expects ranked tensor operands");
  auto emitOpError = [&]() -> InFlightDiagnostic {
    return mlir::emitError(*location)
           << "'" << OpTy::getOperationName() << "' op ";
  };
  EmitErrorFn emitFn = location ? EmitErrorFn(emitOpError) : EmitErrorFn();
  FailureOr<GatherShape> shape =
      analyze(dataType.getShape(), indicesType.getShape(), emitFn);
  if (failed(shape))
    return failure();
  inferred.push_back(
      RankedTensorType::get(shape->outputShape, dataType.getElementType()));
  return success();
}

/// The written result type may refine or relax dimensions (a `?` on either
/// side matches anything) but must agree in rank, static sizes and element
/// type.
static bool areCompatibleGatherTypes(TypeRange inferred, TypeRange actual) {
  if (inferred.size() != 1 || actual.size() != 1)
    return false;
  auto lhs = dyn_cast<RankedTensorType>(inferred.front());
  auto rhs = dyn_cast<RankedTensorType>(actual.front());
  return lhs && rhs && lhs.getElementType() == rhs.getElementType() &&
         succeeded(verifyCompatibleShape(lhs.getShape(), rhs.getShape()));
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

/// Upstream runs `verify()` before the InferTypeOpInterface check (a region
/// trait), so the shape rules are reported here, with the op's own prefix.
/// The written result type is checked here too, so that a mismatch names the
/// dimension instead of the trait's generic "failed to infer" message.
template <typename OpTy> static LogicalResult verifyGatherShapes(OpTy op) {
  FailureOr<GatherShape> shape =
      op.analyzeShapes([&]() { return op.emitOpError(); });
  if (failed(shape))
    return failure();
  auto dataType = cast<RankedTensorType>(op->getOperand(0).getType());
  RankedTensorType resultType = op.getOutput().getType();
  if (resultType.getElementType() != dataType.getElementType())
    return op.emitOpError("result element type ")
           << resultType.getElementType() << " must equal the "
           << (isa<MultiaxisOp>(op) ? "input" : "data") << " element type "
           << dataType.getElementType();
  ArrayRef<int64_t> inferred = shape->outputShape;
  if (resultType.getRank() != static_cast<int64_t>(inferred.size()))
    return op.emitOpError("result rank (")
           << resultType.getRank() << ") must be " << inferred.size()
           << " (inferred result type "
           << RankedTensorType::get(inferred, dataType.getElementType()) << ")";
  for (auto [dim, sizes] :
       llvm::enumerate(llvm::zip(resultType.getShape(), inferred))) {
    auto [written, expected] = sizes;
    if (ShapedType::isDynamic(written) || ShapedType::isDynamic(expected) ||
        written == expected)
      continue;
    return op.emitOpError("result dimension ")
           << dim << " (" << written << ") must be " << expected
           << " (inferred result type "
           << RankedTensorType::get(inferred, dataType.getElementType()) << ")";
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
    int64_t dataDim =
        dimForComponent[(position % lastSize) % dimForComponent.size()];
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
  LogicalResult OpTy::inferReturnTypes(                                        \
      MLIRContext *, std::optional<Location> location, Adaptor adaptor,        \
      SmallVectorImpl<Type> &inferred) {                                       \
    return inferGatherType<OpTy>(                                              \
        location, adaptor.getOperands()[0], adaptor.getIndices(),              \
        [&](ArrayRef<int64_t> dataShape, ArrayRef<int64_t> indicesShape,       \
            EmitErrorFn emitError) {                                           \
          return AnalyzeExpr(dataShape, indicesShape, emitError);              \
        },                                                                     \
        inferred);                                                             \
  }                                                                            \
  bool OpTy::isCompatibleReturnTypes(TypeRange inferred, TypeRange actual) {   \
    return areCompatibleGatherTypes(inferred, actual);                         \
  }                                                                            \
  Speculation::Speculatability OpTy::getSpeculatability() {                    \
    return getIndexPolicy().getSpeculatability();                              \
  }                                                                            \
  LogicalResult OpTy::reifyResultShapes(                                       \
      OpBuilder &builder, ReifiedRankedShapedTypeDims &reified) {              \
    return reifyGatherShape(*this, builder, reified);                          \
  }

//===----------------------------------------------------------------------===//
// MultiaxisOp
//===----------------------------------------------------------------------===//

#define MULTIAXIS_ANALYZE(data, indices, emit)                                 \
  analyzeMultiaxisShapes(data, indices, adaptor.getAxes(), emit)
GATHER_COMMON_METHODS(MultiaxisOp, MULTIAXIS_ANALYZE)

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

LogicalResult NdOp::verify() {
  if (failed(verifyGatherShapes(*this)))
    return failure();
  int64_t batchDims = getBatchDims();
  int64_t coordinateSize = getIndices().getType().getShape().back();
  SmallVector<int64_t> dims = llvm::to_vector(
      llvm::seq<int64_t>(batchDims, batchDims + coordinateSize));
  return verifyConstantIndices(*this, dims);
}
