//===- RefineResultTypes.cpp - tighten gather result types ----------------===//

#include "gather/Dialect/Gather/IR/GatherOps.h"
#include "gather/Dialect/Gather/Transforms/Passes.h"

#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

namespace mlir::gather {
#define GEN_PASS_DEF_GATHERREFINERESULTTYPES
#include "gather/Dialect/Gather/Transforms/Passes.h.inc"
} // namespace mlir::gather

using namespace mlir;
using namespace mlir::gather;

namespace {
/// Replaces the result type by the most static type that agrees with both
/// the written and the inferred type; users keep the written type through a
/// tensor.cast, which canonicalization can fold into them.
template <typename OpTy>
struct RefineResultType : OpRewritePattern<OpTy> {
  using OpRewritePattern<OpTy>::OpRewritePattern;

  LogicalResult matchAndRewrite(OpTy op,
                                PatternRewriter &rewriter) const override {
    FailureOr<GatherShape> shape = op.analyzeShapes();
    if (failed(shape))
      return rewriter.notifyMatchFailure(op, "invalid operand shapes");
    auto written = op.getOutput().getType();
    SmallVector<int64_t> refined;
    for (auto [have, inferred] :
         llvm::zip_equal(written.getShape(), shape->outputShape))
      refined.push_back(ShapedType::isDynamic(have) ? inferred : have);
    auto refinedType = written.clone(refined);
    if (refinedType == written)
      return rewriter.notifyMatchFailure(op, "result type already static");

    rewriter.setInsertionPointAfter(op);
    auto cast = tensor::CastOp::create(rewriter, op.getLoc(), written,
                                       op.getOutput());
    rewriter.modifyOpInPlace(op,
                             [&] { op.getOutput().setType(refinedType); });
    rewriter.replaceAllUsesExcept(op.getOutput(), cast.getResult(), cast);
    return success();
  }
};

struct GatherRefineResultTypesPass
    : gather::impl::GatherRefineResultTypesBase<GatherRefineResultTypesPass> {
  void runOnOperation() override {
    RewritePatternSet patterns(&getContext());
    populateRefineResultTypePatterns(patterns);
    if (failed(applyPatternsGreedily(getOperation(), std::move(patterns))))
      signalPassFailure();
  }
};
} // namespace

void mlir::gather::populateRefineResultTypePatterns(
    RewritePatternSet &patterns) {
  patterns.add<RefineResultType<MultiaxisOp>, RefineResultType<BlockOp>,
               RefineResultType<ElementsOp>, RefineResultType<NdOp>>(
      patterns.getContext());
}
