//===- Semantics.cpp - what a gather computes, as IR ----------------------===//
//
// Part of the gather project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "gather/Dialect/Gather/Utils/Semantics.h"
#include "gather/Dialect/Gather/Utils/RuntimeChecks.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"

using namespace mlir;
using namespace mlir::gather;

static Value constIndex(OpBuilder &b, Location loc, int64_t v) {
  return arith::ConstantIndexOp::create(b, loc, v);
}

static Value andValues(OpBuilder &b, Location loc, Value lhs, Value rhs) {
  if (!lhs)
    return rhs;
  if (!rhs)
    return lhs;
  return arith::AndIOp::create(b, loc, lhs, rhs);
}

static Value toIndex(OpBuilder &b, Location loc, Value value) {
  if (value.getType().isIndex())
    return value;
  return arith::IndexCastOp::create(b, loc, b.getIndexType(), value);
}

//===----------------------------------------------------------------------===//
// The multiaxis rule
//===----------------------------------------------------------------------===//

MultiaxisIndexing mlir::gather::buildMultiaxisIndexing(
    OpBuilder &b, Location loc, IndexPolicy policy, ArrayRef<int64_t> axes,
    ArrayRef<int64_t> inputShape, ArrayRef<int64_t> indicesShape,
    function_ref<Value(int64_t)> inputDim,
    function_ref<Value(int64_t)> indicesDim) {
  MultiaxisIndexing s;
  s.policy = policy;
  s.rank = inputShape.size();
  s.coordinateSize = std::max<int64_t>(axes.size(), 1);
  s.axes.assign(axes.begin(), axes.end());
  Value one = constIndex(b, loc, 1);
  for (int64_t d = 0; d < s.rank; ++d) {
    int64_t divisor = d == s.rank - 1 ? s.coordinateSize : 1;
    int64_t staticIn = inputShape[d];
    int64_t staticIdx = getLogicalIndicesSize(indicesShape[d], divisor);
    Value in = ShapedType::isDynamic(staticIn) ? inputDim(d)
                                               : constIndex(b, loc, staticIn);
    Value idx;
    if (!ShapedType::isDynamic(indicesShape[d])) {
      idx = constIndex(b, loc, staticIdx);
    } else {
      idx = indicesDim(d);
      if (divisor != 1)
        idx = arith::DivUIOp::create(b, loc, idx, constIndex(b, loc, divisor));
    }
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

MultiaxisIndexing mlir::gather::buildMultiaxisIndexing(OpBuilder &b,
                                                       Location loc,
                                                       MultiaxisOp op) {
  Value input = op.getInput(), indices = op.getIndices();
  return buildMultiaxisIndexing(
      b, loc, op.getIndexPolicy(), op.getAxes(),
      cast<ShapedType>(input.getType()).getShape(),
      cast<ShapedType>(indices.getType()).getShape(),
      [&](int64_t d) { return buildDimSize(b, loc, input, d); },
      [&](int64_t d) { return buildDimSize(b, loc, indices, d); });
}

Value mlir::gather::broadcastCoord(OpBuilder &b, Location loc, Value outCoord,
                                   std::optional<bool> unitStatic,
                                   Value unitFlag) {
  if (unitStatic)
    return *unitStatic ? constIndex(b, loc, 0) : outCoord;
  return arith::SelectOp::create(b, loc, unitFlag, constIndex(b, loc, 0),
                                 outCoord);
}

/// The indices position of component 0 and the input coordinates that
/// follow the output (built together, in the order of the dimensions).
static SmallVector<Value> buildBasePosition(OpBuilder &b, Location loc,
                                            const MultiaxisIndexing &s,
                                            ValueRange coords,
                                            SmallVectorImpl<Value> *input) {
  SmallVector<Value> position;
  for (int64_t d = 0; d < s.rank; ++d) {
    position.push_back(broadcastCoord(b, loc, coords[d], s.indicesUnitStatic[d],
                                      s.indicesUnit[d]));
    if (input)
      input->push_back(broadcastCoord(b, loc, coords[d], s.inputUnitStatic[d],
                                      s.inputUnit[d]));
  }
  if (s.rank > 0 && s.coordinateSize != 1)
    position.back() = arith::MulIOp::create(
        b, loc, position.back(), constIndex(b, loc, s.coordinateSize));
  return position;
}

/// `base` moved to component `c` along the last dimension.
static SmallVector<Value> atComponent(OpBuilder &b, Location loc,
                                      ArrayRef<Value> base, int64_t c) {
  SmallVector<Value> position(base);
  if (c != 0 && !position.empty())
    position.back() =
        arith::AddIOp::create(b, loc, position.back(), constIndex(b, loc, c));
  return position;
}

SmallVector<Value>
mlir::gather::buildIndicesPosition(OpBuilder &b, Location loc,
                                   const MultiaxisIndexing &s,
                                   ValueRange coords, int64_t component) {
  return atComponent(b, loc,
                     buildBasePosition(b, loc, s, coords, /*input=*/nullptr),
                     component);
}

InputCoords mlir::gather::buildInputCoords(OpBuilder &b, Location loc,
                                           const MultiaxisIndexing &s,
                                           ValueRange coords,
                                           ResolveComponentFn resolve) {
  InputCoords result;
  SmallVector<Value> base =
      buildBasePosition(b, loc, s, coords, &result.coords);
  for (auto [c, axis] : llvm::enumerate(s.axes)) {
    ResolvedIndexValue resolved =
        resolve(b, loc, atComponent(b, loc, base, c), c);
    result.valid = andValues(b, loc, result.valid, resolved.valid);
    result.coords[axis] = resolved.index;
  }
  return result;
}

Value mlir::gather::raiseInvalidReads(
    OpBuilder &b, Location loc, IndexPolicy policy, Value valid,
    function_ref<void(OpBuilder &, Location, Value invalid)> raise) {
  if (!valid)
    return Value();
  if (policy.outOfBounds == OutOfBoundsMode::fill)
    return valid;
  if (policy.canTrap() && raise) {
    Type type = valid.getType();
    Value ones = isa<VectorType>(type)
                     ? arith::ConstantOp::create(
                           b, loc, type,
                           DenseElementsAttr::get(cast<ShapedType>(type),
                                                  b.getBoolAttr(true)))
                           .getResult()
                     : arith::ConstantIntOp::create(b, loc, b.getI1Type(), 1)
                           .getResult();
    raise(b, loc, arith::XOrIOp::create(b, loc, valid, ones));
  }
  return Value();
}

Value mlir::gather::applyReadPolicy(
    OpBuilder &b, Location loc, IndexPolicy policy, Value valid, Value value,
    function_ref<void(OpBuilder &, Location, Value invalid)> raise,
    function_ref<Value(OpBuilder &, Location, Value valid, Value value)>
        fillValue) {
  Value fillValid = raiseInvalidReads(b, loc, policy, valid, raise);
  if (!fillValid)
    return value;
  if (fillValue)
    return fillValue(b, loc, fillValid, value);
  Type type = value.getType();
  Value zero = arith::ConstantOp::create(b, loc, type, b.getZeroAttr(type));
  return arith::SelectOp::create(b, loc, fillValid, value, zero);
}

//===----------------------------------------------------------------------===//
// Any gather through its multiaxis form
//===----------------------------------------------------------------------===//

namespace {
/// A gather op (any of the four, on tensors or buffers of any layout) seen
/// as the gather.multiaxis of its Gather Multiaxis form (MultiaxisForm),
/// without reshaping its operands: the sizes of the multiaxis operands and
/// the reads of their elements are mapped onto the op's own operands
/// through the form's reshapes.
struct MultiaxisView {
  MultiaxisView(Operation *gatherOp)
      : form(getMultiaxisForm(gatherOp)),
        source(cast<GatherOpInterface>(gatherOp).getSource()),
        indices(cast<GatherOpInterface>(gatherOp).getIndices()) {}

  MultiaxisForm form;
  Value source, indices;

  ArrayRef<int64_t> inputShape() const { return form.data.resultShape; }
  ArrayRef<int64_t> indicesShape() const { return form.indices.resultShape; }

  /// The written dimension of `source` at multiaxis input dimension `dim`,
  /// or -1 for an inserted unit.
  int64_t sourceDimOf(int64_t dim) const {
    auto it = llvm::find(form.data.positions, dim);
    return it == form.data.positions.end() ? -1
                                           : it - form.data.positions.begin();
  }

  /// The written indices dimensions that make up multiaxis indices
  /// dimension `dim`, outermost first (none for an inserted unit).
  SmallVector<int64_t> indicesDimsOf(int64_t dim) const {
    if (form.indices.expand) {
      auto it = llvm::find(form.indices.positions, dim);
      if (it == form.indices.positions.end())
        return {};
      return {it - form.indices.positions.begin()};
    }
    // A collapse (GatherND's coordinate fold): the group's dimensions.
    return llvm::to_vector(form.indices.reassociation[dim]);
  }

  Value inputSize(OpBuilder &b, Location loc, int64_t dim) const {
    // gather.elements reads the leading part of the data where the indices
    // are smaller (the rewrite slices it): there the indices give the size.
    if (llvm::is_contained(form.sliceDataDims, dim))
      return buildDimSize(b, loc, indices, dim);
    int64_t written = sourceDimOf(dim);
    return written < 0 ? constIndex(b, loc, 1)
                       : buildDimSize(b, loc, source, written);
  }

  Value indicesSize(OpBuilder &b, Location loc, int64_t dim) const {
    Value size = constIndex(b, loc, 1);
    for (int64_t written : indicesDimsOf(dim))
      size = arith::MulIOp::create(b, loc, size,
                                   buildDimSize(b, loc, indices, written));
    return size;
  }

  /// The multiaxis input shape with the sliced dimensions of
  /// gather.elements at the indices' sizes.
  SmallVector<int64_t> slicedInputShape() const {
    SmallVector<int64_t> shape(inputShape());
    for (int64_t d : form.sliceDataDims)
      shape[d] = indicesShape()[d];
    return shape;
  }

  /// The value at multiaxis indices position `position`.
  Value readIndex(OpBuilder &b, Location loc, ArrayRef<Value> position) const {
    auto type = cast<ShapedType>(indices.getType());
    SmallVector<Value> at(type.getRank());
    for (auto [dim, pos] : llvm::enumerate(position)) {
      SmallVector<int64_t> parts = indicesDimsOf(dim);
      // Row-major parts: the innermost is the remainder.
      Value rest = pos;
      for (int64_t p = parts.size() - 1; p >= 0; --p) {
        if (p == 0) {
          at[parts[p]] = rest;
          break;
        }
        Value size = buildDimSize(b, loc, indices, parts[p]);
        at[parts[p]] = arith::RemUIOp::create(b, loc, rest, size);
        rest = arith::DivUIOp::create(b, loc, rest, size);
      }
    }
    return buildElementRead(b, loc, indices, at);
  }

  /// The source coordinates of multiaxis input coordinates `coords`.
  SmallVector<Value> sourceCoords(ArrayRef<Value> coords) const {
    SmallVector<Value> at(form.data.positions.size());
    for (auto [written, dim] : llvm::enumerate(form.data.positions))
      at[written] = coords[dim];
    return at;
  }

  /// The multiaxis output coordinates of output coordinates `coords` (the
  /// units the output reshape removed are 0).
  SmallVector<Value> multiaxisOutputCoords(OpBuilder &b, Location loc,
                                           ValueRange coords) const {
    int64_t rank = inputShape().size();
    SmallVector<Value> at(rank);
    for (auto [written, dim] : llvm::enumerate(form.output.positions))
      at[dim] = coords[written];
    for (Value &coord : at)
      if (!coord)
        coord = constIndex(b, loc, 0);
    return at;
  }
};
} // namespace

GatherElementValue mlir::gather::buildGatherElement(OpBuilder &b, Location loc,
                                                    Operation *gatherOp,
                                                    ValueRange coords) {
  auto op = cast<GatherOpInterface>(gatherOp);
  IndexPolicy policy = op.getIndexPolicy();
  MultiaxisView view(gatherOp);
  Value source = view.source;
  auto sourceType = cast<ShapedType>(source.getType());
  Type elementType = sourceType.getElementType();

  MultiaxisIndexing indexing = buildMultiaxisIndexing(
      b, loc, policy, view.form.axes, view.slicedInputShape(),
      view.indicesShape(), [&](int64_t d) { return view.inputSize(b, loc, d); },
      [&](int64_t d) { return view.indicesSize(b, loc, d); });
  InputCoords input = buildInputCoords(
      b, loc, indexing, view.multiaxisOutputCoords(b, loc, coords),
      [&](OpBuilder &nb, Location nl, ArrayRef<Value> position,
          int64_t c) -> ResolvedIndexValue {
        Value raw = view.readIndex(nb, nl, position);
        return buildResolvedIndex(nb, nl, policy, toIndex(nb, nl, raw),
                                  indexing.inputSize[indexing.axes[c]]);
      });
  SmallVector<Value> at = view.sourceCoords(input.coords);
  Value valid = input.valid;

  // An empty gathered dimension has no element 0 to read an invalid index
  // through (every index is invalid then).
  Value readable;
  for (int64_t dim : op.getGatheredDims()) {
    if (!sourceType.isDynamicDim(dim) && sourceType.getDimSize(dim) > 0)
      continue;
    readable =
        andValues(b, loc, readable,
                  arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ne,
                                        buildDimSize(b, loc, source, dim),
                                        constIndex(b, loc, 0)));
  }
  Value element;
  if (!readable) {
    element = buildElementRead(b, loc, source, at);
  } else {
    element = scf::IfOp::create(
                  b, loc, readable,
                  [&](OpBuilder &tb, Location tl) {
                    scf::YieldOp::create(tb, tl,
                                         buildElementRead(tb, tl, source, at));
                  },
                  [&](OpBuilder &eb, Location el) {
                    Value zero = arith::ConstantOp::create(
                        eb, el, elementType, eb.getZeroAttr(elementType));
                    scf::YieldOp::create(eb, el, zero);
                  })
                  .getResult(0);
    valid = andValues(b, loc, valid, readable);
  }

  GatherElementValue result{element, Value()};
  result.value = applyReadPolicy(
      b, loc, policy, valid, element,
      [&](OpBuilder &, Location, Value invalid) { result.invalid = invalid; });
  return result;
}

void mlir::gather::buildGatherElementStore(OpBuilder &b, Location loc,
                                           Operation *gatherOp,
                                           ValueRange coords) {
  auto op = cast<GatherOpInterface>(gatherOp);
  GatherElementValue element = buildGatherElement(b, loc, gatherOp, coords);
  memref::StoreOp::create(b, loc, element.value, op.getInit(), coords);
  if (!element.invalid)
    return;
  scf::IfOp::create(b, loc, element.invalid, [&](OpBuilder &tb, Location tl) {
    buildIndexCheck(tb, tl, gatherOp, /*assumeInvalid=*/true);
    scf::YieldOp::create(tb, tl);
  });
}
