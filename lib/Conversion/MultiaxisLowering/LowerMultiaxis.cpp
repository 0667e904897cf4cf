//===- LowerMultiaxis.cpp - one gather.multiaxis to loops, and patterns ---===//
//
// Part of the gather project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// Emits what the plan (LoweringPlan.h) decided for one op: the run-time
// checks before the loops, the form that computes the output (block copy,
// vector rows, index tables, or the strategy's own element loops), what a
// failed check does, and the checks after the loops. Also the patterns that
// bring every gather op here.
//
//===----------------------------------------------------------------------===//

#include "BlockCopy.h"
#include "IndexChecks.h"
#include "IndexTables.h"
#include "LoopOrder.h"
#include "LoweringPlan.h"
#include "VectorRows.h"
#include "gather/Dialect/Gather/IR/GatherShapes.h"
#include "gather/Utils/ElementBytes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Arith/Utils/Utils.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Interfaces/FunctionInterfaces.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

using namespace mlir;
using namespace mlir::gather;
using namespace mlir::gather::lowering;

/// i1 "the output has no element" where it may be empty at run time; a
/// constant for static shapes.
static Value buildOutputIsEmpty(OpBuilder &b, Location loc, Value init) {
  auto type = cast<RankedTensorType>(init.getType());
  Value empty;
  for (int64_t d = 0; d < type.getRank(); ++d) {
    if (!type.isDynamicDim(d)) {
      if (type.getDimSize(d) == 0)
        return arith::ConstantIntOp::create(b, loc, b.getI1Type(), 1);
      continue;
    }
    Value size = tensor::DimOp::create(b, loc, init, d);
    Value zero = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq, size,
                                       constIndex(b, loc, 0));
    empty =
        empty ? arith::OrIOp::create(b, loc, empty, zero).getResult() : zero;
  }
  return empty;
}

/// A tensor.empty destination with every size that the operands or the
/// init know statically (the run-time shape checks compare the others);
/// any other destination as it is.
static Value castDestination(OpBuilder &b, Location loc, Value init,
                             ArrayRef<OpFoldResult> outputSizes) {
  auto initType = cast<RankedTensorType>(init.getType());
  SmallVector<int64_t> joined(initType.getShape());
  for (auto [d, size] : llvm::enumerate(outputSizes))
    if (std::optional<int64_t> known = getConstantIntValue(size))
      joined[d] = *known;
  auto joinedType = initType.clone(joined);
  if (joinedType == initType)
    return init;
  // A destination without contents is simply made anew with the sizes.
  // Any other (a function's destination argument, the caller's buffer of a
  // destination-passing entry) stays as it is: the cast under a check whose
  // other branch yields a new tensor bufferized into a copy of the whole
  // output (W4 with dynamic indices through its __into entry: two 16 MB
  // copies a call); the shape checks compare its dynamic sizes.
  if (init.getDefiningOp<tensor::EmptyOp>())
    return buildRefinedEmpty(b, loc, init, joinedType);
  return init;
}

/// The zeroed flag that the loops raise for an invalid index: the
/// strategy's (device memory), else an i8 on the stack or, per the plan, on
/// the heap (freed by the buffer deallocation pass).
static Value emitErrorFlag(OpBuilder &b, Location loc, const LoweringPlan &plan,
                           const MultiaxisLoweringStrategy &strategy) {
  if (strategy.buildErrorFlag)
    return strategy.buildErrorFlag(b, loc, plan.flagOnHeap);
  auto flagType = MemRefType::get({}, b.getI8Type());
  Value flag = plan.flagOnHeap
                   ? memref::AllocOp::create(b, loc, flagType).getResult()
                   : memref::AllocaOp::create(b, loc, flagType).getResult();
  Value zero = arith::ConstantIntOp::create(b, loc, b.getI8Type(), 0);
  memref::StoreOp::create(b, loc, zero, flag, ValueRange{});
  return flag;
}

