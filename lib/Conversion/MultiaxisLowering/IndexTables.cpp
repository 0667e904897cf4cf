//===- IndexTables.cpp - indices resolved once, reused by many rows -------===//
//
// Part of the gather project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// Where a loop reads each index value many times (the dimensions the
// indices broadcast along), the policy is applied to every index value, or
// every coordinate tuple, once: into a table of input coordinates (scalar
// loops) or of linear input offsets (vector rows).
//
//===----------------------------------------------------------------------===//

#include "IndexTables.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "llvm/Support/MathExtras.h"

using namespace mlir;
using namespace mlir::gather;
using namespace mlir::gather::lowering;

/// The read policy in a table: an invalid entry raises the error flag, or
/// under `fill` becomes -1 (the mark of a miss that the reads zero).
static Value applyTablePolicy(OpBuilder &b, Location loc,
                              const LoweringState &s, Value valid,
                              Value entry) {
  return applyReadPolicy(
      b, loc, s.policy, valid, entry,
      [&](OpBuilder &rb, Location rl, Value invalid) {
        reportIfAnyInvalid(rb, rl, s, invalid);
      },
      [&](OpBuilder &fb, Location fl, Value fillValid, Value value) -> Value {
        return arith::SelectOp::create(fb, fl, fillValid, value,
                                       constIndex(fb, fl, -1));
      });
}

std::pair<Value, Value> lowering::readFillTableEntry(OpBuilder &b, Location loc,
                                                     Value entry) {
  Type type = entry.getType();
  TypedAttr zeroAttr = b.getIndexAttr(0);
  if (auto vectorType = dyn_cast<VectorType>(type))
    zeroAttr = DenseElementsAttr::get(vectorType, zeroAttr);
  Value zero = arith::ConstantOp::create(b, loc, type, zeroAttr);
  Value hit =
      arith::CmpIOp::create(b, loc, arith::CmpIPredicate::sge, entry, zero);
  return {arith::SelectOp::create(b, loc, hit, entry, zero), hit};
}

/// Applies the index policy to every index value once, into a table of
/// input coordinates, so that loops that reuse each index many times
/// (broadcast dimensions) only read it.
Value lowering::buildCoordinateTable(OpBuilder &b, Location loc,
                                     const LoweringState &s) {
  MultiaxisOp op = s.op;
  auto indicesType = cast<RankedTensorType>(op.getIndices().getType());
  int64_t rank = indicesType.getRank();
  auto tableType =
      RankedTensorType::get(indicesType.getShape(), b.getIndexType());
  Value init = tensor::EmptyOp::create(
      b, loc, tensor::getMixedSizes(b, loc, op.getIndices()), b.getIndexType());
  SmallVector<AffineMap> maps(2, b.getMultiDimIdentityMap(rank));
  SmallVector<utils::IteratorType> iterators(rank,
                                             utils::IteratorType::parallel);
  auto generic = linalg::GenericOp::create(
      b, loc, TypeRange{tableType}, ValueRange{op.getIndices()},
      ValueRange{init}, maps, iterators,
      [&](OpBuilder &nb, Location nloc, ValueRange args) {
        Value lastPos = linalg::IndexOp::create(nb, nloc, rank - 1);
        Value size = addressedSize(nb, nloc, s, lastPos);
        ResolvedIndexValue resolved = buildResolvedIndex(
            nb, nloc, s.policy, toIndex(nb, nloc, args[0]), size);
        linalg::YieldOp::create(
            nb, nloc,
            applyTablePolicy(nb, nloc, s, resolved.valid, resolved.index));
      });
  return generic.getResult(0);
}

