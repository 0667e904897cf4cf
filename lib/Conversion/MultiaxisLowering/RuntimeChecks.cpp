//===- RuntimeChecks.cpp - what only the run time can decide --------------===//
//
// Each check returns an i1 "holds" (or null when nothing needs checking);
// LowerMultiaxis.cpp decides what a failure does.
//
//===----------------------------------------------------------------------===//

#include "LoweringState.h"
#include "gather/Conversion/MultiaxisLowering/RuntimeErrors.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Arith/Utils/Utils.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/Matchers.h"

using namespace mlir;
using namespace mlir::gather;
using namespace mlir::gather::lowering;

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
    all = andValues(b, loc, all, check.holds);
  return all;
}

void mlir::gather::reportFailedShapeCheck(
    OpBuilder &b, Location loc, Operation *gatherOp,
    ArrayRef<RuntimeShapeCheck> checks, SymbolTableCollection *symbolTables) {
  assert(!checks.empty() && "no check can fail");
  // Select from the last check to the first: the first failing one wins.
  const RuntimeShapeCheck &last = checks.back();
  Type i64 = b.getI64Type();
  Value kind = arith::ConstantIntOp::create(b, loc, i64,
                                            static_cast<int64_t>(last.kind));
  Value dim = constIndex(b, loc, last.dim);
  Value lhs = last.lhs, rhs = last.rhs;
  for (const RuntimeShapeCheck &check : llvm::reverse(checks.drop_back())) {
    Value failed = notValue(b, loc, check.holds);
    kind = arith::SelectOp::create(
        b, loc, failed,
        arith::ConstantIntOp::create(b, loc, i64,
                                     static_cast<int64_t>(check.kind)),
        kind);
    dim = arith::SelectOp::create(b, loc, failed, constIndex(b, loc, check.dim),
                                  dim);
    lhs = arith::SelectOp::create(b, loc, failed, check.lhs, lhs);
    rhs = arith::SelectOp::create(b, loc, failed, check.rhs, rhs);
  }
  emitRuntimeErrorCall(b, loc, gatherOp, kind, ValueRange{dim, lhs, rhs},
                       symbolTables);
}

bool lowering::needsIndexCheck(MultiaxisOp op) {
  if (op.getAxes().empty() || !op.getIndexPolicy().canTrap())
    return false;
  // Constant indices against static axis sizes were proven in bounds by the
  // verifier: no run-time check.
  auto inputType = cast<ShapedType>(op.getInput().getType());
  return !matchPattern(op.getIndices(), m_Constant()) ||
         llvm::any_of(op.getAxes(), [&](int64_t axis) {
           return inputType.isDynamicDim(axis);
         });
}

Value lowering::buildIndexCheck(OpBuilder &b, Location loc,
                                const LoweringState &s,
                                AllOfBuilder buildAllOf) {
  IndexPolicy policy = s.op.getIndexPolicy();
  return buildAllOf(
      b, loc, s.op.getIndices(),
      [&](OpBuilder &nb, Location nloc, Value raw, Value lastPos) -> Value {
        // The data dimension this value indexes: axes[lastPos % k].
        Value size = addressedSize(nb, nloc, s, lastPos);
        return buildIsValidIndex(nb, nloc, policy, toIndex(nb, nloc, raw),
                                 size);
      });
}

Value lowering::buildNonEmptyAxesCheck(OpBuilder &b, Location loc,
                                       const LoweringState &s) {
  // Where an invalid index reads element 0 (clamp, fill, a check in the
  // loops) an empty axis has no element 0.
  if (!s.policy.isSpeculatable() && !s.errorFlag)
    return nullptr;
  Value ok;
  auto inputType = cast<ShapedType>(s.op.getInput().getType());
  for (int64_t axis : s.axes) {
    if (!inputType.isDynamicDim(axis) && inputType.getDimSize(axis) > 0)
      continue;
    ok = andValues(b, loc, ok,
                   arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ne,
                                         s.inputSize[axis],
                                         constIndex(b, loc, 0)));
  }
  return ok;
}


