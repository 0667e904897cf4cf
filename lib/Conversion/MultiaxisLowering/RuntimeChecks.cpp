//===- RuntimeChecks.cpp - what only the run time can decide --------------===//
//
// Each check returns an i1 "holds" (or null when nothing needs checking);
// LowerMultiaxis.cpp decides what a failure does.
//
//===----------------------------------------------------------------------===//

#include "LoweringState.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/Matchers.h"

using namespace mlir;
using namespace mlir::gather;
using namespace mlir::gather::lowering;

/// Dynamic broadcasts are compatible and a dynamic last dimension holds
/// whole coordinates.
Value lowering::buildShapeCheck(OpBuilder &b, Location loc,
                                const LoweringState &s) {
  Value ok;
  auto indicesType = s.op.getIndices().getType();
  auto inputType = s.op.getInput().getType();
  for (int64_t d = 0; d < s.rank; ++d) {
    if (llvm::is_contained(s.axes, d))
      continue;
    int64_t staticIn = inputType.getDimSize(d);
    int64_t staticIdx = getLogicalIndicesSize(
        indicesType.getDimSize(d), d == s.rank - 1 ? s.coordinateSize : 1);
    // Verified statically, or a static 1 that broadcasts to anything.
    if ((!ShapedType::isDynamic(staticIn) &&
         !ShapedType::isDynamic(staticIdx)) ||
        staticIn == 1 || staticIdx == 1)
      continue;
    ok = andValues(b, loc, ok,
                   buildBroadcastCompatible(b, loc, s.inputSize[d],
                                            s.logicalIndicesSize[d]));
  }
  if (s.rank > 0 && s.coordinateSize > 1 &&
      indicesType.isDynamicDim(s.rank - 1)) {
    Value last = tensor::DimOp::create(b, loc, s.op.getIndices(), s.rank - 1);
    Value rem = arith::RemUIOp::create(b, loc, last,
                                       constIndex(b, loc, s.coordinateSize));
    ok = andValues(b, loc, ok,
                   arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq, rem,
                                         constIndex(b, loc, 0)));
  }
  return ok;
}

bool lowering::needsIndexCheck(MultiaxisOp op) {
  if (op.getAxes().empty() || !op.getIndexPolicy().canTrap())
    return false;
  // Constant indices against static axis sizes were proven in bounds by the
  // verifier: no run-time check.
  auto inputType = op.getInput().getType();
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
  auto inputType = s.op.getInput().getType();
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

Value lowering::buildElementsSizeCheck(OpBuilder &b, Location loc,
                                       ElementsOp op) {
  Value fits;
  for (int64_t d : getRuntimeBoundedDims(op)) {
    Value dataSize = tensor::DimOp::create(b, loc, op.getData(), d);
    Value indicesSize = tensor::DimOp::create(b, loc, op.getIndices(), d);
    Value ok = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ule,
                                     indicesSize, dataSize);
    fits = andValues(b, loc, fits, ok);
  }
  return fits;
}