/// The name of a form, as reportForms says it: the form, how a block copy
/// copies, and the tables resolved before the loops.
static std::string describeForm(const LoweringPlan &plan,
                                const BlockCopyPlan *blockCopy,
                                const VectorRowsPlan *vectorRows) {
  std::string name;
  switch (plan.form) {
  case LoweringPlan::Form::ElementLoops:
    name = "element-loops";
    break;
  case LoweringPlan::Form::VectorRows:
    name = plan.offsetTable ? "vector-rows offset-table" : "vector-rows";
    if (vectorRows->gatherOffsetRows)
      name += " gathered";
    if (vectorRows->collectOffsetRows)
      name += " collected";
    if (vectorRows->offsetChunk)
      name += " offset-chunks";
    break;
  case LoweringPlan::Form::BlockCopy:
    name = blockCopy->copy == BlockCopyPlan::Copy::Tiles ? "block-copy tiles"
           : blockCopy->copy != BlockCopyPlan::Copy::VectorRows
               ? "block-copy slices"
           : blockCopy->dynamicRows ? "block-copy vector-rows run-time-length"
                                    : "block-copy vector-rows";
    break;
  }
  if (plan.coordinateTable)
    name += " coordinate-table";
  return name;
}

/// The output computed by the form the plan chose.
static Value emitForm(OpBuilder &b, Location loc, LoweringState &s,
                      const LoweringPlan &plan,
                      const MultiaxisLoweringStrategy &strategy, Value init) {
  if (plan.coordinateTable)
    s.resolved = buildCoordinateTable(b, loc, s);
  std::optional<BlockCopyPlan> blockCopy;
  if (plan.form == LoweringPlan::Form::BlockCopy)
    blockCopy =
        planBlockCopy(s, cast<RankedTensorType>(init.getType()),
                      plan.blockStart, strategy.prefetch, strategy.vectorize);
  std::optional<VectorRowsPlan> vectorRows;
  if (plan.form == LoweringPlan::Form::VectorRows)
    vectorRows = planVectorRows(s, cast<RankedTensorType>(init.getType()),
                                plan.offsetTable, strategy.prefetch);
  if (strategy.reportForms)
    s.op.emitRemark("lowered as ")
        << describeForm(plan, blockCopy ? &*blockCopy : nullptr,
                        vectorRows ? &*vectorRows : nullptr);
  switch (plan.form) {
  case LoweringPlan::Form::BlockCopy:
    return buildBlockCopy(b, loc, s, init, *blockCopy);
  case LoweringPlan::Form::VectorRows:
    return buildVectorRows(b, loc, s, init, *vectorRows);
  case LoweringPlan::Form::ElementLoops:
    break;
  }
  return strategy.buildLoops(
      b, loc, init, [&](OpBuilder &nb, Location nl, ValueRange coords) {
        return computeElement(nb, nl, s, coords);
      });
}

/// A version of the vector rows for small dynamic axes, chosen at run time.
/// The loop order that keeps a pixel's reads in the L1 cache (an NHWC
/// lookup of (n, c) pairs: pixels outside, index rows inside) needs the
/// bytes those reads range over (axesFootprintBytes: the input's innermost
/// dimension in lines times the other axes), so with a dynamic image count
/// N or channel count C the lookup kept the output's order and every index
/// row streamed the whole input (W5x64 3.1x its static time with N dynamic,
/// 3.2x with C, on a Zen 1). The version plans with sizes whose footprint
/// fills the budget (CpuTarget::reuseFootprintBytes) and runs where the
/// input's footprint is within it; else the loops of the general plan. None
/// where those sizes would not change the order.
struct SmallAxesVersion {
  LoweringState state;
  int64_t budget;
};
static std::optional<SmallAxesVersion>
planSmallAxesVersion(const LoweringState &s, const LoweringPlan &plan,
                     RankedTensorType outputType) {
  if (plan.form != LoweringPlan::Form::VectorRows)
    return std::nullopt;
  auto inputType = cast<RankedTensorType>(s.op.getInput().getType());
  Type elementType = outputType.getElementType();
  int64_t last = s.rank - 1;
  SmallVector<int64_t> dynamicAxes;
  for (int64_t axis : s.axes)
    if (axis != last && inputType.isDynamicDim(axis))
      dynamicAxes.push_back(axis);
  bool lastDynamic = inputType.isDynamicDim(last);
  if (dynamicAxes.empty() && !lastDynamic)
    return std::nullopt;
  SmallAxesVersion version{s, s.target.reuseFootprintBytes()};
  SmallVector<int64_t> &bounds = version.state.inputSizeBounds;
  bounds.assign(s.rank, ShapedType::kDynamic);
  for (int64_t axis : dynamicAxes)
    bounds[axis] = 1;
  if (lastDynamic)
    bounds[last] = 1;
  std::optional<int64_t> perUnit =
      axesFootprintBytes(version.state, elementType);
  if (!perUnit || *perUnit <= 0 || *perUnit > version.budget)
    return std::nullopt;
  // The rest of the budget goes to one dynamic size; the plans read only
  // the product.
  if (lastDynamic) {
    // The innermost dimension counts in whole lines: one element took a
    // line, and the bound is the whole lines that fit, in elements.
    int64_t line = s.target.cacheLineBytes;
    int64_t rowBytes = version.budget / (*perUnit / line) / line * line;
    bounds[last] = rowBytes * 8 /
                   static_cast<int64_t>(elementType.getIntOrFloatBitWidth());
  } else {
    bounds[dynamicAxes.front()] = version.budget / *perUnit;
  }
  if (outerLoopOrder(version.state, last, elementType) ==
      outerLoopOrder(s, last, elementType))
    return std::nullopt;
  return version;
}

