//===- LoopOrder.cpp - the order of the loops over output rows ------------===//
//
// Part of the gather project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// The output's dimension order is not always the best loop order. Where
// the indices address a small part of the input (the axes) and the output
// repeats that lookup along dimensions the input spans (an NHWC lookup of
// (n, c) pairs: every pixel reads the same few channels of a few images),
// iterating the dimensions the input spans outermost lets all index rows
// read one pixel's lines while they are in the L1 cache, instead of each
// index row streaming the whole input from farther away.
//
//===----------------------------------------------------------------------===//

#include "LoopOrder.h"
#include "gather/Dialect/Gather/IR/GatherShapes.h"
#include "gather/Utils/ElementBytes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Utils/StaticValueUtils.h"
#include "mlir/IR/BuiltinTypes.h"
#include "llvm/Support/MathExtras.h"

#include <limits>

using namespace mlir;
using namespace mlir::gather;
using namespace mlir::gather::lowering;

namespace {
/// The footprint's sizes and products where they are static: a dynamic
/// size takes its bound (LoweringState::inputSizeBounds), if any; nullopt
/// for an unbounded one, an overflow, or elements that are not whole bytes.
struct StaticArith {
  const LoweringState &s;
  using Number = std::optional<int64_t>;
  Number size(int64_t d) const {
    int64_t size =
        cast<RankedTensorType>(s.op.getInput().getType()).getDimSize(d);
    if (ShapedType::isDynamic(size) && !s.inputSizeBounds.empty())
      size = s.inputSizeBounds[d];
    return ShapedType::isDynamic(size) ? std::nullopt : Number(size);
  }
  Number constant(int64_t v) const { return v > 0 ? Number(v) : std::nullopt; }
  Number times(Number lhs, Number rhs) const {
    int64_t product;
    if (!lhs || !rhs || llvm::MulOverflow(*lhs, *rhs, product))
      return std::nullopt;
    return product;
  }
  Number wholeLines(Number bytes) const {
    if (!bytes)
      return std::nullopt;
    return static_cast<int64_t>(llvm::alignTo(*bytes, s.target.cacheLineBytes));
  }
};

/// The same at run time: each factor of a product that is not a constant
/// clamped to `cap` first, so that the products cannot overflow and a
/// clamped one exceeds any budget below `cap`.
struct RuntimeArith {
  OpBuilder &b;
  Location loc;
  const LoweringState &s;
  Value cap;
  using Number = Value;
  Number size(int64_t d) const {
    return buildDimSize(b, loc, s.op.getInput(), d);
  }
  Number constant(int64_t v) const { return constIndex(b, loc, v); }
  Number clamped(Value v) const {
    if (getConstantIntValue(v))
      return v;
    return arith::MinUIOp::create(b, loc, v, cap);
  }
  Number times(Number lhs, Number rhs) const {
    Value left = clamped(lhs);
    Value right = clamped(rhs);
    return arith::MulIOp::create(b, loc, left, right);
  }
  Number wholeLines(Number bytes) const {
    Value line = constIndex(b, loc, s.target.cacheLineBytes);
    Value lines = arith::CeilDivUIOp::create(b, loc, bytes, line);
    return arith::MulIOp::create(b, loc, lines, line);
  }
};
} // namespace

/// The footprint rule, once for both arithmetics: the input's innermost
/// dimension in whole cache lines, times the other axes' sizes.
template <typename Arith>
static typename Arith::Number
footprintOf(const LoweringState &s, Type elementType, const Arith &arith) {
  int64_t last = s.rank - 1;
  typename Arith::Number row = arith.size(last);
  typename Arith::Number elementBytes =
      arith.constant(packedElementBytes(elementType));
  typename Arith::Number bytes =
      arith.wholeLines(arith.times(row, elementBytes));
  for (int64_t axis : s.axes) {
    if (axis == last)
      continue;
    typename Arith::Number size = arith.size(axis);
    bytes = arith.times(bytes, size);
  }
  return bytes;
}

