//===- RefineExpandShapes.cpp - gather-canonicalize
//------------------------===//
//
// Part of the gather project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// A tensor.expand_shape whose output_shape operand becomes a constant keeps
// that result dimension dynamic: upstream folds the constant into
// static_output_shape and leaves the type alone. MLIR 22's
// ConvertToStaticExpandShape canonicalization assumes that every dynamic
// result dimension still has an output_shape operand; on such an op it
// reads past the operand list and segfaults
// (test/Fuzz/upstream-expand-shape-crash.mlir). The gather canonicalizations
// and lowerings create expand_shapes of casts, so the pipelines canonicalize
// with this pattern ahead of upstream's (gather-canonicalize).
//
//===----------------------------------------------------------------------===//

#include "gather/Compat/Passes.h"
#include "gather/Utils/Reassociation.h"

#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"
#include "llvm/Support/MathExtras.h"

namespace mlir::gather {
#define GEN_PASS_DEF_GATHERCANONICALIZE
#include "gather/Compat/Passes.h.inc"
} // namespace mlir::gather

using namespace mlir;
using namespace mlir::gather;

namespace {
/// Makes static the result dimensions whose output_shape entry is static,
/// with a cast back to the old type; a dynamic source dimension whose
/// group becomes all static is cast to the group's product first (the
/// op requires a dynamic result dimension in its group otherwise).
struct RefineExpandShapeType : OpRewritePattern<tensor::ExpandShapeOp> {
  // Ahead of upstream's patterns on the same op: one of them would crash.
  RefineExpandShapeType(MLIRContext *context)
      : OpRewritePattern(context, /*benefit=*/2) {}

  LogicalResult matchAndRewrite(tensor::ExpandShapeOp op,
                                PatternRewriter &rewriter) const override {
    RankedTensorType resultType = op.getResultType();
    if (findMisplacedReassociationIndex(op.getReassociationIndices(),
                                        resultType.getRank()))
      return rewriter.notifyMatchFailure(op, "malformed reassociation");
    SmallVector<int64_t> refined(resultType.getShape());
    bool changed = false;
    for (auto [d, size] : llvm::enumerate(op.getStaticOutputShape())) {
      // A negative entry (the verifier lets one through) is no size.
      if (ShapedType::isDynamic(refined[d]) && size >= 0) {
        refined[d] = size;
        changed = true;
      }
    }
    if (!changed)
      return rewriter.notifyMatchFailure(op, "no static size to refine");

    RankedTensorType sourceType = op.getSrcType();
    SmallVector<int64_t> sourceShape(sourceType.getShape());
    // A static source dimension has an all-static group already (verified).
    for (auto [i, group] : llvm::enumerate(op.getReassociationIndices())) {
      if (ShapedType::isStatic(sourceShape[i]) ||
          llvm::any_of(group, [&](int64_t d) {
            return ShapedType::isDynamic(refined[d]);
          }))
        continue;
      bool overflow = false;
      uint64_t product = 1;
      for (int64_t d : group)
        product =
            llvm::SaturatingMultiply<uint64_t>(product, refined[d], &overflow);
      if (overflow || product > static_cast<uint64_t>(INT64_MAX))
        return rewriter.notifyMatchFailure(op, "group size overflows");
      sourceShape[i] = product;
    }

    Location loc = op.getLoc();
    Value source = op.getSrc();
    if (ArrayRef<int64_t>(sourceShape) != sourceType.getShape())
      source = tensor::CastOp::create(
          rewriter, loc,
          RankedTensorType(
              RankedTensorType::Builder(sourceType).setShape(sourceShape)),
          source);
    auto expanded = tensor::ExpandShapeOp::create(
        rewriter, loc,
        RankedTensorType(
            RankedTensorType::Builder(resultType).setShape(refined)),
        source, op.getReassociationIndices(), op.getMixedOutputShape());
    rewriter.replaceOpWithNewOp<tensor::CastOp>(op, resultType, expanded);
    return success();
  }
};
} // namespace

void mlir::gather::populateRefineExpandShapePatterns(
    RewritePatternSet &patterns) {
  patterns.add<RefineExpandShapeType>(patterns.getContext());
}

namespace {
/// --canonicalize with the refinement in the same driver: the canonical
/// patterns of every loaded dialect and op, and the refinement first.
struct GatherCanonicalizePass
    : gather::impl::GatherCanonicalizeBase<GatherCanonicalizePass> {
  using Base::Base;

  LogicalResult initialize(MLIRContext *context) override {
    RewritePatternSet owning(context);
    for (Dialect *dialect : context->getLoadedDialects())
      dialect->getCanonicalizationPatterns(owning);
    for (RegisteredOperationName op : context->getRegisteredOperations())
      op.getCanonicalizationPatterns(owning, context);
    populateRefineExpandShapePatterns(owning);
    patterns = std::make_shared<FrozenRewritePatternSet>(std::move(owning));
    return success();
  }

  void runOnOperation() override {
    GreedyRewriteConfig config;
    config.setUseTopDownTraversal(topDown);
    config.setRegionSimplificationLevel(
        regionSimplification ? GreedySimplifyRegionLevel::Normal
                             : GreedySimplifyRegionLevel::Disabled);
    // Like --canonicalize: not converging is not an error.
    (void)applyPatternsGreedily(getOperation(), *patterns, config);
  }

  std::shared_ptr<const FrozenRewritePatternSet> patterns;
};
} // namespace