/// The checks that failed before the loops, reported: the shapes first,
/// since the index check means nothing without them.
static void emitFailureReports(OpBuilder &b, Location loc, MultiaxisOp op,
                               ArrayRef<RuntimeShapeCheck> shapeChecks,
                               Value shapeOk, Value indexOk,
                               const MultiaxisLoweringStrategy &strategy) {
  if (!indexOk) {
    buildShapeCheckReports(b, loc, op, shapeChecks);
    return;
  }
  if (!shapeOk) {
    buildIndexCheck(b, loc, op, /*assumeInvalid=*/true, strategy.indicesToHost);
    return;
  }
  scf::IfOp::create(
      b, loc, shapeOk,
      [&](OpBuilder &ib, Location il) {
        buildIndexCheck(ib, il, op, /*assumeInvalid=*/true,
                        strategy.indicesToHost);
        scf::YieldOp::create(ib, il);
      },
      [&](OpBuilder &ib, Location il) {
        buildShapeCheckReports(ib, il, op, shapeChecks);
        scf::YieldOp::create(ib, il);
      });
}

/// The output where the loops did not run: the failure reported (if one
/// was), zeros written (serially where the strategy asks: a linalg.fill
/// there would become a parallel loop, an outlined OpenMP function per
/// gather, for a cold path).
static Value emitFailurePath(OpBuilder &b, Location loc, MultiaxisOp op,
                             ArrayRef<RuntimeShapeCheck> shapeChecks,
                             Value shapeOk, Value indexOk, Value errorFree,
                             Value init,
                             const MultiaxisLoweringStrategy &strategy) {
  if (errorFree) {
    Value failed = notValue(b, loc, errorFree);
    scf::IfOp::create(b, loc, failed, [&](OpBuilder &tb, Location tl) {
      emitFailureReports(tb, tl, op, shapeChecks, shapeOk, indexOk, strategy);
      scf::YieldOp::create(tb, tl);
    });
  }
  Type elementType = cast<RankedTensorType>(init.getType()).getElementType();
  Value zero = arith::ConstantOp::create(b, loc, elementType,
                                         b.getZeroAttr(elementType));
  if (strategy.serialColdPath)
    return buildSerialLoopNest(
        b, loc, init, [&](OpBuilder &, Location, ValueRange) { return zero; });
  return linalg::FillOp::create(b, loc, zero, init).getResult(0);
}

/// After loops that checked the index values they read: the indices that
/// no loop read (an empty output or axis) checked on their own (ONNX: every
/// index value must be valid, also one that no output element reads), then
/// the flag read back and a raised one reported.
static void emitChecksAfterLoops(OpBuilder &b, Location loc,
                                 const LoweringState &s, Value init,
                                 Value shapeOk, Value nonEmpty,
                                 const MultiaxisLoweringStrategy &strategy) {
  MultiaxisOp op = s.op;
  Value skipped = buildOutputIsEmpty(b, loc, init);
  if (nonEmpty) {
    Value axisEmpty = notValue(b, loc, nonEmpty);
    skipped = skipped
                  ? arith::OrIOp::create(b, loc, skipped, axisEmpty).getResult()
                  : axisEmpty;
  }
  if (skipped) {
    // With mismatched shapes the error is reported already.
    if (shapeOk)
      skipped = arith::AndIOp::create(b, loc, skipped, shapeOk);
    // Checked here, not through the flag: the host must not write a flag in
    // device memory, and no loop raised it.
    scf::IfOp::create(b, loc, skipped, [&](OpBuilder &tb, Location tl) {
      buildIndexCheck(tb, tl, op, /*assumeInvalid=*/false,
                      strategy.indicesToHost);
      scf::YieldOp::create(tb, tl);
    });
  }
  // Reported where the loops found it, the flag never raised.
  if (s.loopReport == LoweringState::LoopReport::InPlace)
    return;
  Value raised;
  if (strategy.readErrorFlag) {
    raised = strategy.readErrorFlag(b, loc, s.errorFlag);
  } else {
    Value flag = memref::LoadOp::create(b, loc, s.errorFlag);
    raised = arith::CmpIOp::create(
        b, loc, arith::CmpIPredicate::ne, flag,
        arith::ConstantIntOp::create(b, loc, b.getI8Type(), 0));
  }
  scf::IfOp::create(b, loc, raised, [&](OpBuilder &tb, Location tl) {
    buildIndexCheck(tb, tl, op, /*assumeInvalid=*/true, strategy.indicesToHost);
    scf::YieldOp::create(tb, tl);
  });
}

