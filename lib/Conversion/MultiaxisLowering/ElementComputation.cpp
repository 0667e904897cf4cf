//===- ElementComputation.cpp - the scalar semantics of gather.multiaxis --===//
//
// Part of the gather project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// One output element from its coordinate, by the multiaxis rule and the
// read policy of the semantics library (Semantics.h), with what only the
// lowering has: the table of resolved indices and the error flag. Every
// strategy starts from here; the vector rows do the same per lane.
//
//===----------------------------------------------------------------------===//

#include "IndexTables.h"
#include "LoweringState.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"

using namespace mlir;
using namespace mlir::gather;
using namespace mlir::gather::lowering;

Value lowering::constIndex(OpBuilder &b, Location loc, int64_t v) {
  return arith::ConstantIndexOp::create(b, loc, v);
}

Value lowering::collapseToOneDimension(OpBuilder &b, Location loc,
                                       Value tensor) {
  SmallVector<ReassociationIndices> all(1);
  for (int64_t d = 0; d < cast<RankedTensorType>(tensor.getType()).getRank();
       ++d)
    all[0].push_back(d);
  return tensor::CollapseShapeOp::create(b, loc, tensor, all);
}

SmallVector<Value> lowering::rowMajorStrides(OpBuilder &b, Location loc,
                                             ArrayRef<Value> sizes) {
  SmallVector<Value> strides(sizes.size());
  Value stride = constIndex(b, loc, 1);
  for (int64_t d = sizes.size() - 1; d >= 0; --d) {
    strides[d] = stride;
    stride = arith::MulIOp::create(b, loc, stride, sizes[d]);
  }
  return strides;
}

bool lowering::slicesAllowed(
    Value tensor, function_ref<bool(tensor::ExtractSliceOp)> allowed) {
  while (Operation *def = tensor.getDefiningOp()) {
    if (auto slice = dyn_cast<tensor::ExtractSliceOp>(def)) {
      if (!allowed(slice))
        return false;
    } else if (!isa<tensor::ExpandShapeOp, tensor::CollapseShapeOp,
                    tensor::CastOp>(def)) {
      return true;
    }
    tensor = def->getOperand(0);
  }
  return true;
}

bool lowering::keepsUnitStrideRows(tensor::ExtractSliceOp slice) {
  return slice.getSourceType().getRank() == slice.getType().getRank() &&
         getConstantIntValue(slice.getMixedStrides().back()) ==
             std::optional<int64_t>(1);
}

Value lowering::notValue(OpBuilder &b, Location loc, Value value) {
  Type type = value.getType();
  Value ones =
      isa<VectorType>(type)
          ? arith::ConstantOp::create(
                b, loc, type,
                DenseElementsAttr::get(cast<ShapedType>(type),
                                       b.getBoolAttr(true)))
                .getResult()
          : arith::ConstantIntOp::create(b, loc, b.getI1Type(), 1).getResult();
  return arith::XOrIOp::create(b, loc, value, ones);
}

Value lowering::andValues(OpBuilder &b, Location loc, Value lhs, Value rhs) {
  if (!lhs)
    return rhs;
  if (!rhs)
    return lhs;
  return arith::AndIOp::create(b, loc, lhs, rhs);
}

Value lowering::wholeStepsEnd(OpBuilder &b, Location loc, Value length,
                              Value step) {
  return arith::MulIOp::create(
      b, loc, arith::DivUIOp::create(b, loc, length, step), step);
}

Value lowering::buildVersions(
    OpBuilder &b, Location loc, Value condition,
    function_ref<Value(OpBuilder &, Location)> specialized,
    function_ref<Value(OpBuilder &, Location)> general) {
  return scf::IfOp::create(
             b, loc, condition,
             [&](OpBuilder &tb, Location tl) {
               scf::YieldOp::create(tb, tl, specialized(tb, tl));
             },
             [&](OpBuilder &eb, Location el) {
               scf::YieldOp::create(eb, el, general(eb, el));
             })
      .getResult(0);
}

Value lowering::toIndex(OpBuilder &b, Location loc, Value value) {
  if (value.getType().isIndex())
    return value;
  return arith::IndexCastOp::create(b, loc, b.getIndexType(), value);
}

LoweringState lowering::prepareLowering(OpBuilder &b, Location loc,
                                        MultiaxisOp op) {
  LoweringState s;
  static_cast<MultiaxisIndexing &>(s) = buildMultiaxisIndexing(b, loc, op);
  s.op = op;
  return s;
}

InputCoords lowering::computeInputCoords(OpBuilder &b, Location loc,
                                         const LoweringState &s,
                                         ValueRange coords) {
  return buildInputCoords(
      b, loc, s, coords,
      [&](OpBuilder &nb, Location nl, ArrayRef<Value> position,
          int64_t c) -> ResolvedIndexValue {
        if (!s.resolved) {
          Value raw = buildElementRead(nb, nl, s.op.getIndices(), position);
          return buildResolvedIndex(nb, nl, s.policy, toIndex(nb, nl, raw),
                                    s.inputSize[s.axes[c]]);
        }
        // The table applied the policy (and reported bad indices) already.
        Value index = tensor::ExtractOp::create(nb, nl, s.resolved, position);
        if (!fillsInvalid(s))
          return {index, Value()};
        auto [read, valid] = readFillTableEntry(nb, nl, index);
        return {read, valid};
      });
}

Value lowering::computeElement(OpBuilder &b, Location loc,
                               const LoweringState &s, ValueRange coords) {
  InputCoords at = computeInputCoords(b, loc, s, coords);
  Value element = buildElementRead(b, loc, s.op.getInput(), at.coords);
  return applyReadPolicy(b, loc, s.policy, at.valid, element,
                         [&](OpBuilder &nb, Location nl, Value invalid) {
                           reportIfAnyInvalid(nb, nl, s, invalid);
                         });
}

void lowering::reportInvalidIndex(OpBuilder &b, Location loc,
                                  const LoweringState &s) {
  if (s.loopReport == LoweringState::LoopReport::InPlace) {
    buildIndexCheck(b, loc, s.op, /*assumeInvalid=*/true);
    return;
  }
  Type flagType = cast<MemRefType>(s.errorFlag.getType()).getElementType();
  Value one = arith::ConstantIntOp::create(b, loc, flagType, 1);
  memref::StoreOp::create(b, loc, one, s.errorFlag, ValueRange{});
}

void lowering::reportIfAnyInvalid(OpBuilder &b, Location loc,
                                  const LoweringState &s, Value anyInvalid) {
  if (!anyInvalid || !s.checksInLoops())
    return;
  // A store only on the (rare) failure: no write traffic in the loops, and
  // every writer stores the same value.
  scf::IfOp::create(b, loc, anyInvalid, [&](OpBuilder &tb, Location tl) {
    reportInvalidIndex(tb, tl, s);
    scf::YieldOp::create(tb, tl);
  });
}

Value lowering::addressedSize(OpBuilder &b, Location loc,
                              const LoweringState &s, Value lastPos) {
  return buildSelectAddressed(b, loc, lastPos, s.axes.size(), [&](int64_t c) {
    return s.inputSize[s.axes[c]];
  });
}
