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

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Linalg/Transforms/Transforms.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/IRMapping.h"
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

/// Whether `consumer` is a loop on tensors that a gather's loop can fuse
/// into here: an elementwise one, or one with reductions.
bool isFusableConsumer(linalg::GenericOp consumer) {
  return consumer.hasPureTensorSemantics() &&
         (consumer.getNumReductionLoops() != 0 || isElementwise(consumer));
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

/// The loops of `op` of one iteration (static size 1) that go, all but the
/// last where all are: a loop nest of none would run on the host.
SmallVector<unsigned> unitLoopsToDrop(linalg::LinalgOp op) {
  SmallVector<int64_t> ranges = op.getStaticLoopRanges();
  SmallVector<unsigned> loops;
  for (auto [loop, range] : llvm::enumerate(ranges))
    if (range == 1)
      loops.push_back(loop);
  if (!loops.empty() && loops.size() == ranges.size())
    loops.pop_back();
  return loops;
}

/// The type of `value` (a ranked tensor) without dimensions `dims`.
Type withoutDims(Value value, ArrayRef<unsigned> dims) {
  auto type = cast<RankedTensorType>(value.getType());
  SmallVector<int64_t> sizes;
  for (auto [dim, size] : llvm::enumerate(type.getShape()))
    if (!llvm::is_contained(dims, dim))
      sizes.push_back(size);
  return type.clone(sizes);
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

/// Whether `value` is the one result of the scf.if around a fusable loop
/// that a gather of dynamic sizes lowers to: the loop where the run-time
/// shape check passes, the shape error or the zero output in the other
/// branch.
bool isShapeCheckedLoop(Value value) {
  auto branch = value.getDefiningOp<scf::IfOp>();
  if (!branch || branch->getNumResults() != 1 || !value.hasOneUse() ||
      branch.getElseRegion().empty())
    return false;
  scf::YieldOp yield = branch.thenYield();
  return isFusableProducer(yield.getOperand(0), yield);
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

/// The index that `index` selects where dimension `dim` of `tensor` is not
/// of size 1: a gather of dynamic sizes reads a dimension that may
/// broadcast at position `select(dim == 1, 0, i)`; `index` itself
/// otherwise. Where that dimension spans i's loop, a size of 1 makes the
/// loop one iteration long and i 0, so the read is at i.
Value unlessBroadcast(Value index, Value tensor, int64_t dim) {
  auto select = index.getDefiningOp<arith::SelectOp>();
  if (!select || !isZeroInteger(select.getTrueValue()))
    return index;
  auto compare = select.getCondition().getDefiningOp<arith::CmpIOp>();
  if (!compare || compare.getPredicate() != arith::CmpIPredicate::eq ||
      !isOneInteger(compare.getRhs()))
    return index;
  FailureOr<bool> equal = ValueBoundsConstraintSet::areEqual(
      compare.getLhs(), ValueBoundsConstraintSet::Variable(tensor, dim));
  return succeeded(equal) && *equal ? select.getFalseValue() : index;
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
      std::optional<AffineExpr> expr =
          indexExpr(op, unlessBroadcast(index, read.getTensor(), dim));
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

/// A consumer (a reduction, or elementwise) of a fusable loop (a gather's)
/// where either has dimensions of 1 (a bag of one row, a table of rows of
/// one element): the gather's lowering drops some of them and the consumer
/// reads it through reshapes, or (a reduction) a loop of one iteration has
/// no index read that spans it. Both loops run without their loops of one
/// iteration (the gather's first); the consumer then reads the gather's
/// result directly, at its loop position, and fuses with it (above).
struct DropUnitLoopsOfAConsumer : OpRewritePattern<linalg::GenericOp> {
  using OpRewritePattern::OpRewritePattern;

  LogicalResult matchAndRewrite(linalg::GenericOp consumer,
                                PatternRewriter &rewriter) const override {
    if (!isFusableConsumer(consumer))
      return failure();
    bool reduction = consumer.getNumReductionLoops() != 0;
    for (OpOperand *input : consumer.getDpsInputOperands()) {
      SmallVector<Operation *> reshapes;
      Value root = throughUnitReshapes(input->get(), &reshapes);
      Operation *user = reshapes.empty() ? consumer : reshapes.back();
      // An elementwise consumer that reads the loop directly fuses as is.
      if (!isFusableProducer(root, user) ||
          !consumer.getMatchingIndexingMap(input).isIdentity() ||
          (!reduction && reshapes.empty()))
        continue;
      auto producer = root.getDefiningOp<linalg::GenericOp>();
      OpOperand *result = producer.getDpsInitOperand(0);
      SmallVector<unsigned> producerLoops = unitLoopsToDrop(producer);
      SmallVector<unsigned> consumerLoops = unitLoopsToDrop(consumer);
      // The identity maps make the loops the dimensions of the gather's
      // result and of the consumer's input: without the loops dropped,
      // both must have one type (unit reshapes keep the other dimensions).
      if ((reshapes.empty() && producerLoops.empty() &&
           consumerLoops.empty()) ||
          !producer.getMatchingIndexingMap(result).isIdentity() ||
          !droppableUnitDims(consumer) || !droppableUnitDims(producer) ||
          withoutDims(root, producerLoops) !=
              withoutDims(input->get(), consumerLoops))
        continue;
      linalg::ControlDropUnitDims options;
      if (!producerLoops.empty()) {
        // In the gather's place: the host code after it (the read of its
        // error flag) must stay after its loop.
        OpBuilder::InsertionGuard guard(rewriter);
        rewriter.setInsertionPoint(producer);
        options.controlFn = [&](Operation *) { return producerLoops; };
        FailureOr<linalg::DropUnitDimsResult> dropped =
            linalg::dropUnitDims(rewriter, producer, options);
        if (failed(dropped))
          continue;
        rewriter.replaceOp(producer, dropped->replacements);
        return success();
      }
      unsigned position = input->getOperandNumber();
      Operation *reader = consumer;
      if (!consumerLoops.empty()) {
        OpBuilder::InsertionGuard guard(rewriter);
        rewriter.setInsertionPoint(consumer);
        options.controlFn = [&](Operation *) { return consumerLoops; };
        FailureOr<linalg::DropUnitDimsResult> dropped =
            linalg::dropUnitDims(rewriter, consumer, options);
        if (failed(dropped))
          continue;
        rewriter.replaceOp(consumer, dropped->replacements);
        reader = dropped->resultOp;
        reshapes.insert(reshapes.begin(),
                        reader->getOperand(position).getDefiningOp());
      }
      rewriter.modifyOpInPlace(reader,
                               [&] { reader->setOperand(position, root); });
      for (Operation *reshape : reshapes)
        if (reshape->use_empty())
          rewriter.eraseOp(reshape);
      return success();
    }
    return failure();
  }
};

/// The ops strictly between `branch` and `consumer` (one block) whose
/// results the consumer or the unit reshapes of `branch`'s result in
/// `reshapes` (their sizes) need, other than through `read` and those
/// reshapes, in program order: they move before the branch. Fails where one
/// has memory effects or needs the branch's result.
LogicalResult opsNeededAfter(scf::IfOp branch, linalg::GenericOp consumer,
                             Value read, ArrayRef<Operation *> reshapes,
                             SmallVectorImpl<Operation *> &needed) {
  // The reshapes go into the branches too: their sizes are needed.
  llvm::SetVector<Value> values = usedValues(consumer);
  for (Operation *reshape : reshapes) {
    addUsedValues(reshape, values);
    values.remove(reshape->getResult(0));
  }
  values.remove(read);
  values.remove(branch.getResult(0));
  SmallVector<Operation *> found;
  for (Operation *op = consumer->getPrevNode(); op != branch;
       op = op->getPrevNode()) {
    if (llvm::is_contained(reshapes, op) ||
        llvm::none_of(op->getResults(),
                      [&](Value result) { return values.contains(result); }))
      continue;
    if (!isEffectFreeThroughout(op))
      return failure();
    addUsedValues(op, values);
    found.push_back(op);
  }
  if (values.contains(branch.getResult(0)))
    return failure();
  needed.assign(found.rbegin(), found.rend());
  return success();
}

/// A consumer of a gather of dynamic sizes, whose loop sits in the branch
/// of an scf.if that the run-time shape check takes: the consumer (with the
/// unit reshapes between) goes into both branches, so that it fuses with the
/// loop in the first (above); the other applies it to the zero output. What
/// it needs that was computed after the branch moves before it.
struct SinkConsumerIntoShapeCheck : OpRewritePattern<linalg::GenericOp> {
  using OpRewritePattern::OpRewritePattern;

  LogicalResult matchAndRewrite(linalg::GenericOp consumer,
                                PatternRewriter &rewriter) const override {
    // The consumer moves before the host code between: it must not touch
    // memory (a gather fused into it raises its own flag).
    if (!isFusableConsumer(consumer) || !isEffectFreeThroughout(consumer))
      return failure();
    for (OpOperand *input : consumer.getDpsInputOperands()) {
      SmallVector<Operation *> reshapes;
      Value branched = throughUnitReshapes(input->get(), &reshapes);
      auto branch = branched.getDefiningOp<scf::IfOp>();
      SmallVector<Operation *> needed;
      if (!isShapeCheckedLoop(branched) ||
          branch->getBlock() != consumer->getBlock() ||
          !consumer.getMatchingIndexingMap(input).isIdentity() ||
          llvm::count(consumer->getOperands(), input->get()) != 1 ||
          failed(
              opsNeededAfter(branch, consumer, input->get(), reshapes, needed)))
        continue;
      for (Operation *op : needed)
        rewriter.moveOpBefore(op, branch);
      rewriter.setInsertionPoint(branch);
      auto sunk = scf::IfOp::create(
          rewriter, branch.getLoc(), consumer->getResultTypes(),
          branch.getCondition(), /*addThenBlock=*/false,
          /*addElseBlock=*/false);
      for (auto [from, to] :
           {std::pair(&branch.getThenRegion(), &sunk.getThenRegion()),
            std::pair(&branch.getElseRegion(), &sunk.getElseRegion())}) {
        rewriter.inlineRegionBefore(*from, *to, to->end());
        Operation *yield = to->front().getTerminator();
        OpBuilder::InsertionGuard guard(rewriter);
        rewriter.setInsertionPoint(yield);
        IRMapping mapping;
        mapping.map(branched, yield->getOperand(0));
        for (Operation *reshape : llvm::reverse(reshapes))
          rewriter.clone(*reshape, mapping);
        Operation *copy = rewriter.clone(*consumer, mapping);
        rewriter.modifyOpInPlace(
            yield, [&] { yield->setOperands(copy->getResults()); });
      }
      rewriter.replaceOp(consumer, sunk->getResults());
      for (Operation *reshape : reshapes)
        rewriter.eraseOp(reshape);
      rewriter.eraseOp(branch);
      return success();
    }
    return failure();
  }
};

/// A size of a gather of dynamic sizes read from its result (the sizes of a
/// reduction's output): the scf.if around its loop yields the loop, whose
/// destination is defined before the branch, or the fill of that same
/// destination, so the size is the destination's. Read from it, the
/// consumer is the branch's one use and can go into it (above).
struct DimOfShapeCheckedLoop : OpRewritePattern<tensor::DimOp> {
  using OpRewritePattern::OpRewritePattern;

  LogicalResult matchAndRewrite(tensor::DimOp dim,
                                PatternRewriter &rewriter) const override {
    auto branch = dim.getSource().getDefiningOp<scf::IfOp>();
    if (!branch || branch->getNumResults() != 1 ||
        branch.getElseRegion().empty())
      return failure();
    auto loop =
        branch.thenYield().getOperand(0).getDefiningOp<linalg::GenericOp>();
    auto fill =
        branch.elseYield().getOperand(0).getDefiningOp<linalg::FillOp>();
    if (!loop || !fill || loop.getNumDpsInits() != 1 ||
        loop.getDpsInits()[0] != fill.getOutputs()[0] ||
        branch->isAncestor(
            fill.getOutputs()[0].getParentBlock()->getParentOp()))
      return failure();
    rewriter.modifyOpInPlace(
        dim, [&] { dim.getSourceMutable().assign(fill.getOutputs()[0]); });
    return success();
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
          return isShapeCheckedLoop(root) ||
                 isFusableProducer(root, reshapes.empty()
                                             ? reduce.getOperation()
                                             : reshapes.back());
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
                 DropUnitLoopsOfAConsumer, SinkConsumerIntoShapeCheck,
                 DimOfShapeCheckedLoop, GeneralizeReductionOfALoop>(
        &getContext());
    // Only these rewrites: no folding of the host code in between.
    GreedyRewriteConfig config;
    config.enableFolding(false);
    if (failed(
            applyPatternsGreedily(getOperation(), std::move(patterns), config)))
      signalPassFailure();
  }
};

} // namespace
