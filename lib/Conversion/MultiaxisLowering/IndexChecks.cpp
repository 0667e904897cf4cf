//===- RuntimeChecks.cpp - what only the run time can decide --------------===//
//
// Part of the gather project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// The lowering's own checks (the shape rules are Utils/RuntimeChecks.h's):
// each returns an i1 "holds" (or null when nothing needs checking);
// LowerMultiaxis.cpp decides what a failure does.
//
//===----------------------------------------------------------------------===//

#include "IndexChecks.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Arith/Utils/Utils.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/Matchers.h"

using namespace mlir;
using namespace mlir::gather;
using namespace mlir::gather::lowering;

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

Value lowering::buildIndicesAllValid(OpBuilder &b, Location loc,
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
  if (!s.policy.isSpeculatable() && !s.checksInLoops())
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