std::optional<int64_t> lowering::axesFootprintBytes(const LoweringState &s,
                                                    Type elementType) {
  return footprintOf(s, elementType, StaticArith{s});
}

Value lowering::buildAxesFootprintFits(OpBuilder &b, Location loc,
                                       const LoweringState &s, Type elementType,
                                       int64_t budget) {
  Value bytes = footprintOf(
      s, elementType, RuntimeArith{b, loc, s, constIndex(b, loc, budget + 1)});
  return arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ule, bytes,
                               constIndex(b, loc, budget));
}

SmallVector<int64_t> lowering::outerLoopOrder(const LoweringState &s,
                                              int64_t numLoops,
                                              Type elementType) {
  SmallVector<int64_t> order = llvm::to_vector(llvm::seq<int64_t>(numLoops));
  // A dimension the input spans moves the input coordinate with the loop;
  // along the others (the axes, the input's broadcast dimensions) only the
  // index values change.
  auto spans = [&](int64_t d) {
    return !llvm::is_contained(s.axes, d) &&
           s.inputUnitStatic[d] != std::optional<bool>(true);
  };
  SmallVector<int64_t> spanning, other;
  for (int64_t d : order)
    (spans(d) ? spanning : other).push_back(d);
  // Only where a non-spanning loop is outside a spanning one today.
  bool reorders =
      !spanning.empty() && !other.empty() && other.front() < spanning.back();
  if (!reorders || !elementType.isIntOrFloat())
    return order;
  std::optional<int64_t> footprint = axesFootprintBytes(s, elementType);
  // The loops inside one position of the spanning dimensions should find
  // what it reads in the L1 cache, with room for the output rows and the
  // indices (CpuTarget::reuseFootprintBytes).
  if (!footprint || *footprint > s.target.reuseFootprintBytes())
    return order;
  order = spanning;
  order.append(other);
  return order;
}

std::optional<int64_t>
lowering::innermostLoopDimension(ArrayRef<int64_t> outputShape,
                                 int64_t blockStart) {
  for (int64_t d = blockStart - 1; d >= 0; --d)
    if (outputShape[d] != 1)
      return d;
  return std::nullopt;
}

std::optional<InputLoop>
lowering::innermostInputLoop(const LoweringState &s, ArrayRef<int64_t> order,
                             RankedTensorType outputType) {
  auto inputType = cast<RankedTensorType>(s.op.getInput().getType());
  // A dynamic size is taken to exceed 1, and one inside the loop (or a
  // dynamic row) found to read a lot: a dynamic batch of index rows, or of
  // pairs in a row, keeps W5x64's tiles, bounded by the input slice the
  // reads range over.
  if (s.rank < 2)
    return std::nullopt;
  InputLoop loop;
  loop.reads = outputType.isDynamicDim(s.rank - 1)
                   ? std::numeric_limits<int64_t>::max()
                   : outputType.getDimSize(s.rank - 1);
  auto moreThanOne = [](int64_t size) {
    return ShapedType::isDynamic(size) || size > 1;
  };
  for (int64_t d : llvm::reverse(order)) {
    int64_t size = outputType.getDimSize(d);
    if (!llvm::is_contained(s.axes, d) &&
        moreThanOne(inputType.getDimSize(d)) && moreThanOne(size)) {
      if (loop.reads == 0)
        return std::nullopt;
      loop.dim = d;
      return loop;
    }
    // A dynamic loop inside counts as many reads (saturated), as does
    // an overflowing product.
    if (ShapedType::isDynamic(size) || size > 1)
      loop.innerLoops = true;
    if (ShapedType::isDynamic(size) ||
        llvm::MulOverflow(loop.reads, size, loop.reads))
      loop.reads = std::numeric_limits<int64_t>::max();
  }
  return std::nullopt;
}