/// Applies the index policy to every coordinate tuple once and combines it
/// into the linear offset of the axis coordinates in the row-major input:
/// sum over c of coordinate_c * stride(axes[c]). The table has the logical
/// indices shape (the coordinates folded away); -1 marks a `fill` miss.
/// `inputStrides` are the input's row-major strides.
Value lowering::buildAxisOffsetTable(OpBuilder &b, Location loc,
                                     const LoweringState &s,
                                     ArrayRef<Value> inputStrides) {
  MultiaxisOp op = s.op;
  auto indicesType = cast<RankedTensorType>(op.getIndices().getType());
  int64_t rank = indicesType.getRank();
  // The logical indices shape: the last size divided by the tuple length.
  SmallVector<OpFoldResult> sizes =
      tensor::getMixedSizes(b, loc, op.getIndices());
  if (ShapedType::isDynamic(indicesType.getShape().back()))
    sizes.back() = arith::DivUIOp::create(b, loc, cast<Value>(sizes.back()),
                                          constIndex(b, loc, s.coordinateSize))
                       .getResult();
  else
    sizes.back() =
        b.getIndexAttr(indicesType.getShape().back() / s.coordinateSize);
  Value init = tensor::EmptyOp::create(b, loc, sizes, b.getIndexType());
  auto tableType = cast<RankedTensorType>(init.getType());
  SmallVector<AffineMap> maps = {b.getMultiDimIdentityMap(rank)};
  SmallVector<utils::IteratorType> iterators(rank,
                                             utils::IteratorType::parallel);
  auto generic = linalg::GenericOp::create(
      b, loc, TypeRange{tableType}, ValueRange{}, ValueRange{init}, maps,
      iterators, [&](OpBuilder &nb, Location nloc, ValueRange) {
        SmallVector<Value> pos;
        for (int64_t d = 0; d < rank; ++d)
          pos.push_back(linalg::IndexOp::create(nb, nloc, d));
        Value first = arith::MulIOp::create(
            nb, nloc, pos.back(), constIndex(nb, nloc, s.coordinateSize));
        Value offset = constIndex(nb, nloc, 0);
        Value valid;
        for (auto [c, axis] : llvm::enumerate(s.axes)) {
          SmallVector<Value> at = pos;
          at.back() =
              arith::AddIOp::create(nb, nloc, first, constIndex(nb, nloc, c));
          Value raw = tensor::ExtractOp::create(nb, nloc, op.getIndices(), at);
          ResolvedIndexValue resolved = buildResolvedIndex(
              nb, nloc, s.policy, toIndex(nb, nloc, raw), s.inputSize[axis]);
          valid = andValues(nb, nloc, valid, resolved.valid);
          Value term = arith::MulIOp::create(nb, nloc, resolved.index,
                                             inputStrides[axis]);
          offset = arith::AddIOp::create(nb, nloc, offset, term);
        }
        linalg::YieldOp::create(nb, nloc,
                                applyTablePolicy(nb, nloc, s, valid, offset));
      });
  return generic.getResult(0);
}

/// Resolving the indices up front pays when the loop reads each index value
/// many times (broadcast dimensions): at least 4 iterations per index value.
/// `loopShape` is the iteration space (the output, or its dimensions
/// outside a copied block), whose dimension d is the indices' dimension d
/// broadcast. With dynamic sizes the static ones decide: a dimension
/// dynamic in both is taken as no reuse, a static index size other than 1
/// fixes the loop's, and indices of static size 1 along a dynamic loop
/// dimension broadcast along it (a batch of NHWC lookups, W5 with its
/// index rows dynamic: 2.0x slower without the table on a Zen 1). A
/// dynamic index size inside a copied block leaves the indices in place.
bool lowering::shouldResolveIndices(const LoweringState &s,
                                    ArrayRef<int64_t> loopShape) {
  auto indicesType = cast<RankedTensorType>(s.op.getIndices().getType());
  ArrayRef<int64_t> indicesShape = indicesType.getShape();
  if (s.axes.empty() || s.rank == 0 || indicesShape.size() < loopShape.size())
    return false;
  // Saturating: sizes near 2^62 are valid types.
  bool overflow = false, broadcastDynamic = false;
  uint64_t indexCount = 1, iterations = 1;
  for (auto [d, size] : llvm::enumerate(indicesShape)) {
    if (d >= loopShape.size()) {
      if (ShapedType::isDynamic(size))
        return false;
      indexCount =
          llvm::SaturatingMultiply<uint64_t>(indexCount, size, &overflow);
      continue;
    }
    int64_t loop = loopShape[d];
    if (ShapedType::isDynamic(size) || ShapedType::isDynamic(loop)) {
      broadcastDynamic |= size == 1;
      continue;
    }
    indexCount =
        llvm::SaturatingMultiply<uint64_t>(indexCount, size, &overflow);
    iterations =
        llvm::SaturatingMultiply<uint64_t>(iterations, loop, &overflow);
  }
  return indexCount > 0 && (broadcastDynamic || iterations / 4 >= indexCount);
}
