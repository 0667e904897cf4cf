//===- LowerMultiaxis.cpp - one gather.multiaxis to loops, and patterns ---===//
//
// Puts the pieces together for one op: the run-time checks before the
// loops, the strategy that computes the output (block copy, vector rows,
// index tables, or the strategy's own element loops), and what a failed
// check does. Also the patterns that bring every gather op here.
//
//===----------------------------------------------------------------------===//

#include "LoweringState.h"

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

/// The destination with every size that the operands or the init know
/// statically (the run-time shape checks compare the others).
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
  return tensor::CastOp::create(b, loc, joinedType, init);
}

LogicalResult
mlir::gather::lowerMultiaxis(RewriterBase &rewriter, MultiaxisOp op,
                             const MultiaxisLoweringStrategy &strategy) {
  FailureOr<GatherShape> shape = op.analyzeShapes();
  if (failed(shape))
    return failure();
  Location loc = op.getLoc();
  rewriter.setInsertionPoint(op);
  LoweringState s = prepareLowering(rewriter, loc, op);
  SmallVector<OpFoldResult> outputSizes =
      reifyOutputShape(rewriter, loc, *shape, op.getInput(), op.getIndices());
  Value init = castDestination(rewriter, loc, op.getInit(), outputSizes);
  auto inferredType = cast<RankedTensorType>(init.getType());
  Type elementType = inferredType.getElementType();

  SmallVector<RuntimeShapeCheck> shapeChecks =
      buildRuntimeShapeChecks(rewriter, loc, op);
  Value shapeOk = allShapeChecksHold(rewriter, loc, shapeChecks);
  // Under `error` the index values are checked either in the loops (a flag
  // the loops raise, decided after them) or, for strategies that cannot,
  // before the loops; the loops of the latter need no check, like indices
  // the verifier proved in bounds.
  bool checkIndices = needsIndexCheck(op);
  bool checkInLoops = checkIndices && strategy.checkIndicesInLoops;
  Value indexOk;
  if (checkIndices && !checkInLoops)
    // Shapes first: index checks read sizes that only make sense if they
    // hold.
    indexOk = buildIndicesAllValid(rewriter, loc, s, strategy.buildAllOf);
  if (!checkInLoops && s.policy.canTrap())
    s.policy.outOfBounds = OutOfBoundsMode::unchecked;
  // Inside a loop (a tile of a fused loop nest) the flag lives on the heap
  // (freed by the buffer deallocation pass): a stack slot there needs an
  // alloca scope, which cannot hold the loops once they become branches.
  bool flagOnHeap = !isa<FunctionOpInterface>(op->getParentOp());
  if (checkInLoops) {
    if (strategy.buildErrorFlag) {
      s.errorFlag = strategy.buildErrorFlag(rewriter, loc, flagOnHeap);
    } else {
      auto flagType = MemRefType::get({}, rewriter.getI8Type());
      s.errorFlag =
          flagOnHeap
              ? memref::AllocOp::create(rewriter, loc, flagType).getResult()
              : memref::AllocaOp::create(rewriter, loc, flagType).getResult();
      Value zero =
          arith::ConstantIntOp::create(rewriter, loc, rewriter.getI8Type(), 0);
      memref::StoreOp::create(rewriter, loc, zero, s.errorFlag, ValueRange{});
    }
  }
  Value errorFree = andValues(rewriter, loc, shapeOk, indexOk);
  Value nonEmpty = buildNonEmptyAxesCheck(rewriter, loc, s);
  Value proceed = andValues(rewriter, loc, errorFree, nonEmpty);

  auto element = [&](OpBuilder &b, Location l, ValueRange coords) {
    return computeElement(b, l, s, coords);
  };
  int64_t blockStart = strategy.blockCopy
                           ? contiguousBlockStart(s, inferredType.getShape())
                           : s.rank;
  // An output with a static size 0 has no element: the plain loop nest
  // (slices would need offsets into empty dimensions, which
  // tensor.extract_slice rejects).
  bool staticallyEmpty = llvm::is_contained(inferredType.getShape(), 0);
  // A block copy needs at least one loop dimension and one block dimension.
  bool useBlockCopy = !staticallyEmpty && blockStart > 0 && blockStart < s.rank;
  ArrayRef<int64_t> loopShape = inferredType.getShape();
  if (useBlockCopy)
    loopShape = loopShape.take_front(blockStart);
  bool reused = shouldResolveIndices(s, loopShape);
  // Vectorize along the innermost dimension. Where interleaved coordinates
  // are reused across many rows (the broadcast dimensions of an NHWC lookup
  // of (n, c) pairs), each tuple is resolved once into a linear-offset table
  // that the rows read contiguously.
  bool singleInnermostAxis = s.axes.size() == 1 && s.axes.front() == s.rank - 1;
  bool vectorize = strategy.vectorize && !useBlockCopy && !staticallyEmpty &&
                   canVectorizeInnermost(s, elementType);
  // The vector path resolves indices in registers.
  bool resolveFirst = strategy.vectorize && !vectorize && reused;
  auto compute = [&](OpBuilder &b, Location l) -> Value {
    if (resolveFirst)
      s.resolved = buildCoordinateTable(b, l, s);
    if (useBlockCopy)
      return buildBlockCopy(b, l, s, init, blockStart, strategy.prefetch,
                            strategy.vectorize);
    if (vectorize)
      return buildVectorRows(b, l, s, init,
                             /*useOffsetTable=*/reused && !singleInnermostAxis,
                             strategy.prefetch);
    return strategy.buildLoops(b, l, init, element);
  };
  Value result;
  if (!proceed) {
    result = compute(rewriter, loc);
  } else {
    auto ifOp = scf::IfOp::create(
        rewriter, loc, proceed,
        [&](OpBuilder &b, Location l) {
          scf::YieldOp::create(b, l, compute(b, l));
        },
        [&](OpBuilder &b, Location l) {
          if (errorFree) {
            Value failed = notValue(b, l, errorFree);
            scf::IfOp::create(b, l, failed, [&](OpBuilder &tb, Location tl) {
              if (!indexOk) {
                buildShapeCheckReports(tb, tl, op, shapeChecks);
              } else if (!shapeOk) {
                buildIndexCheck(tb, tl, op, /*assumeInvalid=*/true,
                                strategy.indicesToHost);
              } else {
                // Shapes first: the index check means nothing without them.
                scf::IfOp::create(
                    tb, tl, shapeOk,
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
              scf::YieldOp::create(tb, tl);
            });
          }
          Value zero = arith::ConstantOp::create(b, l, elementType,
                                                 b.getZeroAttr(elementType));
          Value zeros =
              strategy.serialColdPath
                  ? buildSerialLoopNest(
                        b, l, init,
                        [&](OpBuilder &, Location, ValueRange) { return zero; })
                  : linalg::FillOp::create(b, l, zero, init).getResult(0);
          scf::YieldOp::create(b, l, zeros);
        });
    result = ifOp.getResult(0);
  }
  if (checkInLoops) {
    // The loops read every index value unless the output or an axis is
    // empty; then the indices are checked on their own (ONNX: every index
    // value must be valid, also one that no output element reads).
    Value skipped = buildOutputIsEmpty(rewriter, loc, init);
    if (nonEmpty) {
      Value axisEmpty = notValue(rewriter, loc, nonEmpty);
      skipped = skipped
                    ? arith::OrIOp::create(rewriter, loc, skipped, axisEmpty)
                          .getResult()
                    : axisEmpty;
    }
    if (skipped) {
      // With mismatched shapes the error is reported already.
      if (shapeOk)
        skipped = arith::AndIOp::create(rewriter, loc, skipped, shapeOk);
      // Reported here, not through the flag: the host must not write a
      // flag in device memory, and no loop raised it.
      // The shared check function scans them: no loop nest per gather.
      scf::IfOp::create(rewriter, loc, skipped, [&](OpBuilder &b, Location l) {
        buildIndexCheck(b, l, op, /*assumeInvalid=*/false,
                        strategy.indicesToHost);
        scf::YieldOp::create(b, l);
      });
    }
    Value raised;
    if (strategy.readErrorFlag) {
      raised = strategy.readErrorFlag(rewriter, loc, s.errorFlag);
    } else {
      Value flag = memref::LoadOp::create(rewriter, loc, s.errorFlag);
      raised = arith::CmpIOp::create(
          rewriter, loc, arith::CmpIPredicate::ne, flag,
          arith::ConstantIntOp::create(rewriter, loc, rewriter.getI8Type(), 0));
    }
    scf::IfOp::create(rewriter, loc, raised, [&](OpBuilder &b, Location l) {
      buildIndexCheck(b, l, op, /*assumeInvalid=*/true, strategy.indicesToHost);
      scf::YieldOp::create(b, l);
    });
  }
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
