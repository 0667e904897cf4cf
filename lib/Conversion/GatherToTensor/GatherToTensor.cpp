//===- GatherToTensor.cpp - gather.multiaxis back to tensor.gather --------===//
//
// Part of the gather project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// For pipelines that only know upstream ops. tensor.gather's result is
// [index batch dims..., source dims with the gather dims set to 1]: it has
// no dimension that pairs source and indices element-wise, its gather_dims
// are increasing, and it defines no out-of-range behaviour. So a multiaxis
// gather converts when, per dimension d:
//   - an axis whose indices size is 1: output 1 (a gathered coordinate);
//   - an axis with indices size != 1, or a non-axis whose input size is 1:
//     an index batch dimension (the input contributes a unit dimension);
//   - a non-axis whose indices size is 1: copied from the source;
// and the axes increase, and the policy is `unchecked` without negative
// wrap (or the pass may assume indices in bounds). The multiaxis indices
// lose their unit dimensions and split the coordinates off the last one;
// the tensor.gather result loses the unit dimensions of the batch
// positions and is transposed to the multiaxis order where they differ.
// Anything else gets a diagnostic naming the op and the dimension.
//
//===----------------------------------------------------------------------===//

#include "gather/Conversion/GatherToTensor.h"
#include "gather/Dialect/Gather/IR/GatherOps.h"

#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

namespace mlir::gather {
#define GEN_PASS_DEF_CONVERTGATHERTOTENSOR
#include "gather/Conversion/Passes.h.inc"
} // namespace mlir::gather

using namespace mlir;
using namespace mlir::gather;

/// The input dimensions that become tensor.gather index batch dimensions,
/// or failure with the reason reported through `emitError` (when given).
static FailureOr<SmallVector<int64_t>>
analyzeTensorGatherForm(MultiaxisOp op, const GatherToTensorOptions &options,
                        EmitErrorFn emitError) {
  auto inputType = cast<RankedTensorType>(op.getInput().getType());
  auto indicesType = cast<RankedTensorType>(op.getIndices().getType());
  int64_t rank = inputType.getRank();
  int64_t k = op.getCoordinateSize();
  ArrayRef<int64_t> axes = op.getAxes();
  auto fail = [&](auto &&write) -> FailureOr<SmallVector<int64_t>> {
    if (emitError)
      write(emitError());
    return failure();
  };
  if (axes.empty())
    return fail([](InFlightDiagnostic diag) {
      diag << "has no axes; tensor.gather needs at least one gather "
              "dimension";
    });
  for (size_t i = 1; i < axes.size(); ++i)
    if (axes[i] <= axes[i - 1])
      return fail([&](InFlightDiagnostic diag) {
        diag << "axes must be increasing to become tensor.gather "
                "gather_dims, got axis "
             << axes[i] << " after " << axes[i - 1];
      });
  // tensor.gather defines nothing for an index out of range, which only
  // `unchecked` without negative wrap matches.
  IndexPolicy policy = op.getIndexPolicy();
  if (!options.assumeInBounds &&
      (policy.wrapsNegative() || !policy.mayReadOutOfBounds()))
    return fail([&](InFlightDiagnostic diag) {
      diag << "has an index policy (negative_indices = "
           << stringifyNegativeIndexMode(op.getNegativeIndices())
           << ", out_of_bounds = "
           << stringifyOutOfBoundsMode(op.getOutOfBounds())
           << ") that tensor.gather cannot express; only unchecked gathers "
              "without negative wrap convert (or pass assume-in-bounds)";
    });
  SmallVector<int64_t> batchDims;
  for (int64_t d = 0; d < rank; ++d) {
    int64_t indexSize =
        getLogicalIndicesSize(indicesType.getDimSize(d), d == rank - 1 ? k : 1);
    bool isAxis = llvm::is_contained(axes, d);
    if (isAxis) {
      if (indexSize != 1)
        batchDims.push_back(d);
      continue;
    }
    if (indexSize == 1)
      continue;
    if (inputType.getDimSize(d) == 1) {
      batchDims.push_back(d);
      continue;
    }
    return fail([&](InFlightDiagnostic diag) {
      diag << "dimension " << d
           << " pairs input and indices element-wise (input size "
           << inputType.getDimSize(d) << ", indices size " << indexSize
           << "), which tensor.gather cannot express";
    });
  }
  return batchDims;
}

