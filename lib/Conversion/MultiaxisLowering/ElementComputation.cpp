//===- ElementComputation.cpp - the scalar semantics of gather.multiaxis --===//
//
// One output element from its coordinate: broadcast coordinates, the index
// values read from the indices, the index policy, the input element. Every
// strategy starts from here; the vector rows do the same per lane.
//
//===----------------------------------------------------------------------===//

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

Value lowering::toIndex(OpBuilder &b, Location loc, Value value) {
  if (value.getType().isIndex())
    return value;
  return arith::IndexCastOp::create(b, loc, b.getIndexType(), value);
}

LoweringState lowering::prepareLowering(OpBuilder &b, Location loc,
                                        MultiaxisOp op) {
  LoweringState s;
  s.op = op;
  s.policy = op.getIndexPolicy();
  auto inputType = cast<ShapedType>(op.getInput().getType());
  auto indicesType = cast<ShapedType>(op.getIndices().getType());
  s.rank = inputType.getRank();
  s.coordinateSize = op.getCoordinateSize();
  s.axes = llvm::to_vector(op.getAxes());
  Value one = constIndex(b, loc, 1);
  for (int64_t d = 0; d < s.rank; ++d) {
    int64_t divisor = d == s.rank - 1 ? s.coordinateSize : 1;
    int64_t staticIn = inputType.getDimSize(d);
    int64_t staticIdx =
        getLogicalIndicesSize(indicesType.getDimSize(d), divisor);
    Value in = inputType.isDynamicDim(d)
                   ? buildDimSize(b, loc, op.getInput(), d)
                   : constIndex(b, loc, staticIn);
    Value idx = buildLogicalIndicesSize(b, loc, op.getIndices(), d, divisor);
    s.inputSize.push_back(in);
    s.logicalIndicesSize.push_back(idx);
    auto unitOf = [&](int64_t staticSize, Value size,
                      std::optional<bool> &isStatic, Value &dynamicFlag) {
      if (!ShapedType::isDynamic(staticSize)) {
        isStatic = staticSize == 1;
        return;
      }
      dynamicFlag =
          arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq, size, one);
    };
    s.inputUnitStatic.emplace_back();
    s.indicesUnitStatic.emplace_back();
    s.inputUnit.emplace_back();
    s.indicesUnit.emplace_back();
    unitOf(staticIn, in, s.inputUnitStatic.back(), s.inputUnit.back());
    unitOf(staticIdx, idx, s.indicesUnitStatic.back(), s.indicesUnit.back());
    // Where one side of a non-axis broadcast is statically 1 the output
    // size is the other side's: its coordinate needs no select.
    if (!llvm::is_contained(s.axes, d)) {
      if (s.indicesUnitStatic.back() == std::optional<bool>(true))
        s.inputUnitStatic.back() = false;
      if (s.inputUnitStatic.back() == std::optional<bool>(true) &&
          staticIn == 1)
        s.indicesUnitStatic.back() = false;
    }
  }
  return s;
}

Value lowering::broadcastCoord(OpBuilder &b, Location loc, Value outCoord,
                               std::optional<bool> unitStatic, Value unitFlag) {
  if (unitStatic)
    return *unitStatic ? constIndex(b, loc, 0) : outCoord;
  return arith::SelectOp::create(b, loc, unitFlag, constIndex(b, loc, 0),
                                 outCoord);
}

InputCoords lowering::computeInputCoords(OpBuilder &b, Location loc,
                                         const LoweringState &s,
                                         ValueRange coords) {
  MultiaxisOp op = s.op;
  int64_t rank = s.rank;
  SmallVector<Value> indicesPos;
  InputCoords result;
  for (int64_t d = 0; d < rank; ++d) {
    indicesPos.push_back(broadcastCoord(
        b, loc, coords[d], s.indicesUnitStatic[d], s.indicesUnit[d]));
    result.coords.push_back(broadcastCoord(
        b, loc, coords[d], s.inputUnitStatic[d], s.inputUnit[d]));
  }
  Value base;
  if (rank > 0) {
    base = indicesPos.back();
    if (s.coordinateSize != 1)
      base = arith::MulIOp::create(b, loc, base,
                                   constIndex(b, loc, s.coordinateSize));
  }
  for (auto [j, axis] : llvm::enumerate(s.axes)) {
    SmallVector<Value> pos = indicesPos;
    pos.back() =
        j == 0 ? base
               : arith::AddIOp::create(b, loc, base, constIndex(b, loc, j))
                     .getResult();
    if (s.resolved) {
      // The table applied the policy (and reported bad indices) already.
      Value index = tensor::ExtractOp::create(b, loc, s.resolved, pos);
      if (fillsInvalid(s)) {
        Value valid = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::sge,
                                            index, constIndex(b, loc, 0));
        index = arith::SelectOp::create(b, loc, valid, index,
                                        constIndex(b, loc, 0));
        result.valid = andValues(b, loc, result.valid, valid);
      }
      result.coords[axis] = index;
      continue;
    }
    Value raw = buildElementRead(b, loc, op.getIndices(), pos);
    ResolvedIndexValue resolved = buildResolvedIndex(
        b, loc, s.policy, toIndex(b, loc, raw), s.inputSize[axis]);
    result.valid = andValues(b, loc, result.valid, resolved.valid);
    result.coords[axis] = resolved.index;
  }
  return result;
}

Value lowering::computeElement(OpBuilder &b, Location loc,
                               const LoweringState &s, ValueRange coords) {
  InputCoords at = computeInputCoords(b, loc, s, coords);
  Value element = buildElementRead(b, loc, s.op.getInput(), at.coords);
  if (at.valid && !fillsInvalid(s)) {
    reportIfInvalid(b, loc, s, at.valid);
  } else if (at.valid) {
    Type elementType = element.getType();
    Value zero = arith::ConstantOp::create(b, loc, elementType,
                                           b.getZeroAttr(elementType));
    element = arith::SelectOp::create(b, loc, at.valid, element, zero);
  }
  return element;
}

void lowering::reportIfInvalid(OpBuilder &b, Location loc,
                               const LoweringState &s, Value valid) {
  if (!valid || !s.errorFlag)
    return;
  reportIfAnyInvalid(b, loc, s, notValue(b, loc, valid));
}

void lowering::reportIfAnyInvalid(OpBuilder &b, Location loc,
                                  const LoweringState &s, Value anyInvalid) {
  if (!anyInvalid || !s.errorFlag)
    return;
  // A store only on the (rare) failure: no write traffic in the loops, and
  // every writer stores the same value.
  scf::IfOp::create(b, loc, anyInvalid, [&](OpBuilder &tb, Location tl) {
    Type flagType = cast<MemRefType>(s.errorFlag.getType()).getElementType();
    Value one = arith::ConstantIntOp::create(tb, tl, flagType, 1);
    memref::StoreOp::create(tb, tl, one, s.errorFlag, ValueRange{});
    scf::YieldOp::create(tb, tl);
  });
}

Value lowering::addressedSize(OpBuilder &b, Location loc,
                              const LoweringState &s, Value lastPos) {
  return buildSelectAddressed(b, loc, lastPos, s.axes.size(), [&](int64_t c) {
    return s.inputSize[s.axes[c]];
  });
}
