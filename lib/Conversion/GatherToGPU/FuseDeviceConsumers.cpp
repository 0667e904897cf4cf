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
#include "mlir/Interfaces/ValueBoundsOpInterface.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"
#include "llvm/ADT/SmallBitVector.h"

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

/// Whether `value` comes from an all-parallel generic of that one use in
/// `user`'s block: what fuseProducerOfAnInput fuses where linalg can.
bool isFusableProducer(Value value, Operation *user) {
  auto producer = value.getDefiningOp<linalg::GenericOp>();
  return producer && producer->hasOneUse() &&
         producer->getBlock() == user->getBlock() &&
         producer.getNumLoops() == producer.getNumParallelLoops();
}

/// Whether `op` is a tensor.expand_shape or tensor.collapse_shape of one use
/// that only adds or removes dimensions of 1: each group of its
/// reassociation has at most one dimension of another size, so the other
/// dimensions keep their order and sizes.
bool isUnitReshape(Operation *op) {
  RankedTensorType expanded;
  SmallVector<ReassociationIndices> groups;
  if (auto expand = dyn_cast_or_null<tensor::ExpandShapeOp>(op)) {
    expanded = expand.getResultType();
    groups = expand.getReassociationIndices();
  } else if (auto collapse = dyn_cast_or_null<tensor::CollapseShapeOp>(op)) {
    expanded = collapse.getSrcType();
    groups = collapse.getReassociationIndices();
  } else {
    return false;
  }
  return op->hasOneUse() && llvm::all_of(groups, [&](const auto &group) {
           return llvm::count_if(group, [&](int64_t dim) {
                    return expanded.getDimSize(dim) != 1;
                  }) <= 1;
         });
}

/// The value that `value` reshapes through unit reshapes (itself if none),
/// with the reshapes from `value` up.
Value throughUnitReshapes(Value value,
                          SmallVectorImpl<Operation *> *reshapes = nullptr) {
  while (isUnitReshape(value.getDefiningOp())) {
    if (reshapes)
      reshapes->push_back(value.getDefiningOp());
    value = value.getDefiningOp()->getOperand(0);
  }
  return value;
}

bool hasUnitDims(Value value) {
  return llvm::is_contained(cast<ShapedType>(value.getType()).getShape(), 1);
}

/// Whether linalg::dropUnitDims can rewrite `op` whole: it fails after
/// creating ops (which a pattern must not) only on a tensor with an
/// encoding.
bool droppableUnitDims(Operation *op) {
  return llvm::none_of(op->getOperandTypes(), [](Type type) {
    auto tensor = dyn_cast<RankedTensorType>(type);
    return tensor && tensor.getEncoding();
  });
}