/// The dimensions off the axes along which the indices have a dynamic size
/// (before the last, which holds the tuples): there the multiaxis rule
/// broadcasts indices of size 1 against the input, the usual case (an NHWC
/// lookup's pixels), which the type does not show. Not where the input's
/// size is 1 (the indices alone give the output's size there) or where the
/// output's static size is not the input's (indices of size 1 would fail
/// the shape check).
static SmallVector<int64_t> dynamicBroadcastCandidates(MultiaxisOp op) {
  auto indicesType = cast<RankedTensorType>(op.getIndices().getType());
  auto inputType = cast<RankedTensorType>(op.getInput().getType());
  auto outputType = cast<RankedTensorType>(op.getInit().getType());
  SmallVector<int64_t> dims;
  ArrayRef<int64_t> axes = op.getAxes();
  for (int64_t d = 0; d + 1 < indicesType.getRank(); ++d) {
    if (!indicesType.isDynamicDim(d) || llvm::is_contained(axes, d))
      continue;
    int64_t input = inputType.getDimSize(d), output = outputType.getDimSize(d);
    if (input == 1 || (!ShapedType::isDynamic(input) &&
                       !ShapedType::isDynamic(output) && input != output))
      continue;
    dims.push_back(d);
  }
  return dims;
}

static LogicalResult lowerMultiaxisOnce(RewriterBase &rewriter, MultiaxisOp op,
                                        const MultiaxisLoweringStrategy &s);