LogicalResult
mlir::gather::checkTensorGatherForm(MultiaxisOp op,
                                    const GatherToTensorOptions &options,
                                    EmitErrorFn emitError) {
  return success(succeeded(analyzeTensorGatherForm(op, options, emitError)));
}

/// Rewrites `op`, which has a tensor.gather form with index batch
/// dimensions `batchDims`.
static void convertMultiaxis(RewriterBase &rewriter, MultiaxisOp op,
                             ArrayRef<int64_t> batchDims) {
  Location loc = op.getLoc();
  auto inputType = cast<RankedTensorType>(op.getInput().getType());
  auto indicesType = cast<RankedTensorType>(op.getIndices().getType());
  int64_t rank = inputType.getRank();
  int64_t k = op.getCoordinateSize();
  ArrayRef<int64_t> axes = op.getAxes();
  int64_t batch = batchDims.size();
  rewriter.setInsertionPoint(op);
  // Indices: [.., L*k] -> [.., L, k], then only the batch dims and k.
  Value indices = op.getIndices();
  {
    SmallVector<int64_t> shape(indicesType.getShape().drop_back());
    shape.push_back(getLogicalIndicesSize(indicesType.getDimSize(rank - 1), k));
    shape.push_back(k);
    SmallVector<ReassociationIndices> groups;
    for (int64_t d = 0; d < rank - 1; ++d)
      groups.push_back({d});
    groups.push_back({rank - 1, rank});
    SmallVector<OpFoldResult> outputShape =
        tensor::getMixedSizes(rewriter, loc, indices);
    OpFoldResult last = outputShape.back();
    outputShape.pop_back();
    if (ShapedType::isDynamic(shape[rank - 1])) {
      AffineExpr s0;
      bindSymbols(rewriter.getContext(), s0);
      outputShape.push_back(affine::makeComposedFoldedAffineApply(
          rewriter, loc, s0.floorDiv(k), {last}));
    } else {
      outputShape.push_back(rewriter.getIndexAttr(shape[rank - 1]));
    }
    outputShape.push_back(rewriter.getIndexAttr(k));
    indices = tensor::ExpandShapeOp::create(
        rewriter, loc,
        RankedTensorType::get(shape, indicesType.getElementType()), indices,
        groups, outputShape);
    SmallVector<int64_t> drop;
    for (int64_t d = 0; d < rank; ++d)
      if (!llvm::is_contained(batchDims, d))
        drop.push_back(d);
    indices = collapseUnitDims(rewriter, loc, indices, drop);
  }
  RankedTensorType gatherType = tensor::GatherOp::inferResultType(
      inputType, cast<RankedTensorType>(indices.getType()), axes,
      /*rankReduced=*/false);
  Value gathered = tensor::GatherOp::create(rewriter, loc, gatherType,
                                            op.getInput(), indices, axes);
  // [batch..., source with unit dims at the batch positions] -> drop those,
  // then transpose the batch dims into place.
  SmallVector<int64_t> drop;
  for (int64_t d : batchDims)
    drop.push_back(batch + d);
  Value result = collapseUnitDims(rewriter, loc, gathered, drop);
  SmallVector<int64_t> permutation;
  int64_t nextSource = batch;
  for (int64_t d = 0; d < rank; ++d) {
    auto it = llvm::find(batchDims, d);
    permutation.push_back(it != batchDims.end() ? it - batchDims.begin()
                                                : nextSource++);
  }
  if (!llvm::equal(permutation, llvm::seq<int64_t>(0, rank))) {
    auto resultType = cast<RankedTensorType>(result.getType());
    SmallVector<OpFoldResult> sizes;
    for (int64_t p : permutation)
      sizes.push_back(tensor::getMixedSize(rewriter, loc, result, p));
    Value init = tensor::EmptyOp::create(rewriter, loc, sizes,
                                         resultType.getElementType());
    result =
        linalg::TransposeOp::create(rewriter, loc, result, init, permutation)
            .getResult()[0];
  }
  if (result.getType() != op.getInit().getType())
    result =
        tensor::CastOp::create(rewriter, loc, op.getInit().getType(), result);
  rewriter.replaceOp(op, result);
}

