//===- TensorToGather.cpp - tensor.gather to gather.multiaxis -------------===//
//
// Part of the gather project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// tensor.gather %source[%indices] gather_dims([g...]) with indices
// [b_1..b_n, k] reads source at the k coordinates of each index row for the
// dims g and copies the others whole; its result is
// [b_1..b_n] ++ source-shape-with-g-set-to-1 (or without the g dims when
// rank-reduced). That is gather.multiaxis on the source with n leading unit
// dimensions, indices [b_1..b_n, 1 x (r-1), k], axes = n + g: the b dims
// broadcast against the unit input dims, the coordinates fold into the last
// indices dimension.
//
//===----------------------------------------------------------------------===//

#include "gather/Conversion/TensorToGather.h"
#include "gather/Dialect/Gather/IR/GatherOps.h"

#include "mlir/Dialect/Tensor/IR/Tensor.h"

#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

namespace mlir::gather {
#define GEN_PASS_DEF_CONVERTTENSORGATHERTOGATHER
#include "gather/Conversion/Passes.h.inc"
} // namespace mlir::gather

using namespace mlir;
using namespace mlir::gather;

namespace {
struct TensorGatherToMultiaxis : OpRewritePattern<tensor::GatherOp> {
  TensorGatherToMultiaxis(MLIRContext *context, OutOfBoundsMode outOfBounds)
      : OpRewritePattern(context), outOfBounds(outOfBounds) {}

  LogicalResult matchAndRewrite(tensor::GatherOp op,
                                PatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    RankedTensorType sourceType = op.getSource().getType();
    RankedTensorType indicesType = op.getIndices().getType();
    int64_t rank = sourceType.getRank();
    int64_t batch = indicesType.getRank() - 1;
    // tensor.gather's verifier guarantees at least one gather dimension.
    ArrayRef<int64_t> gatherDims = op.getGatherDims();
    // Input: n leading unit dimensions.
    Value input = op.getSource();
    if (batch > 0) {
      SmallVector<int64_t> shape(batch, 1);
      llvm::append_range(shape, sourceType.getShape());
      SmallVector<ReassociationIndices> groups;
      ReassociationIndices first;
      for (int64_t d = 0; d <= batch; ++d)
        first.push_back(d);
      groups.push_back(first);
      for (int64_t d = 1; d < rank; ++d)
        groups.push_back({batch + d});
      SmallVector<OpFoldResult> outputShape(batch, rewriter.getIndexAttr(1));
      llvm::append_range(outputShape,
                         tensor::getMixedSizes(rewriter, loc, input));
      input = tensor::ExpandShapeOp::create(
          rewriter, loc,
          RankedTensorType::get(shape, sourceType.getElementType()), input,
          groups, outputShape);
    }
    // Indices: the coordinate dimension becomes [1 x (r-1), k].
    Value indices = op.getIndices();
    if (rank > 1) {
      SmallVector<int64_t> shape(indicesType.getShape().drop_back());
      shape.append(rank - 1, 1);
      shape.push_back(indicesType.getShape().back());
      SmallVector<ReassociationIndices> groups;
      for (int64_t d = 0; d < batch; ++d)
        groups.push_back({d});
      ReassociationIndices last;
      for (int64_t d = batch; d < batch + rank; ++d)
        last.push_back(d);
      groups.push_back(last);
      SmallVector<OpFoldResult> outputShape =
          tensor::getMixedSizes(rewriter, loc, indices);
      OpFoldResult k = outputShape.back();
      outputShape.pop_back();
      outputShape.append(rank - 1, rewriter.getIndexAttr(1));
      outputShape.push_back(k);
      indices = tensor::ExpandShapeOp::create(
          rewriter, loc,
          RankedTensorType::get(shape, indicesType.getElementType()), indices,
          groups, outputShape);
    }
    SmallVector<int64_t> axes;
    for (int64_t g : gatherDims)
      axes.push_back(batch + g);
    Value init = createMultiaxisInit(rewriter, loc, input, indices, axes);
    if (!init)
      return rewriter.notifyMatchFailure(op,
                                         "shapes break the multiaxis rules");
    auto multiaxis = MultiaxisOp::create(
        rewriter, loc, input, indices, axes, NegativeIndexMode::out_of_bounds,
        outOfBounds, /*whole_indices=*/Value(), init);
    // The multiaxis output is the non-rank-reduced result; a rank-reduced
    // tensor.gather drops the unit gather dimensions.
    Value result = multiaxis.getOutput();
    RankedTensorType resultType = op.getResult().getType();
    if (resultType.getRank() != batch + rank) {
      SmallVector<int64_t> drop;
      for (int64_t g : gatherDims)
        drop.push_back(batch + g);
      result = collapseUnitDims(rewriter, loc, result, drop);
    }
    if (result.getType() != resultType)
      result = tensor::CastOp::create(rewriter, loc, resultType, result);
    rewriter.replaceOp(op, result);
    return success();
  }

  OutOfBoundsMode outOfBounds;
};

} // namespace

void mlir::gather::populateTensorToGatherPatterns(
    RewritePatternSet &patterns, const TensorToGatherOptions &options) {
  patterns.add<TensorGatherToMultiaxis>(patterns.getContext(),
                                        options.outOfBounds);
}

namespace {
struct ConvertTensorGatherToGatherPass
    : gather::impl::ConvertTensorGatherToGatherBase<
          ConvertTensorGatherToGatherPass> {
  using Base::Base;

  void runOnOperation() override {
    std::optional<OutOfBoundsMode> mode = symbolizeOutOfBoundsMode(outOfBounds);
    if (!mode) {
      getOperation()->emitError("convert-tensor-gather-to-gather: unknown "
                                "out-of-bounds policy '")
          << outOfBounds.getValue() << "' (error, clamp, fill or unchecked)";
      return signalPassFailure();
    }
    RewritePatternSet patterns(&getContext());
    populateTensorToGatherPatterns(patterns, {*mode});
    if (failed(applyPatternsGreedily(getOperation(), std::move(patterns))))
      signalPassFailure();
  }
};
} // namespace
