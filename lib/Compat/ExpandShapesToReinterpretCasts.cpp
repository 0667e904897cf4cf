//===- ExpandShapesToReinterpretCasts.cpp - reshapes MLIR 22 cannot expand ===//
//
// Part of the gather project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// MLIR 22's expand-strided-metadata derives an expand_shape's sizes from its
// result type and crashes when a reassociation group has two dynamic sizes
// (llvm/llvm-project#186830). The op's output_shape has every size; this
// rewrites such ops into the reinterpret_cast that expand-strided-metadata
// would make of them.
//
//===----------------------------------------------------------------------===//

#include "gather/Compat/Passes.h"
#include "gather/Utils/Reassociation.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Arith/Utils/Utils.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/Transforms/WalkPatternRewriteDriver.h"

namespace mlir::gather {
#define GEN_PASS_DEF_GATHEREXPANDSHAPESTOREINTERPRETCASTS
#include "gather/Compat/Passes.h.inc"
} // namespace mlir::gather

using namespace mlir;

namespace {
struct ExpandShapeToReinterpretCast : OpRewritePattern<memref::ExpandShapeOp> {
  using OpRewritePattern::OpRewritePattern;

  LogicalResult matchAndRewrite(memref::ExpandShapeOp op,
                                PatternRewriter &rewriter) const override {
    MemRefType resultType = op.getResultType();
    SmallVector<ReassociationIndices> groups = op.getReassociationIndices();
    if (gather::findMisplacedReassociationIndex(groups, resultType.getRank()))
      return rewriter.notifyMatchFailure(op, "malformed reassociation");
    auto dynamicSizes = [&](const ReassociationIndices &group) {
      return llvm::count_if(
          group, [&](int64_t d) { return resultType.isDynamicDim(d); });
    };
    if (llvm::none_of(groups, [&](const ReassociationIndices &group) {
          return dynamicSizes(group) > 1;
        }))
      return rewriter.notifyMatchFailure(
          op, "no group has two dynamic sizes: upstream expands it");
    SmallVector<int64_t> resultStrides;
    int64_t resultOffset;
    if (failed(resultType.getStridesAndOffset(resultStrides, resultOffset)))
      return rewriter.notifyMatchFailure(op, "result layout is not strided");

    Location loc = op.getLoc();
    auto metadata =
        memref::ExtractStridedMetadataOp::create(rewriter, loc, op.getSrc());
    SmallVector<OpFoldResult> outputShape = op.getMixedOutputShape();
    int64_t rank = resultType.getRank();
    SmallVector<OpFoldResult> sizes(rank), strides(rank);
    auto asValue = [&](OpFoldResult ofr) {
      return getValueOrCreateConstantIndexOp(rewriter, loc, ofr);
    };
    for (auto [sourceDim, group] : llvm::enumerate(groups)) {
      // From the innermost dimension of the group outward, each stride is
      // the source dimension's stride times the sizes to its right.
      Value stride = metadata.getStrides()[sourceDim];
      for (auto [position, d] : llvm::enumerate(llvm::reverse(group))) {
        // Where the type is dynamic, the size is a value even if its
        // output_shape entry is static: reinterpret_cast compares its
        // static entries with the type.
        sizes[d] =
            resultType.isDynamicDim(d)
                ? OpFoldResult(asValue(outputShape[d]))
                : OpFoldResult(rewriter.getIndexAttr(resultType.getDimSize(d)));
        strides[d] =
            ShapedType::isDynamic(resultStrides[d])
                ? OpFoldResult(stride)
                : OpFoldResult(rewriter.getIndexAttr(resultStrides[d]));
        if (position + 1 < group.size())
          stride =
              arith::MulIOp::create(rewriter, loc, stride, asValue(sizes[d]));
      }
    }
    OpFoldResult offset =
        ShapedType::isDynamic(resultOffset)
            ? OpFoldResult(metadata.getOffset())
            : OpFoldResult(rewriter.getIndexAttr(resultOffset));
    rewriter.replaceOpWithNewOp<memref::ReinterpretCastOp>(
        op, resultType, op.getSrc(), offset, sizes, strides);
    return success();
  }
};

struct GatherExpandShapesToReinterpretCastsPass
    : gather::impl::GatherExpandShapesToReinterpretCastsBase<
          GatherExpandShapesToReinterpretCastsPass> {
  void runOnOperation() override {
    RewritePatternSet patterns(&getContext());
    gather::populateExpandShapesToReinterpretCastsPatterns(patterns);
    // One visit per op: the rewrite creates no expand_shape.
    walkAndApplyPatterns(getOperation(), std::move(patterns));
  }
};
} // namespace

void mlir::gather::populateExpandShapesToReinterpretCastsPatterns(
    RewritePatternSet &patterns) {
  patterns.add<ExpandShapeToReinterpretCast>(patterns.getContext());
}