/// Fuses the producer of one of `consumer`'s inputs into it, where the
/// producer is an all-parallel generic of that one use, read at the loop
/// position; moves the host code between the two that the consumer does not
/// need after the fused loop.
LogicalResult fuseProducerOfAnInput(PatternRewriter &rewriter,
                                    linalg::GenericOp consumer) {
  for (OpOperand *operand : consumer.getDpsInputOperands()) {
    if (!isFusableProducer(operand->get(), consumer) ||
        !consumer.getMatchingIndexingMap(operand).isIdentity() ||
        !linalg::areElementwiseOpsFusable(operand))
      continue;
    auto producer = operand->get().getDefiningOp<linalg::GenericOp>();
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

/// The affine expression of an index the body of `op` computes, where it is
/// a loop position (linalg.index) or a constant.
std::optional<AffineExpr> indexExpr(linalg::GenericOp op, Value index) {
  if (auto loop = index.getDefiningOp<linalg::IndexOp>();
      loop && loop->getParentOp() == op)
    return getAffineDimExpr(loop.getDim(), op.getContext());
  if (std::optional<int64_t> constant = getConstantIntValue(index))
    return getAffineConstantExpr(*constant, op.getContext());
  return std::nullopt;
}

/// Whether dimension `dim` of `tensor` is as long as loop `loop` of `op`
/// runs (what a read of it at that loop's position as an input asks).
bool spansLoop(linalg::GenericOp op, Value tensor, int64_t dim, unsigned loop) {
  for (OpOperand &operand : op->getOpOperands()) {
    AffineMap map = op.getMatchingIndexingMap(&operand);
    for (auto [r, result] : llvm::enumerate(map.getResults())) {
      auto d = dyn_cast<AffineDimExpr>(result);
      if (!d || d.getPosition() != loop)
        continue;
      FailureOr<bool> equal = ValueBoundsConstraintSet::areEqual(
          {tensor, dim}, {operand.get(), static_cast<int64_t>(r)});
      return succeeded(equal) && *equal;
    }
  }
  return false;
}

/// The reads of captured tensors in `op`'s body at loop positions and
/// constants (a gather's read of its indices), each with the indexing map
/// that reads the same element as an input.
struct CapturedRead {
  tensor::ExtractOp read;
  AffineMap map;
};
SmallVector<CapturedRead> capturedReads(linalg::GenericOp op) {
  SmallVector<CapturedRead> reads;
  for (Operation &nested : op.getBlock()->without_terminator()) {
    auto read = dyn_cast<tensor::ExtractOp>(nested);
    if (!read ||
        op->isAncestor(read.getTensor().getParentBlock()->getParentOp()))
      continue;
    SmallVector<AffineExpr> exprs;
    for (auto [dim, index] : llvm::enumerate(read.getIndices())) {
      std::optional<AffineExpr> expr = indexExpr(op, index);
      if (!expr)
        break;
      if (auto d = dyn_cast<AffineDimExpr>(*expr);
          d && !spansLoop(op, read.getTensor(), dim, d.getPosition()))
        break;
      if (auto c = dyn_cast<AffineConstantExpr>(*expr);
          c && (c.getValue() < 0 ||
                c.getValue() >= read.getTensor().getType().getDimSize(dim)))
        break;
      exprs.push_back(*expr);
    }
    if (exprs.size() == read.getIndices().size())
      reads.push_back(
          {read, AffineMap::get(op.getNumLoops(), 0, exprs, op.getContext())});
  }
  return reads;
}

/// Whether every loop of `consumer` is spanned by an operand other than
/// `fused` or by one of `reads` (in the producer of `fused`, which the
/// consumer reads at its loop position): what linalg's fusion asks of a
/// reduction, whose loops take their lengths from its operands.
bool loopsSpannedAfterFusion(linalg::GenericOp consumer, OpOperand *fused,
                             ArrayRef<CapturedRead> reads) {
  llvm::SmallBitVector spanned(consumer.getNumLoops());
  auto mark = [&](AffineMap map) {
    for (AffineExpr result : map.getResults())
      if (auto d = dyn_cast<AffineDimExpr>(result))
        spanned.set(d.getPosition());
  };
  for (OpOperand &operand : consumer->getOpOperands())
    if (&operand != fused)
      mark(consumer.getMatchingIndexingMap(&operand));
  for (const CapturedRead &read : reads)
    mark(read.map);
  return spanned.all();
}

/// Turns `reads` into inputs of `op` read through their maps. A reduction
/// that fuses `op` then still has an operand that spans each of its loops
/// (`op`'s only operand, its output, is not read and goes in the fusion).
void readCapturedTensorsAsInputs(PatternRewriter &rewriter,
                                 linalg::GenericOp op,
                                 ArrayRef<CapturedRead> reads) {
  SmallVector<Value> inputs = op.getDpsInputs();
  SmallVector<AffineMap> maps;
  for (OpOperand *input : op.getDpsInputOperands())
    maps.push_back(op.getMatchingIndexingMap(input));
  for (CapturedRead read : reads) {
    inputs.push_back(read.read.getTensor());
    maps.push_back(read.map);
  }
  for (OpOperand &init : op.getDpsInitsMutable())
    maps.push_back(op.getMatchingIndexingMap(&init));
  // In `op`'s place: the host code after it reads what its loop wrote.
  OpBuilder::InsertionGuard guard(rewriter);
  rewriter.setInsertionPoint(op);
  auto replacement = linalg::GenericOp::create(
      rewriter, op.getLoc(), op.getResultTypes(), inputs, op.getDpsInits(),
      maps, op.getIteratorTypesArray());
  rewriter.inlineRegionBefore(op.getRegion(), replacement.getRegion(),
                              replacement.getRegion().begin());
  Block *body = replacement.getBlock();
  unsigned at = op.getNumDpsInputs();
  for (CapturedRead captured : reads) {
    tensor::ExtractOp read = captured.read;
    BlockArgument value =
        body->insertArgument(at++, read.getType(), read.getLoc());
    rewriter.replaceAllUsesWith(read.getResult(), value);
    rewriter.eraseOp(read);
  }
  rewriter.replaceOp(op, replacement->getResults());
}

/// Fuses the producer of one of the consumer's inputs into it.
struct FuseIntoElementwiseConsumer : OpRewritePattern<linalg::GenericOp> {
  using OpRewritePattern::OpRewritePattern;

  LogicalResult matchAndRewrite(linalg::GenericOp consumer,
                                PatternRewriter &rewriter) const override {
    if (!consumer.hasPureTensorSemantics() || !isElementwise(consumer))
      return failure();
    return fuseProducerOfAnInput(rewriter, consumer);
  }
};

/// Fuses a gather into the reduction that reads it (an embedding bag's
/// sum): each iteration of the fused loop gathers the element it adds, so
/// the gathered intermediate (the bag's rows, 32 times its sums' bytes) is
/// never written to device memory. linalg.reduce becomes a generic first,
/// the form fusion takes; its input is read at the loop position.
struct FuseIntoReduction : OpRewritePattern<linalg::GenericOp> {
  using OpRewritePattern::OpRewritePattern;

  LogicalResult matchAndRewrite(linalg::GenericOp consumer,
                                PatternRewriter &rewriter) const override {
    if (!consumer.hasPureTensorSemantics() ||
        consumer.getNumReductionLoops() == 0)
      return failure();
    if (succeeded(fuseProducerOfAnInput(rewriter, consumer)))
      return success();
    // A gather's loop has no operand but its output: its reads of the
    // indices become inputs, then it fuses.
    for (OpOperand *operand : consumer.getDpsInputOperands()) {
      if (!isFusableProducer(operand->get(), consumer) ||
          linalg::areElementwiseOpsFusable(operand))
        continue;
      auto producer = operand->get().getDefiningOp<linalg::GenericOp>();
      if (producer.getNumDpsInputs() != 0 ||
          !consumer.getMatchingIndexingMap(operand).isIdentity())
        continue;
      SmallVector<CapturedRead> reads = capturedReads(producer);
      if (reads.empty() || !loopsSpannedAfterFusion(consumer, operand, reads))
        continue;
      readCapturedTensorsAsInputs(rewriter, producer, reads);
      return success();
    }
    return failure();
  }
};

/// A reduction over a fusable loop (a gather's) whose result or read has
/// dimensions of 1 (a bag of one row, a table of rows of one element): the
/// gather's lowering drops some of them and the reduction reads it through
/// reshapes, or a loop of one iteration has no index read that spans it.
/// Both loops run without their loops of one iteration (the gather's
/// first); the reduction then reads the gather's result directly, at its
/// loop position, and fuses with it (above).
struct DropUnitLoopsOfAReduction : OpRewritePattern<linalg::GenericOp> {
  using OpRewritePattern::OpRewritePattern;

  LogicalResult matchAndRewrite(linalg::GenericOp consumer,
                                PatternRewriter &rewriter) const override {
    if (!consumer.hasPureTensorSemantics() ||
        consumer.getNumReductionLoops() == 0)
      return failure();
    for (OpOperand *input : consumer.getDpsInputOperands()) {
      SmallVector<Operation *> reshapes;
      Value root = throughUnitReshapes(input->get(), &reshapes);
      Operation *user = reshapes.empty() ? consumer : reshapes.back();
      if (!isFusableProducer(root, user) ||
          !consumer.getMatchingIndexingMap(input).isIdentity() ||
          (reshapes.empty() && !hasUnitDims(root)) ||
          !droppableUnitDims(consumer) ||
          !droppableUnitDims(root.getDefiningOp()))
        continue;
      // Unit reshapes keep the other dimensions: the input without its
      // dimensions of 1 has the type of the root without its.
      auto withoutUnitDims = [](Value value) {
        auto type = cast<RankedTensorType>(value.getType());
        SmallVector<int64_t> sizes;
        llvm::copy_if(type.getShape(), std::back_inserter(sizes),
                      [](int64_t size) { return size != 1; });
        return type.clone(sizes);
      };
      if (withoutUnitDims(input->get()) != withoutUnitDims(root))
        continue;
      // Every loop of one iteration (static sizes of 1): their positions
      // are 0.
      linalg::ControlDropUnitDims options;
      options.controlFn = [](Operation *op) {
        return llvm::to_vector(
            llvm::seq<unsigned>(0, cast<linalg::LinalgOp>(op).getNumLoops()));
      };
      if (hasUnitDims(root)) {
        // In the gather's place: the host code after it (the read of its
        // error flag) must stay after its loop.
        OpBuilder::InsertionGuard guard(rewriter);
        rewriter.setInsertionPoint(root.getDefiningOp());
        FailureOr<linalg::DropUnitDimsResult> dropped = linalg::dropUnitDims(
            rewriter, root.getDefiningOp<linalg::GenericOp>(), options);
        if (failed(dropped))
          continue;
        rewriter.replaceOp(root.getDefiningOp(), dropped->replacements);
        return success();
      }
      // The identity map makes the reduction's loops of one iteration the
      // dimensions of 1 of its input, which collapses to the root's type.
      unsigned position = input->getOperandNumber();
      Operation *reduction = consumer;
      if (hasUnitDims(input->get())) {
        OpBuilder::InsertionGuard guard(rewriter);
        rewriter.setInsertionPoint(consumer);
        FailureOr<linalg::DropUnitDimsResult> dropped =
            linalg::dropUnitDims(rewriter, consumer, options);
        if (failed(dropped))
          continue;
        rewriter.replaceOp(consumer, dropped->replacements);
        reduction = dropped->resultOp;
        reshapes.insert(reshapes.begin(),
                        reduction->getOperand(position).getDefiningOp());
      }
      rewriter.modifyOpInPlace(reduction,
                               [&] { reduction->setOperand(position, root); });
      for (Operation *reshape : reshapes)
        if (reshape->use_empty())
          rewriter.eraseOp(reshape);
      return success();
    }
    return failure();
  }
};

/// linalg.reduce of what a fusable loop (a gather's) computes, as the
/// generic that FuseIntoReduction takes (a reduce that stays unfused keeps
/// that form: gather-gpu-reduction-loops takes either).
struct GeneralizeReductionOfALoop : OpRewritePattern<linalg::ReduceOp> {
  using OpRewritePattern::OpRewritePattern;

  LogicalResult matchAndRewrite(linalg::ReduceOp reduce,
                                PatternRewriter &rewriter) const override {
    if (!reduce.hasPureTensorSemantics() ||
        llvm::none_of(reduce.getDpsInputs(), [&](Value input) {
          SmallVector<Operation *> reshapes;
          Value root = throughUnitReshapes(input, &reshapes);
          return isFusableProducer(
              root, reshapes.empty() ? reduce.getOperation() : reshapes.back());
        }))
      return failure();
    return linalg::generalizeNamedOp(rewriter, reduce);
  }
};

struct GatherFuseDeviceConsumersPass
    : gather::impl::GatherFuseDeviceConsumersBase<
          GatherFuseDeviceConsumersPass> {
  void runOnOperation() override {
    RewritePatternSet patterns(&getContext());
    patterns.add<FuseIntoElementwiseConsumer, FuseIntoReduction,
                 DropUnitLoopsOfAReduction, GeneralizeReductionOfALoop>(
        &getContext());
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
          return isFusableProducer(collapse.getSrc(), collapse);
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
