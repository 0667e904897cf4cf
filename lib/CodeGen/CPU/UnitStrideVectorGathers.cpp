//===- UnitStrideVectorGathers.cpp - vector.gather from strided memrefs ---===//
//
// Part of the gather project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "gather/CodeGen/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

namespace mlir::gather {
#define GEN_PASS_DEF_GATHERUNITSTRIDEVECTORGATHERS
#include "gather/CodeGen/Passes.h.inc"
} // namespace mlir::gather

using namespace mlir;

namespace {
/// vector.gather %m[%i0, .., %ik][%v] with %m's innermost stride s not
/// statically 1 becomes vector.gather %flat[0][%v * s], where %flat is the
/// buffer of %m reinterpreted as 1-D with unit stride at offset
/// offset(%m) + sum(%ij * stride_j).
struct UnitStrideGather : OpRewritePattern<vector::GatherOp> {
  using OpRewritePattern::OpRewritePattern;

  LogicalResult matchAndRewrite(vector::GatherOp gather,
                                PatternRewriter &rewriter) const override {
    auto type = dyn_cast<MemRefType>(gather.getBase().getType());
    if (!type || type.getRank() == 0 || type.isLastDimUnitStride())
      return rewriter.notifyMatchFailure(gather, "unit innermost stride");
    if (!isa<VectorType>(gather.getIndices().getType()) ||
        cast<VectorType>(gather.getIndices().getType()).getRank() != 1)
      return rewriter.notifyMatchFailure(gather, "not a 1-D index vector");
    Location loc = gather.getLoc();
    auto metadata = memref::ExtractStridedMetadataOp::create(rewriter, loc,
                                                             gather.getBase());
    Value offset = metadata.getOffset();
    for (auto [coordinate, stride] :
         llvm::zip(gather.getOffsets(), metadata.getStrides()))
      offset = arith::AddIOp::create(
          rewriter, loc, offset,
          arith::MulIOp::create(rewriter, loc, coordinate, stride));
    int64_t last = type.getRank() - 1;
    Value innermostStride = metadata.getStrides()[last];
    // The view's size is only metadata here (vector.gather reads by
    // offset): the innermost extent in elements.
    Value extent = arith::MulIOp::create(
        rewriter, loc, metadata.getSizes()[last], innermostStride);
    auto flatType =
        MemRefType::get({ShapedType::kDynamic}, type.getElementType(),
                        StridedLayoutAttr::get(rewriter.getContext(),
                                               ShapedType::kDynamic, {1}),
                        type.getMemorySpace());
    Value flat = memref::ReinterpretCastOp::create(
        rewriter, loc, flatType, metadata.getBaseBuffer(), OpFoldResult(offset),
        {OpFoldResult(extent)}, {OpFoldResult(rewriter.getIndexAttr(1))});
    auto indexType = cast<VectorType>(gather.getIndices().getType());
    Value stride = innermostStride;
    if (!indexType.getElementType().isIndex())
      stride = arith::IndexCastOp::create(
          rewriter, loc, indexType.getElementType(), innermostStride);
    Value scaled = arith::MulIOp::create(
        rewriter, loc, gather.getIndices(),
        vector::BroadcastOp::create(rewriter, loc, indexType, stride));
    Value zero = arith::ConstantIndexOp::create(rewriter, loc, 0);
    rewriter.replaceOpWithNewOp<vector::GatherOp>(
        gather, gather.getVectorType(), flat, ValueRange{zero}, scaled,
        gather.getMask(), gather.getPassThru());
    return success();
  }
};

struct GatherUnitStrideVectorGathersPass
    : gather::impl::GatherUnitStrideVectorGathersBase<
          GatherUnitStrideVectorGathersPass> {
  void runOnOperation() override {
    // Only gathers through views of dynamic strides need the rewrite; a
    // greedy driver over a function without one would still visit and try
    // to fold every op.
    bool anyStrided =
        getOperation()
            ->walk([](vector::GatherOp gather) {
              auto type = dyn_cast<MemRefType>(gather.getBase().getType());
              return type && type.getRank() > 0 && !type.isLastDimUnitStride()
                         ? WalkResult::interrupt()
                         : WalkResult::advance();
            })
            .wasInterrupted();
    if (!anyStrided)
      return;
    RewritePatternSet patterns(&getContext());
    gather::populateUnitStrideVectorGathersPatterns(patterns);
    if (failed(applyPatternsGreedily(getOperation(), std::move(patterns))))
      signalPassFailure();
  }
};
} // namespace

void mlir::gather::populateUnitStrideVectorGathersPatterns(
    RewritePatternSet &patterns) {
  patterns.add<UnitStrideGather>(patterns.getContext());
}
