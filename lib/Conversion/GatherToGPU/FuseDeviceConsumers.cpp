//===- FuseDeviceConsumers.cpp - one kernel for a gather and its consumers ===//
//
// Part of the gather project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// The CPU pipeline fuses a gather into its consumer's tiles before the
// lowering (gather-fuse-consumers); the GPU lowering makes one parallel
// linalg.generic per gather, which upstream's elementwise fusion can merge
// with the consumer's generic directly. What upstream does not know is the
// host code the GPU lowering puts between the two: the read of the device
// error flag that the gather's loop raises. The fused loop takes the
// consumer's place, so that code moves after it.
//
//===----------------------------------------------------------------------===//

#include "gather/Conversion/GatherToGPU.h"
#include "gather/Utils/Elementwise.h"
#include "gather/Utils/UsedValues.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Linalg/Transforms/Transforms.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

namespace mlir::gather {
#define GEN_PASS_DEF_GATHERFUSEDEVICECONSUMERS
#include "gather/Conversion/Passes.h.inc"
} // namespace mlir::gather

using namespace mlir;
using namespace mlir::gather;

namespace {

/// No memory effects, nested ops included (a linalg.generic on tensors
/// reports none even when its body raises the error flag).
bool isEffectFreeThroughout(Operation *op) {
  WalkResult result = op->walk([](Operation *nested) {
    return isMemoryEffectFree(nested) ? WalkResult::advance()
                                      : WalkResult::interrupt();
  });
  return !result.wasInterrupted();
}

/// Splits the ops strictly between `producer` and `consumer` (one block)
/// into those the consumer needs (its operands and the values its body
/// captures, transitively), which stay before it, and the rest, which may
/// move after the fused loop. Fails where a needed op has memory effects:
/// the ops that move could be ordered against it.
LogicalResult splitOpsBetween(Operation *producer, Operation *consumer,
                              SmallVectorImpl<Operation *> &movable) {
  llvm::SetVector<Value> needed = usedValues(consumer);
  SmallVector<Operation *> between;
  for (Operation *op = consumer->getPrevNode(); op != producer;
       op = op->getPrevNode()) {
    bool isNeeded = llvm::any_of(op->getResults(), [&](Value result) {
      return needed.contains(result);
    });
    if (!isNeeded) {
      between.push_back(op);
      continue;
    }
    if (!isEffectFreeThroughout(op))
      return failure();
    addUsedValues(op, needed);
  }
  movable.assign(between.rbegin(), between.rend());
  return success();
}

/// Fuses the producer of one of the consumer's inputs into it.
struct FuseIntoElementwiseConsumer : OpRewritePattern<linalg::GenericOp> {
  using OpRewritePattern::OpRewritePattern;

  LogicalResult matchAndRewrite(linalg::GenericOp consumer,
                                PatternRewriter &rewriter) const override {
    if (!consumer.hasPureTensorSemantics() || !isElementwise(consumer))
      return failure();
    for (OpOperand *operand : consumer.getDpsInputOperands()) {
      auto producer = operand->get().getDefiningOp<linalg::GenericOp>();
      if (!producer || !producer->hasOneUse() ||
          producer->getBlock() != consumer->getBlock() ||
          !consumer.getMatchingIndexingMap(operand).isIdentity() ||
          !linalg::areElementwiseOpsFusable(operand))
        continue;
      SmallVector<Operation *> movable;
      if (failed(splitOpsBetween(producer, consumer, movable)))
        continue;
      FailureOr<linalg::ElementwiseOpFusionResult> fused =
          linalg::fuseElementwiseOps(rewriter, operand);
      if (failed(fused))
        continue;
      // The host code that read what the producer's loop wrote (its error
      // flag) runs after the fused loop, in its original order.
      Operation *last = fused->fusedOp;
      for (Operation *op : movable) {
        rewriter.moveOpAfter(op, last);
        last = op;
      }
      // The producer's one use was the consumer: only the consumer's
      // results have uses left.
      for (auto [original, replacement] : fused->replacements)
        if (original.getDefiningOp() == consumer.getOperation())
          rewriter.replaceAllUsesWith(original, replacement);
      rewriter.eraseOp(consumer);
      rewriter.eraseOp(producer);
      return success();
    }
    return failure();
  }
};

struct GatherFuseDeviceConsumersPass
    : gather::impl::GatherFuseDeviceConsumersBase<
          GatherFuseDeviceConsumersPass> {
  void runOnOperation() override {
    RewritePatternSet patterns(&getContext());
    patterns.add<FuseIntoElementwiseConsumer>(&getContext());
    // A gather whose lowering drops unit dimensions (gather.nd's coordinate
    // dimension) reaches its consumer through a collapse_shape: the
    // consumer then runs on the uncollapsed shape, next to the gather's
    // loop, and fuses with it.
    linalg::populateFoldReshapeOpsByExpansionPatterns(
        patterns, [](OpOperand *operand) {
          auto collapse =
              operand->get().getDefiningOp<tensor::CollapseShapeOp>();
          auto consumer = dyn_cast<linalg::GenericOp>(operand->getOwner());
          if (!collapse || !consumer || !isElementwise(consumer) ||
              !collapse->hasOneUse())
            return false;
          auto producer = collapse.getSrc().getDefiningOp<linalg::GenericOp>();
          return producer && producer->hasOneUse() &&
                 producer.getNumLoops() == producer.getNumParallelLoops();
        });
    // Only these rewrites: no folding of the host code in between.
    GreedyRewriteConfig config;
    config.enableFolding(false);
    if (failed(
            applyPatternsGreedily(getOperation(), std::move(patterns), config)))
      signalPassFailure();
  }
};

} // namespace
