//===- TosaToGather.cpp - tosa.gather to gather.multiaxis -----------------===//
//
// Part of the gather project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// tosa.gather: values [N, K, C], indices [N, W] -> output [N, W, C] with
// output[n, w, c] = values[n, indices[n, w], c]. As gather.multiaxis:
// indices expanded to [N, W, 1], axes = [1]: dimension 0 pairs values and
// indices element-wise, dimension 1 is the gathered one, C is copied.
//
// Index policy: the TOSA specification requires 0 <= k < K
// (REQUIRE(0 <= k && k < K) in GATHER); a violation makes the graph's
// result unpredictable. Here it is an error: negative indices do not wrap
// (negative_indices = out_of_bounds) and an out-of-range index is reported
// (out_of_bounds = error) with the op's location.
//
//===----------------------------------------------------------------------===//

#include "gather/Conversion/TosaToGather.h"
#include "gather/Dialect/Gather/IR/GatherOps.h"

#include "mlir/Dialect/Tensor/IR/Tensor.h"

#include "mlir/Dialect/Tosa/IR/TosaOps.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

namespace mlir::gather {
#define GEN_PASS_DEF_CONVERTTOSAGATHERTOGATHER
#include "gather/Conversion/Passes.h.inc"
} // namespace mlir::gather

using namespace mlir;
using namespace mlir::gather;

namespace {
struct TosaGatherToMultiaxis : OpRewritePattern<tosa::GatherOp> {
  using OpRewritePattern::OpRewritePattern;

  LogicalResult matchAndRewrite(tosa::GatherOp op,
                                PatternRewriter &rewriter) const override {
    auto valuesType = dyn_cast<RankedTensorType>(op.getValues().getType());
    auto indicesType = dyn_cast<RankedTensorType>(op.getIndices().getType());
    auto resultType = dyn_cast<RankedTensorType>(op.getOutput().getType());
    if (!valuesType || !indicesType || !resultType ||
        valuesType.getRank() != 3 || indicesType.getRank() != 2)
      return rewriter.notifyMatchFailure(op, "needs ranked [N,K,C], [N,W]");
    Location loc = op.getLoc();
    SmallVector<int64_t> shape(indicesType.getShape());
    shape.push_back(1);
    SmallVector<OpFoldResult> outputShape =
        tensor::getMixedSizes(rewriter, loc, op.getIndices());
    outputShape.push_back(rewriter.getIndexAttr(1));
    Value indices = tensor::ExpandShapeOp::create(
        rewriter, loc,
        RankedTensorType::get(shape, indicesType.getElementType()),
        op.getIndices(), ArrayRef<ReassociationIndices>{{0}, {1, 2}},
        outputShape);
    Value init =
        createMultiaxisInit(rewriter, loc, op.getValues(), indices, {1});
    if (!init)
      return rewriter.notifyMatchFailure(op,
                                         "shapes break the multiaxis rules");
    auto multiaxis = MultiaxisOp::create(
        rewriter, loc, op.getValues(), indices, ArrayRef<int64_t>{1},
        NegativeIndexMode::out_of_bounds, OutOfBoundsMode::error,
        /*whole_indices=*/Value(), init);
    Value result = multiaxis.getOutput();
    if (result.getType() != resultType)
      result = tensor::CastOp::create(rewriter, loc, resultType, result);
    rewriter.replaceOp(op, result);
    return success();
  }
};

} // namespace

void mlir::gather::populateTosaToGatherPatterns(RewritePatternSet &patterns) {
  patterns.add<TosaGatherToMultiaxis>(patterns.getContext());
}

namespace {
struct ConvertTosaGatherToGatherPass
    : gather::impl::ConvertTosaGatherToGatherBase<
          ConvertTosaGatherToGatherPass> {
  void runOnOperation() override {
    RewritePatternSet patterns(&getContext());
    populateTosaToGatherPatterns(patterns);
    if (failed(applyPatternsGreedily(getOperation(), std::move(patterns))))
      return signalPassFailure();
    WalkResult left = getOperation()->walk([](tosa::GatherOp op) {
      op.emitOpError("was not converted: gather ops need ranked values "
                     "[N, K, C] and indices [N, W]");
      return WalkResult::interrupt();
    });
    if (left.wasInterrupted())
      signalPassFailure();
  }
};
} // namespace
