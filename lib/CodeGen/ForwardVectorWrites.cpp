//===- ForwardVectorWrites.cpp - whole reads of written small tensors -----===//
//
// Part of the gather project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "gather/CodeGen/Passes.h"

#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Dialect/UB/IR/UBOps.h"
#include "mlir/Dialect/Utils/StaticValueUtils.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

#include "llvm/ADT/BitVector.h"

namespace mlir::gather {
#define GEN_PASS_DEF_GATHERFORWARDVECTORWRITES
#include "gather/CodeGen/Passes.h.inc"
} // namespace mlir::gather

using namespace mlir;

namespace {
/// The most elements a forwarded read may have: a step's row (the fused
/// reduction's kReductionStepBufferBytes) and more, while the vectors it is
/// put together from stay a few registers' worth.
constexpr int64_t kMaxForwardedElements = 4096;

/// `value` through reshapes of static tensors, which keep the elements'
/// row-major order.
Value throughReshapes(Value value) {
  while (Operation *op = value.getDefiningOp()) {
    if (!isa<tensor::ExpandShapeOp, tensor::CollapseShapeOp>(op))
      break;
    Value source = op->getOperand(0);
    if (!cast<RankedTensorType>(source.getType()).hasStaticShape())
      break;
    value = source;
  }
  return value;
}

/// The row-major element offset of the constant `indices` in `shape`.
std::optional<int64_t> linearOffset(ArrayRef<int64_t> shape,
                                    ValueRange indices) {
  int64_t offset = 0;
  for (auto [size, index] : llvm::zip_equal(shape, indices)) {
    std::optional<int64_t> at = getConstantIntValue(index);
    if (!at)
      return std::nullopt;
    offset = offset * size + *at;
  }
  return offset;
}

/// A transfer op that moves one contiguous run of elements: no mask, in
/// bounds, the minor identity map, and a vector whose dimensions but the
/// innermost are 1 (so its elements lie along the innermost dimension).
bool isContiguousTransfer(VectorTransferOpInterface op) {
  VectorType type = op.getVectorType();
  return !op.getMask() && op.getPermutationMap().isMinorIdentity() &&
         llvm::all_of(op.getInBoundsValues(), [](bool b) { return b; }) &&
         !type.isScalable() &&
         llvm::all_of(type.getShape().drop_back(),
                      [](int64_t size) { return size == 1; });
}

struct ForwardWritesToRead : OpRewritePattern<vector::TransferReadOp> {
  using OpRewritePattern::OpRewritePattern;

  LogicalResult matchAndRewrite(vector::TransferReadOp read,
                                PatternRewriter &rewriter) const override {
    auto sourceType = dyn_cast<RankedTensorType>(read.getBase().getType());
    VectorType readType = read.getVectorType();
    if (!sourceType || !sourceType.hasStaticShape() || read.getMask() ||
        !read.getPermutationMap().isIdentity() || readType.isScalable() ||
        readType.getShape() != sourceType.getShape() ||
        !llvm::all_of(read.getInBoundsValues(), [](bool b) { return b; }))
      return rewriter.notifyMatchFailure(read, "not a whole static read");
    std::optional<int64_t> start =
        linearOffset(sourceType.getShape(), read.getIndices());
    int64_t total = sourceType.getNumElements();
    if (start != 0 || total > kMaxForwardedElements)
      return rewriter.notifyMatchFailure(read, "not from element 0, or large");

    // The writes from the latest back, until every element is written.
    struct Piece {
      Value vector;
      int64_t offset;
    };
    SmallVector<Piece> pieces;
    llvm::BitVector written(total);
    Value tensor = throughReshapes(read.getBase());
    while (!written.all()) {
      auto write = tensor.getDefiningOp<vector::TransferWriteOp>();
      if (!write || !isContiguousTransfer(write))
        return rewriter.notifyMatchFailure(read, "not written whole");
      auto type = cast<RankedTensorType>(write.getBase().getType());
      std::optional<int64_t> offset =
          linearOffset(type.getShape(), write.getIndices());
      int64_t length = write.getVectorType().getNumElements();
      if (type.getElementType() != sourceType.getElementType() ||
          !type.hasStaticShape() || type.getNumElements() != total ||
          !offset || *offset + length > total)
        return rewriter.notifyMatchFailure(read, "a write outside the read");
      written.set(*offset, *offset + length);
      pieces.push_back({write.getVector(), *offset});
      tensor = throughReshapes(write.getBase());
    }

    // Earliest first, so that a later write overwrites.
    Location loc = read.getLoc();
    auto flatType = VectorType::get({total}, sourceType.getElementType());
    Value flat = ub::PoisonOp::create(rewriter, loc, flatType);
    for (const Piece &piece : llvm::reverse(pieces)) {
      auto pieceType = cast<VectorType>(piece.vector.getType());
      Value row = vector::ShapeCastOp::create(
          rewriter, loc,
          VectorType::get({pieceType.getNumElements()},
                          pieceType.getElementType()),
          piece.vector);
      flat = vector::InsertStridedSliceOp::create(
          rewriter, loc, row, flat, ArrayRef<int64_t>{piece.offset},
          ArrayRef<int64_t>{1});
    }
    rewriter.replaceOpWithNewOp<vector::ShapeCastOp>(read, readType, flat);
    return success();
  }
};

struct GatherForwardVectorWritesPass
    : gather::impl::GatherForwardVectorWritesBase<
          GatherForwardVectorWritesPass> {
  void runOnOperation() override {
    RewritePatternSet patterns(&getContext());
    gather::populateForwardVectorWritesPatterns(patterns);
    GreedyRewriteConfig config;
    config.setRegionSimplificationLevel(GreedySimplifyRegionLevel::Disabled);
    if (failed(applyPatternsGreedily(getOperation(), std::move(patterns),
                                     config)))
      signalPassFailure();
  }
};
} // namespace

void mlir::gather::populateForwardVectorWritesPatterns(
    RewritePatternSet &patterns) {
  patterns.add<ForwardWritesToRead>(patterns.getContext());
}