/// A version for indices that broadcast where their type does not say so:
/// with every indices size dynamic (as frontends often type them), the
/// index tables that pay for reused indices cannot be planned, since
/// nothing shows the reuse (W5 and W5x64 2.1x their static time on a Zen
/// 1). Where the indices' dynamic sizes off the axes being 1 would give
/// another plan, the gather is split at run time: those sizes 1, the
/// indices cast to a type that says so, planned with the tables; else the
/// general plan. Both are lowered here, without further versions.
static FailureOr<bool>
lowerBroadcastVersions(RewriterBase &rewriter, MultiaxisOp op,
                       const MultiaxisLoweringStrategy &strategy) {
  SmallVector<int64_t> dims = dynamicBroadcastCandidates(op);
  // An op whose shapes do not analyze fails its lowering before any change.
  if (dims.empty() || !strategy.vectorize || !op.hasPureTensorSemantics() ||
      failed(op.analyzeShapes()))
    return false;
  auto indicesType = cast<RankedTensorType>(op.getIndices().getType());
  SmallVector<int64_t> refinedShape(indicesType.getShape());
  for (int64_t d : dims)
    refinedShape[d] = 1;
  auto refinedType = indicesType.clone(refinedShape);
  Location loc = op.getLoc();
  OpBuilder::InsertionGuard guard(rewriter);
  rewriter.setInsertionPoint(op);
  // The plan of each (a plan reads types only, but planning builds the
  // sizes it reads): the refined one on a clone of the op with cast
  // indices. Built beside the op without the rewriter, and erased.
  struct Recorder : OpBuilder::Listener {
    SmallVector<Operation *> created;
    void notifyOperationInserted(Operation *created,
                                 OpBuilder::InsertPoint) override {
      this->created.push_back(created);
    }
  } recorder;
  OpBuilder sb(op, &recorder);
  auto planOf = [&](MultiaxisOp gather) {
    LoweringState state = prepareLowering(sb, loc, gather);
    state.target = strategy.target;
    LoweringPlan plan = planLowering(
        state, cast<RankedTensorType>(gather.getInit().getType()), strategy);
    return std::make_tuple(plan.form, plan.offsetTable, plan.coordinateTable,
                           plan.blockStart);
  };
  auto refinedIndices =
      tensor::CastOp::create(sb, loc, refinedType, op.getIndices());
  auto refined = cast<MultiaxisOp>(sb.clone(*op));
  refined.getIndicesMutable().assign(refinedIndices.getResult());
  // Sizes 1 there may contradict the output's static sizes (a program that
  // fails its shape check at run time then): no version.
  bool differs =
      succeeded(refined.analyzeShapes()) && planOf(refined) != planOf(op);
  for (Operation *created : llvm::reverse(recorder.created)) {
    created->dropAllUses();
    created->erase();
  }
  if (!differs)
    return false;
  Value unit;
  for (int64_t d : dims) {
    Value size = tensor::DimOp::create(rewriter, loc, op.getIndices(), d);
    Value one = arith::CmpIOp::create(rewriter, loc, arith::CmpIPredicate::eq,
                                      size, constIndex(rewriter, loc, 1));
    unit = andValues(rewriter, loc, unit, one);
  }
  MultiaxisOp thenOp, elseOp;
  Value versions = buildVersions(
      rewriter, loc, unit,
      [&](OpBuilder &b, Location l) -> Value {
        Value indices =
            tensor::CastOp::create(b, l, refinedType, op.getIndices());
        thenOp = cast<MultiaxisOp>(b.clone(*op));
        thenOp.getIndicesMutable().assign(indices);
        return thenOp.getOutput();
      },
      [&](OpBuilder &b, Location l) -> Value {
        elseOp = cast<MultiaxisOp>(b.clone(*op));
        return elseOp.getOutput();
      });
  rewriter.replaceOp(op, versions);
  if (failed(lowerMultiaxisOnce(rewriter, thenOp, strategy)) ||
      failed(lowerMultiaxisOnce(rewriter, elseOp, strategy)))
    return failure();
  return true;
}

LogicalResult
mlir::gather::lowerMultiaxis(RewriterBase &rewriter, MultiaxisOp op,
                             const MultiaxisLoweringStrategy &strategy) {
  FailureOr<bool> versioned = lowerBroadcastVersions(rewriter, op, strategy);
  if (failed(versioned))
    return failure();
  if (*versioned)
    return success();
  return lowerMultiaxisOnce(rewriter, op, strategy);
}

