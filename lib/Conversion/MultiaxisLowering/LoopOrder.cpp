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
#include "gather/Utils/ElementBytes.h"

#include "mlir/IR/BuiltinTypes.h"
#include "llvm/Support/MathExtras.h"

#include <limits>

using namespace mlir;
using namespace mlir::gather;
using namespace mlir::gather::lowering;

std::optional<int64_t> lowering::axesFootprintBytes(const LoweringState &s,
                                                    Type elementType) {
  auto inputType = cast<RankedTensorType>(s.op.getInput().getType());
  ArrayRef<int64_t> shape = inputType.getShape();
  int64_t last = s.rank - 1;
  auto sizeOf = [&](int64_t d) {
    if (ShapedType::isDynamic(shape[d]) && !s.inputSizeBounds.empty())
      return s.inputSizeBounds[d];
    return shape[d];
  };
  if (ShapedType::isDynamic(sizeOf(last)))
    return std::nullopt;
  int64_t bytes;
  int64_t elementBytes = packedElementBytes(elementType);
  if (!elementBytes || llvm::MulOverflow(sizeOf(last), elementBytes, bytes))
    return std::nullopt;
  bytes = llvm::alignTo(bytes, s.target.cacheLineBytes);
  for (int64_t axis : s.axes) {
    if (axis == last)
      continue;
    int64_t size = sizeOf(axis);
    if (ShapedType::isDynamic(size) || llvm::MulOverflow(bytes, size, bytes))
      return std::nullopt;
  }
  return bytes;
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