namespace {
/// Benefit 0: the simplifications of the multiaxis form come first.
struct MultiaxisToTensorGather : OpRewritePattern<MultiaxisOp> {
  MultiaxisToTensorGather(MLIRContext *context, GatherToTensorOptions options)
      : OpRewritePattern(context, /*benefit=*/0), options(options) {}

  LogicalResult matchAndRewrite(MultiaxisOp op,
                                PatternRewriter &rewriter) const override {
    if (!op.hasPureTensorSemantics() || failed(op.analyzeShapes()))
      return rewriter.notifyMatchFailure(op, "invalid operand shapes");
    FailureOr<SmallVector<int64_t>> batchDims =
        analyzeTensorGatherForm(op, options, nullptr);
    if (failed(batchDims))
      return rewriter.notifyMatchFailure(op, "no tensor.gather form");
    convertMultiaxis(rewriter, op, *batchDims);
    return success();
  }

  GatherToTensorOptions options;
};
} // namespace

void mlir::gather::populateGatherToTensorPatterns(
    RewritePatternSet &patterns, const GatherToTensorOptions &options) {
  MLIRContext *context = patterns.getContext();
  populateGatherToMultiaxisPatterns(patterns);
  MultiaxisOp::getCanonicalizationPatterns(patterns, context);
  patterns.add<MultiaxisToTensorGather>(context, options);
}

namespace {
struct ConvertGatherToTensorPass
    : gather::impl::ConvertGatherToTensorBase<ConvertGatherToTensorPass> {
  using Base::Base;

  void runOnOperation() override {
    MLIRContext *ctx = &getContext();
    GatherToTensorOptions options;
    options.assumeInBounds = assumeInBounds;
    // First the canonical multiaxis form with its reshapes folded, so that
    // the conversion sees the fewest dimensions.
    RewritePatternSet canonical(ctx);
    populateGatherToMultiaxisPatterns(canonical);
    MultiaxisOp::getCanonicalizationPatterns(canonical, ctx);
    tensor::ExpandShapeOp::getCanonicalizationPatterns(canonical, ctx);
    tensor::CollapseShapeOp::getCanonicalizationPatterns(canonical, ctx);
    // Ahead of one of the expand_shape patterns, which can crash.
    if (auto *gather = ctx->getLoadedDialect<GatherDialect>())
      gather->getCanonicalizationPatterns(canonical);
    (void)applyPatternsGreedily(getOperation(), std::move(canonical));
    RewritePatternSet patterns(ctx);
    populateGatherToTensorPatterns(patterns, options);
    (void)applyPatternsGreedily(getOperation(), std::move(patterns));
    // What is left has no tensor.gather form: say why.
    bool failedAny = false;
    getOperation()->walk([&](Operation *op) {
      if (auto multiaxis = dyn_cast<MultiaxisOp>(op)) {
        failedAny = true;
        (void)checkTensorGatherForm(multiaxis, options,
                                    [&] { return multiaxis.emitOpError(); });
      } else if (isa<BlockOp, ElementsOp, NdOp>(op)) {
        failedAny = true;
        op->emitOpError("has dynamic sizes that must be checked at run time; "
                        "it has no tensor.gather form");
      }
    });
    if (failedAny)
      signalPassFailure();
  }
};
} // namespace