static LogicalResult
lowerMultiaxisOnce(RewriterBase &rewriter, MultiaxisOp op,
                   const MultiaxisLoweringStrategy &strategy) {
  FailureOr<GatherShape> shape = op.analyzeShapes();
  if (failed(shape))
    return failure();
  Location loc = op.getLoc();
  rewriter.setInsertionPoint(op);
  LoweringState s = prepareLowering(rewriter, loc, op);
  s.target = strategy.target;
  SmallVector<OpFoldResult> outputSizes =
      reifyOutputShape(rewriter, loc, *shape, op.getInput(), op.getIndices());
  Value init = castDestination(rewriter, loc, op.getInit(), outputSizes);
  LoweringPlan plan =
      planLowering(s, cast<RankedTensorType>(init.getType()), strategy);

  // The checks before the loops: the shapes, then (where the loops cannot
  // check them) the index values, whose check reads sizes that only mean
  // something if the shapes hold.
  SmallVector<RuntimeShapeCheck> shapeChecks =
      buildRuntimeShapeChecks(rewriter, loc, op);
  Value shapeOk = allShapeChecksHold(rewriter, loc, shapeChecks);
  Value indexOk;
  if (plan.indexCheck == LoweringPlan::IndexCheck::BeforeLoops)
    indexOk = buildIndicesAllValid(rewriter, loc, s, strategy.buildAllOf);
  // Loops after a check, like indices proven in bounds, need none.
  if (plan.indexCheck != LoweringPlan::IndexCheck::InLoops &&
      s.policy.canTrap())
    s.policy.outOfBounds = OutOfBoundsMode::unchecked;
  if (plan.indexCheck == LoweringPlan::IndexCheck::InLoops) {
    auto indicesType = cast<RankedTensorType>(op.getIndices().getType());
    bool oneTuple = !strategy.buildErrorFlag && op.getWholeIndices() &&
                    indicesType.hasStaticShape() &&
                    indicesType.getNumElements() == s.coordinateSize;
    s.loopReport = oneTuple ? LoweringState::LoopReport::InPlace
                            : LoweringState::LoopReport::Flag;
    if (!oneTuple)
      s.errorFlag = emitErrorFlag(rewriter, loc, plan, strategy);
  }
  Value errorFree = andValues(rewriter, loc, shapeOk, indexOk);
  Value nonEmpty = buildNonEmptyAxesCheck(rewriter, loc, s);
  Value proceed = andValues(rewriter, loc, errorFree, nonEmpty);

  auto initType = cast<RankedTensorType>(init.getType());
  std::optional<SmallAxesVersion> small =
      planSmallAxesVersion(s, plan, initType);
  auto emitLoops = [&](OpBuilder &b, Location l) -> Value {
    if (!small)
      return emitForm(b, l, s, plan, strategy, init);
    Value fits = buildAxesFootprintFits(b, l, s, initType.getElementType(),
                                        small->budget);
    return buildVersions(
        b, l, fits,
        [&](OpBuilder &tb, Location tl) {
          return emitForm(tb, tl, small->state, plan, strategy, init);
        },
        [&](OpBuilder &eb, Location el) {
          LoweringState general = s;
          return emitForm(eb, el, general, plan, strategy, init);
        });
  };
  Value result;
  if (!proceed) {
    result = emitLoops(rewriter, loc);
  } else {
    result = scf::IfOp::create(
                 rewriter, loc, proceed,
                 [&](OpBuilder &b, Location l) {
                   scf::YieldOp::create(b, l, emitLoops(b, l));
                 },
                 [&](OpBuilder &b, Location l) {
                   scf::YieldOp::create(
                       b, l,
                       emitFailurePath(b, l, op, shapeChecks, shapeOk, indexOk,
                                       errorFree, init, strategy));
                 })
                 .getResult(0);
  }
  if (plan.indexCheck == LoweringPlan::IndexCheck::InLoops)
    emitChecksAfterLoops(rewriter, loc, s, init, shapeOk, nonEmpty, strategy);
  if (result.getType() != op.getInit().getType())
    result =
        tensor::CastOp::create(rewriter, loc, op.getInit().getType(), result);
  rewriter.replaceOp(op, result);
  return success();
}

Value mlir::gather::buildGenericLoopNest(OpBuilder &b, Location loc, Value init,
                                         ElementFn element) {
  auto type = cast<RankedTensorType>(init.getType());
  int64_t rank = type.getRank();
  SmallVector<AffineMap> maps = {b.getMultiDimIdentityMap(rank)};
  SmallVector<utils::IteratorType> iterators(rank,
                                             utils::IteratorType::parallel);
  auto generic = linalg::GenericOp::create(
      b, loc, TypeRange{type}, ValueRange{}, ValueRange{init}, maps, iterators,
      [&](OpBuilder &nb, Location nloc, ValueRange) {
        SmallVector<Value> coords;
        for (int64_t d = 0; d < rank; ++d)
          coords.push_back(linalg::IndexOp::create(nb, nloc, d));
        linalg::YieldOp::create(nb, nloc, element(nb, nloc, coords));
      });
  return generic.getResult(0);
}

scf::ParallelOp mlir::gather::buildParallelOverShape(
    OpBuilder &b, Location loc, ArrayRef<Value> sizes,
    llvm::function_ref<void(OpBuilder &, Location, ValueRange)> body) {
  Value c0 = arith::ConstantIndexOp::create(b, loc, 0);
  Value c1 = arith::ConstantIndexOp::create(b, loc, 1);
  int64_t rank = sizes.size();
  // A rank-0 space is one iteration of a 1-D loop.
  SmallVector<Value> lower(std::max<int64_t>(rank, 1), c0);
  SmallVector<Value> steps(std::max<int64_t>(rank, 1), c1);
  SmallVector<Value> upper(sizes.begin(), sizes.end());
  if (rank == 0)
    upper.push_back(c1);
  return scf::ParallelOp::create(
      b, loc, lower, upper, steps,
      [&](OpBuilder &nb, Location nloc, ValueRange ivs) {
        body(nb, nloc, rank == 0 ? ValueRange{} : ivs);
      });
}

//===----------------------------------------------------------------------===//
// Patterns
//===----------------------------------------------------------------------===//

