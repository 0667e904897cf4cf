//===- ReductionLoops.cpp - reductions as one thread per result -----------===//
//
// Part of the gather project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// convert-linalg-to-parallel-loops keeps a generic's loops in their order,
// each parallel band an scf.parallel and each reduction an scf.for that
// loads and stores the result every iteration. For a reduction over a
// middle dimension (an embedding bag's sum over its rows: parallel, reduction,
// parallel) the outer scf.parallel is the only one gather-map-to-gpu maps,
// so the kernel ran one thread per bag, each reading its bag's rows one
// element at a time, and the inner band ran serially in each thread. Here
// every parallel dimension goes into one scf.parallel (one thread per
// result, the innermost dimension fastest: consecutive threads read
// consecutive elements) and the reduction dimensions into scf.for loops
// inside it that carry the results in registers, stored once. A reduction
// to one value becomes one iteration.
//
//===----------------------------------------------------------------------===//

#include "gather/Conversion/GatherToGPU.h"

#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/Transforms/WalkPatternRewriteDriver.h"

namespace mlir::gather {
#define GEN_PASS_DEF_GATHERGPUREDUCTIONLOOPS
#include "gather/Conversion/Passes.h.inc"
} // namespace mlir::gather

using namespace mlir;

namespace {

/// Whether each result of `op` is written at a position of its parallel
/// dimensions only (one thread per result then owns it), and no input is
/// one of the results' buffers (whose reads would see the sums so far).
bool resultsOwnedByParallelDims(linalg::LinalgOp op) {
  SmallVector<utils::IteratorType> iterators = op.getIteratorTypesArray();
  for (OpOperand &init : op.getDpsInitsMutable()) {
    AffineMap map = op.getMatchingIndexingMap(&init);
    if (!map.isProjectedPermutation())
      return false;
    for (AffineExpr result : map.getResults())
      if (iterators[cast<AffineDimExpr>(result).getPosition()] !=
          utils::IteratorType::parallel)
        return false;
    if (llvm::is_contained(op.getDpsInputs(), init.get()))
      return false;
  }
  return true;
}

struct ReductionToThreadPerResult
    : OpInterfaceRewritePattern<linalg::LinalgOp> {
  using OpInterfaceRewritePattern::OpInterfaceRewritePattern;

  LogicalResult matchAndRewrite(linalg::LinalgOp op,
                                PatternRewriter &rewriter) const override {
    if (!op.hasPureBufferSemantics() || op.getNumReductionLoops() == 0 ||
        op->getParentOfType<gpu::LaunchOp>() || !resultsOwnedByParallelDims(op))
      return failure();
    Location loc = op.getLoc();
    SmallVector<Range, 4> ranges = op.createLoopRanges(rewriter, loc);
    SmallVector<utils::IteratorType> iterators = op.getIteratorTypesArray();
    SmallVector<int64_t> parallelDims, reductionDims;
    SmallVector<Value> parallelLbs, parallelUbs, parallelSteps;
    SmallVector<Value> reductionLbs, reductionUbs, reductionSteps;
    for (auto [d, range] : llvm::enumerate(ranges)) {
      bool parallel = iterators[d] == utils::IteratorType::parallel;
      (parallel ? parallelDims : reductionDims).push_back(d);
      (parallel ? parallelLbs : reductionLbs)
          .push_back(
              getValueOrCreateConstantIndexOp(rewriter, loc, range.offset));
      (parallel ? parallelUbs : reductionUbs)
          .push_back(
              getValueOrCreateConstantIndexOp(rewriter, loc, range.size));
      (parallel ? parallelSteps : reductionSteps)
          .push_back(
              getValueOrCreateConstantIndexOp(rewriter, loc, range.stride));
    }
    // A reduction to one value: one iteration (one thread, serial; a tree
    // across threads would be faster), where gather-map-to-gpu rejected
    // the loads of device memory that convert-linalg-to-parallel-loops left
    // on the host.
    bool single = parallelDims.empty();
    if (single) {
      parallelLbs.push_back(arith::ConstantIndexOp::create(rewriter, loc, 0));
      parallelUbs.push_back(arith::ConstantIndexOp::create(rewriter, loc, 1));
      parallelSteps.push_back(parallelUbs.back());
    }
    SmallVector<Value> ivs(ranges.size());
    // The element of `operand` at the loop position, or the operand itself
    // where it is a scalar.
    auto read = [&](OpBuilder &b, Location l, OpOperand &operand) -> Value {
      if (!isa<MemRefType>(operand.get().getType()))
        return operand.get();
      return memref::LoadOp::create(b, l, operand.get(),
                                    positionIn(b, l, op, &operand, ivs));
    };
    Block *body = op.getBlock();
    scf::ParallelOp::create(
        rewriter, loc, parallelLbs, parallelUbs, parallelSteps,
        [&](OpBuilder &pb, Location pl, ValueRange parallelIvs) {
          // (zip stops at the end of parallelDims: a single iteration's
          // induction variable is not a loop position.)
          for (auto [d, iv] : llvm::zip(parallelDims, parallelIvs))
            ivs[d] = iv;
          SmallVector<Value> starts;
          for (OpOperand &init : op.getDpsInitsMutable())
            starts.push_back(read(pb, pl, init));
          scf::LoopNest nest = scf::buildLoopNest(
              pb, pl, reductionLbs, reductionUbs, reductionSteps, starts,
              [&](OpBuilder &b, Location l, ValueRange reductionIvs,
                  ValueRange partial) -> scf::ValueVector {
                for (auto [d, iv] : llvm::zip(reductionDims, reductionIvs))
                  ivs[d] = iv;
                IRMapping mapping;
                for (OpOperand *input : op.getDpsInputOperands())
                  mapping.map(body->getArgument(input->getOperandNumber()),
                              read(b, l, *input));
                for (auto [k, value] : llvm::enumerate(partial))
                  mapping.map(body->getArgument(op.getNumDpsInputs() + k),
                              value);
                for (Operation &nested : body->without_terminator()) {
                  if (auto index = dyn_cast<linalg::IndexOp>(nested)) {
                    mapping.map(index.getResult(), ivs[index.getDim()]);
                    continue;
                  }
                  b.clone(nested, mapping);
                }
                return llvm::map_to_vector(
                    body->getTerminator()->getOperands(),
                    [&](Value v) { return mapping.lookupOrDefault(v); });
              });
          for (auto [init, sum] :
               llvm::zip(op.getDpsInitsMutable(), nest.results))
            memref::StoreOp::create(pb, pl, sum, init.get(),
                                    positionIn(pb, pl, op, &init, ivs));
        });
    rewriter.eraseOp(op);
    return success();
  }

  /// `operand`'s indexing map applied to the loop position `ivs`. A
  /// result's read before the reduction loops names parallel dimensions
  /// only (resultsOwnedByParallelDims), whose positions are set; an input's
  /// is inside them, where every position is.
  static SmallVector<Value> positionIn(OpBuilder &b, Location loc,
                                       linalg::LinalgOp op, OpOperand *operand,
                                       ArrayRef<Value> ivs) {
    AffineMap map = op.getMatchingIndexingMap(operand);
    SmallVector<Value> position;
    for (unsigned r = 0; r < map.getNumResults(); ++r) {
      AffineExpr result = map.getResult(r);
      if (auto dim = dyn_cast<AffineDimExpr>(result)) {
        position.push_back(ivs[dim.getPosition()]);
        continue;
      }
      SmallVector<OpFoldResult> dims(ivs.begin(), ivs.end());
      position.push_back(getValueOrCreateConstantIndexOp(
          b, loc,
          affine::makeComposedFoldedAffineApply(b, loc, map.getSubMap({r}),
                                                dims)));
    }
    return position;
  }
};

struct GatherGpuReductionLoopsPass
    : gather::impl::GatherGpuReductionLoopsBase<GatherGpuReductionLoopsPass> {
  void runOnOperation() override {
    // One walk: each reduction is rewritten once, and nothing else is
    // folded (the host code around the loops stays as it is).
    RewritePatternSet patterns(&getContext());
    patterns.add<ReductionToThreadPerResult>(&getContext());
    walkAndApplyPatterns(getOperation(), std::move(patterns));
  }
};

} // namespace