namespace {

/// gather.elements whose sizes are only known at run time: checks that no
/// indices size exceeds the data size (ONNX and torch reject that), then
/// rewrites it into multiaxis form with in-bounds slices. Before the plain
/// rewrite, which leaves such ops alone.
struct LowerRuntimeBoundedElements : OpRewritePattern<ElementsOp> {
  LowerRuntimeBoundedElements(MLIRContext *context)
      : OpRewritePattern(context, /*benefit=*/2) {}

  LogicalResult matchAndRewrite(ElementsOp op,
                                PatternRewriter &rewriter) const override {
    if (!op.hasPureTensorSemantics() || getRuntimeBoundedDims(op).empty())
      return rewriter.notifyMatchFailure(op, "sizes are checked statically");
    if (failed(op.analyzeShapes()))
      return rewriter.notifyMatchFailure(op, "invalid operand shapes");
    Location loc = op.getLoc();
    rewriter.setInsertionPoint(op);
    SmallVector<RuntimeShapeCheck> checks;
    for (const RuntimeShapeCheck &check :
         buildRuntimeShapeChecks(rewriter, loc, op))
      if (check.kind == RuntimeErrorKind::IndicesLargerThanData)
        checks.push_back(check);
    Value fits = allShapeChecksHold(rewriter, loc, checks);
    Value tooLarge = notValue(rewriter, loc, fits);
    scf::IfOp::create(rewriter, loc, tooLarge, [&](OpBuilder &b, Location l) {
      buildShapeCheckReports(b, l, op, checks);
      scf::YieldOp::create(b, l);
    });
    return rewriteToMultiaxis(rewriter, op);
  }
};

/// The lowering of gather.multiaxis itself; benefit 0 so that the
/// simplifications, which take dimensions out of the loops, come first.
struct LowerMultiaxisPattern : OpRewritePattern<MultiaxisOp> {
  LowerMultiaxisPattern(MLIRContext *context,
                        const MultiaxisLoweringStrategy &strategy)
      : OpRewritePattern(context, /*benefit=*/0), strategy(strategy) {}

  LogicalResult matchAndRewrite(MultiaxisOp op,
                                PatternRewriter &rewriter) const override {
    if (!op.hasPureTensorSemantics())
      return rewriter.notifyMatchFailure(op, "lowered by the buffer pattern");
    return lowerMultiaxis(rewriter, op, strategy);
  }

  MultiaxisLoweringStrategy strategy;
};

/// Any gather op on buffers (bufferized before it was lowered): the scalar
/// semantics in an scf.parallel.
struct LowerBufferGatherPattern : OpInterfaceRewritePattern<GatherOpInterface> {
  using OpInterfaceRewritePattern::OpInterfaceRewritePattern;

  LogicalResult matchAndRewrite(GatherOpInterface op,
                                PatternRewriter &rewriter) const override {
    if (!isa<MemRefType>(op.getInit().getType()))
      return rewriter.notifyMatchFailure(op, "not on buffers");
    return lowerBufferGather(rewriter, op);
  }
};

} // namespace

void mlir::gather::populateMultiaxisLoweringPatterns(
    RewritePatternSet &patterns, const MultiaxisLoweringStrategy &strategy) {
  MLIRContext *context = patterns.getContext();
  patterns.add<LowerRuntimeBoundedElements>(context);
  populateGatherToMultiaxisPatterns(patterns);
  MultiaxisOp::getCanonicalizationPatterns(patterns, context);
  patterns.add<LowerMultiaxisPattern>(context, strategy);
  // Buffers are lowered by their scalar semantics on the host (they report
  // errors from inside the loops).
  if (strategy.lowerBufferForms)
    patterns.add<LowerBufferGatherPattern>(context);
}

LogicalResult
mlir::gather::applyGatherLoweringPatterns(Operation *root,
                                          RewritePatternSet &&patterns) {
  GreedyRewriteConfig config;
  // The lowering leaves no blocks to merge; skipping region simplification
  // keeps large functions linear.
  config.setRegionSimplificationLevel(GreedySimplifyRegionLevel::Disabled);
  (void)applyPatternsGreedily(root, std::move(patterns), config);
  WalkResult left = root->walk([](Operation *op) {
    if (!isa<MultiaxisOp, BlockOp, ElementsOp, NdOp>(op))
      return WalkResult::advance();
    op->emitOpError("could not be lowered");
    return WalkResult::interrupt();
  });
  return failure(left.wasInterrupted());
}
