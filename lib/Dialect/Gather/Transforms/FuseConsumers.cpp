//===- FuseConsumers.cpp - gathers fused into their consumers' tiles ------===//
//
// Part of the gather project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "gather/Dialect/Gather/IR/GatherOps.h"
#include "gather/Dialect/Gather/InterfaceImpls/InterfaceImpls.h"
#include "gather/Dialect/Gather/Transforms/Passes.h"
#include "gather/Dialect/Gather/Utils/RuntimeChecks.h"
#include "gather/Utils/ElementBytes.h"
#include "gather/Utils/Elementwise.h"

#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Arith/Utils/Utils.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Linalg/Transforms/TilingInterfaceImpl.h"
#include "mlir/Dialect/Linalg/Transforms/Transforms.h"
#include "mlir/Dialect/Linalg/Utils/Utils.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/SCF/Transforms/TileUsingInterface.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Dialect/UB/IR/UBOps.h"
#include "mlir/Dialect/Utils/StaticValueUtils.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/IR/Dominance.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"
#include "mlir/Transforms/LoopInvariantCodeMotionUtils.h"
#include "llvm/Support/MathExtras.h"

#include <limits>

namespace mlir::gather {
#define GEN_PASS_DEF_GATHERFUSECONSUMERS
#include "gather/Dialect/Gather/Transforms/Passes.h.inc"
} // namespace mlir::gather

using namespace mlir;
using namespace mlir::gather;

namespace {

/// A gather on tensors and the op that is its only user: an elementwise
/// generic, or a reduction over some of the gathered dimensions (an
/// embedding bag's sum, a max over gathered rows).
struct Candidate {
  Operation *gather;
  linalg::LinalgOp consumer;
  bool reduction;
};

/// Whether `consumer` reduces the value `use` reads whole at each loop
/// position (an identity map, every loop a dimension of it) into one
/// output, with at least one reduction loop: tiling its parallel loops
/// leaves each tile reading a block of the gathered value that the fused
/// gather writes into a buffer of the tile's size.
bool isReductionConsumer(linalg::LinalgOp consumer, OpOperand &use) {
  if (!isa<linalg::GenericOp, linalg::ReduceOp>(consumer.getOperation()))
    return false;
  return consumer.getNumDpsInits() == 1 && consumer.getNumReductionLoops() &&
         consumer.getMatchingIndexingMap(&use).isIdentity() &&
         consumer.getMatchingIndexingMap(consumer.getDpsInitOperand(0))
             .isProjectedPermutation();
}

std::optional<Candidate> findCandidate(GatherOpInterface gather) {
  Operation *op = gather.getOperation();
  if (op->getNumResults() != 1 || !op->getResult(0).hasOneUse())
    return std::nullopt;
  // An empty output has no work to tile (and upstream canonicalization
  // makes the tiled loop's parallel_insert_slice invalid there).
  if (llvm::is_contained(
          cast<ShapedType>(op->getResult(0).getType()).getShape(), 0))
    return std::nullopt;
  OpOperand &use = *op->getResult(0).getUses().begin();
  auto consumer = dyn_cast<linalg::LinalgOp>(use.getOwner());
  if (!consumer || !consumer.hasPureTensorSemantics() ||
      !consumer.isDpsInput(&use))
    return std::nullopt;
  auto generic = dyn_cast<linalg::GenericOp>(use.getOwner());
  bool elementwise = generic && isElementwise(generic) &&
                     consumer.getMatchingIndexingMap(&use).isIdentity();
  if (!elementwise && !isReductionConsumer(consumer, use))
    return std::nullopt;
  // A consumer's operand of a static size 0 makes the loops empty too; its
  // tile would be a tensor.extract_slice at offset 0 of that dimension,
  // which MLIR 22's verifier rejects.
  for (Value operand : consumer->getOperands())
    if (auto type = dyn_cast<ShapedType>(operand.getType());
        type && llvm::is_contained(type.getShape(), 0))
      return std::nullopt;
  return Candidate{op, consumer, !elementwise};
}

/// Outer dimensions tiled so that a tile holds about `tileElements`
/// elements; the innermost dimension stays whole (contiguous rows).
SmallVector<OpFoldResult> chooseTileSizes(OpBuilder &b, ShapedType type,
                                          int64_t tileElements) {
  int64_t rank = type.getRank();
  SmallVector<OpFoldResult> sizes(rank, b.getIndexAttr(1));
  if (rank == 0)
    return {};
  if (rank == 1) {
    sizes[0] = b.getIndexAttr(tileElements);
    return sizes;
  }
  sizes[rank - 1] = b.getIndexAttr(0);
  int64_t row = type.getDimSize(rank - 1);
  int64_t rows =
      ShapedType::isDynamic(row)
          ? 8
          : std::max<int64_t>(1, tileElements / std::max<int64_t>(row, 1));
  sizes[rank - 2] = b.getIndexAttr(rows);
  return sizes;
}

/// Tile counts of a reduction are made a multiple of this: OpenMP's static
/// schedule then deals 1, 2, 4, 8 or 16 threads equal shares. 2048 bags of
/// 20 rows of 64 floats made 41 tiles of 51 bags, one thread's 1071 bags
/// against the other's 977 (bench/README.md).
constexpr int64_t kReductionTileCountMultiple = 16;

/// `OpTy` of two index values: folded by `apply` where both are constants,
/// built otherwise.
template <typename OpTy, typename Apply>
OpFoldResult foldOrBuild(OpBuilder &b, Location loc, OpFoldResult x,
                         OpFoldResult y, Apply apply) {
  std::optional<int64_t> cx = getConstantIntValue(x),
                         cy = getConstantIntValue(y);
  if (cx && cy)
    return b.getIndexAttr(apply(*cx, *cy));
  return OpTy::create(b, loc, getValueOrCreateConstantIndexOp(b, loc, x),
                      getValueOrCreateConstantIndexOp(b, loc, y))
      .getResult();
}

/// Tile sizes for a reduction consumer's loops: reduction loops and an
/// innermost parallel loop whole, the parallel loop nearest inside them
/// tiled so that a tile's gathered block holds about `tileElements`
/// elements, the tiles then made as many as the next multiple of
/// kReductionTileCountMultiple (at most one per iteration) and of equal
/// sizes (computed at run time from dynamic sizes), the outer loops by 1.
/// Empty where no parallel loop is left to tile (one tile would gather
/// everything).
SmallVector<OpFoldResult> chooseReductionTileSizes(OpBuilder &b,
                                                   linalg::LinalgOp op,
                                                   int64_t tileElements) {
  Location loc = op.getLoc();
  SmallVector<Range> ranges = op.createLoopRanges(b, loc);
  SmallVector<utils::IteratorType> iterators = op.getIteratorTypesArray();
  int64_t loops = ranges.size();
  SmallVector<OpFoldResult> sizes(loops, b.getIndexAttr(0));
  OpFoldResult inner = b.getIndexAttr(1);
  bool tiled = false;
  auto mul = [&](OpFoldResult x, OpFoldResult y) {
    return foldOrBuild<arith::MulIOp>(b, loc, x, y, [](int64_t p, int64_t q) {
      int64_t product;
      return llvm::MulOverflow(p, q, product)
                 ? std::numeric_limits<int64_t>::max()
                 : product;
    });
  };
  // ceil(x / y) for y >= 1.
  auto ceilDiv = [&](OpFoldResult x, OpFoldResult y) {
    return foldOrBuild<arith::CeilDivUIOp>(
        b, loc, x, y,
        [](int64_t p, int64_t q) { return llvm::divideCeil(p, q); });
  };
  auto atLeastOne = [&](OpFoldResult x) {
    return foldOrBuild<arith::MaxUIOp>(
        b, loc, x, b.getIndexAttr(1),
        [](int64_t p, int64_t q) { return std::max(p, q); });
  };
  for (int64_t i = loops - 1; i >= 0; --i) {
    bool parallel = iterators[i] == utils::IteratorType::parallel;
    if (parallel && i != loops - 1) {
      if (tiled) {
        sizes[i] = b.getIndexAttr(1);
      } else {
        // An empty block gathers nothing, and a tile of 0 iterations would
        // never end: every divisor and size at least 1.
        OpFoldResult wanted = atLeastOne(foldOrBuild<arith::DivUIOp>(
            b, loc, b.getIndexAttr(tileElements), atLeastOne(inner),
            [](int64_t p, int64_t q) { return p / q; }));
        OpFoldResult extent = ranges[i].size;
        OpFoldResult count = ceilDiv(extent, wanted);
        OpFoldResult multiple = b.getIndexAttr(kReductionTileCountMultiple);
        OpFoldResult balanced = foldOrBuild<arith::MinUIOp>(
            b, loc, mul(ceilDiv(count, multiple), multiple), extent,
            [](int64_t p, int64_t q) { return std::min(p, q); });
        sizes[i] = atLeastOne(ceilDiv(extent, atLeastOne(balanced)));
      }
      tiled = true;
    }
    if (!tiled)
      inner = mul(inner, ranges[i].size);
  }
  if (!tiled)
    return {};
  return sizes;
}

/// Makes the tiled gather of a reduction's tile write a tensor of its own
/// (a tile-sized buffer) rather than a slice of the whole intermediate,
/// which bufferization would allocate at full size outside the loops: each
/// slice of an empty tensor from outside `loop` (the gather's init, in a
/// dynamic tile also what its shape check's other branch yields) becomes an
/// empty tensor of the slice's sizes.
void gatherIntoTilesOfTheirOwn(RewriterBase &rewriter, Operation *loop) {
  SmallVector<tensor::ExtractSliceOp> slices;
  loop->walk([&](tensor::ExtractSliceOp slice) {
    auto empty = slice.getSource().getDefiningOp<tensor::EmptyOp>();
    if (empty && !loop->isAncestor(empty) &&
        slice.getType().getRank() == slice.getSourceType().getRank())
      slices.push_back(slice);
  });
  for (tensor::ExtractSliceOp slice : slices) {
    rewriter.setInsertionPoint(slice);
    rewriter.replaceOpWithNewOp<tensor::EmptyOp>(
        slice, slice.getMixedSizes(), slice.getType().getElementType());
  }
}

/// A producer (a gather, a fill) fused into the loops that read it, erased
/// where nothing reads it but sizes (read from its init instead: the loops'
/// bounds, dynamic sizes) and slices of it that fusion left unused.
void eraseFusedProducer(RewriterBase &rewriter, Operation *producer) {
  Value init =
      cast<DestinationStyleOpInterface>(producer).getDpsInitOperand(0)->get();
  for (Operation *user : llvm::make_early_inc_range(producer->getUsers())) {
    if (auto dim = dyn_cast<tensor::DimOp>(user))
      rewriter.modifyOpInPlace(dim,
                               [&] { dim.getSourceMutable().assign(init); });
    else if (isa<tensor::ExtractSliceOp>(user) && user->use_empty())
      rewriter.eraseOp(user);
  }
  if (producer->use_empty())
    rewriter.eraseOp(producer);
}

/// The tile's gather fused into each step of its reduction (`loops` around
/// `step`, which reads a slice of the tile's gathered block): each step
/// gathers its own row (the innermost dimension at one outer position) into
/// a buffer of at most kReductionStepBufferBytes, which the CPU pipeline
/// keeps on the stack and LLVM in registers. Through the tile's buffer, an
/// embedding bag's rows went to the L2 and back (2048 bags of 32 rows of
/// 128 floats: 1.35x the time; bench/README.md). Left to the tile where the
/// fusion fails (a tile gather behind its run-time shape check).
void fuseGatherIntoSteps(RewriterBase &rewriter, Operation *step,
                         MutableArrayRef<LoopLikeOpInterface> loops) {
  if (loops.empty())
    return;
  for (OpOperand &operand : step->getOpOperands()) {
    auto slice = operand.get().getDefiningOp<tensor::ExtractSliceOp>();
    Operation *tileGather = slice ? slice.getSource().getDefiningOp() : nullptr;
    if (!isa_and_nonnull<GatherOpInterface>(tileGather))
      continue;
    auto type = slice.getType();
    int64_t bytes = packedElementBytes(type.getElementType());
    if (!type.hasStaticShape() || !bytes ||
        type.getNumElements() * bytes > kReductionStepBufferBytes)
      return;
    if (!scf::tileAndFuseProducerOfSlice(rewriter, slice, loops))
      return;
    gatherIntoTilesOfTheirOwn(rewriter, loops.back());
    eraseFusedProducer(rewriter, tileGather);
    return;
  }
}

/// The fusion control of tiling a consumer: its producer `gather` is fused
/// (where null: any gather it reads), and with `fill` a linalg.fill of its
/// destination (the sums of a reduction, where the loops cover parallel
/// dimensions only); other producers are read through slices.
scf::SCFTileAndFuseOptions::ControlFnTy fuseGatherAndFill(Operation *gather,
                                                          bool fill) {
  return [gather, fill](tensor::ExtractSliceOp, OpResult producer,
                        bool isDestination)
             -> std::optional<scf::SCFTileAndFuseOptions::ControlFnResult> {
    Operation *owner = producer.getOwner();
    bool fused = (gather ? owner == gather
                         : !isDestination && isa<GatherOpInterface>(owner)) ||
                 (fill && isDestination && isa<linalg::FillOp>(owner));
    if (fused)
      return scf::SCFTileAndFuseOptions::ControlFnResult{};
    return std::nullopt;
  };
}

/// The value of the linalg.fill whose tensor result `value` is, or a slice
/// of (null otherwise).
Value filledWith(Value value) {
  while (auto slice = value.getDefiningOp<tensor::ExtractSliceOp>())
    value = slice.getSource();
  auto fill = value.getDefiningOp<linalg::FillOp>();
  if (!fill || !fill.hasPureTensorSemantics())
    return {};
  return fill.getDpsInputOperand(0)->get();
}

/// A read of a fill (or of a slice of one) is its value broadcast, where
/// every lane reads an element or the padding is the value or poison.
struct ReadOfFill : OpRewritePattern<vector::TransferReadOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(vector::TransferReadOp read,
                                PatternRewriter &rewriter) const override {
    Value value = filledWith(read.getBase());
    if (!value || read.getMask() ||
        value.getType() != read.getVectorType().getElementType())
      return failure();
    Value padding = read.getPadding();
    if (!llvm::all_of(read.getInBoundsValues(), [](bool b) { return b; }) &&
        padding != value && !padding.getDefiningOp<ub::PoisonOp>())
      return failure();
    rewriter.replaceOpWithNewOp<vector::BroadcastOp>(read, read.getVectorType(),
                                                     value);
    return success();
  }
};

/// A write that covers the whole of a fill's result (or of a slice of one)
/// writes over the fill's destination instead: the fill's values are never
/// read.
struct WriteOverFill : OpRewritePattern<vector::TransferWriteOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(vector::TransferWriteOp write,
                                PatternRewriter &rewriter) const override {
    auto type = dyn_cast<RankedTensorType>(write.getBase().getType());
    if (!type || write.getMask() || !write.getPermutationMap().isIdentity() ||
        write.getVectorType().getShape() != type.getShape() ||
        !llvm::all_of(write.getIndices(),
                      [](Value i) { return isZeroInteger(i); }))
      return failure();
    Value base = write.getBase();
    auto slice = base.getDefiningOp<tensor::ExtractSliceOp>();
    auto fill =
        (slice ? slice.getSource() : base).getDefiningOp<linalg::FillOp>();
    if (!fill || !fill.hasPureTensorSemantics())
      return failure();
    Value destination = fill.getDpsInitOperand(0)->get();
    if (slice) {
      rewriter.setInsertionPoint(slice);
      destination = tensor::ExtractSliceOp::create(
          rewriter, slice.getLoc(), slice.getType(), destination,
          slice.getMixedOffsets(), slice.getMixedSizes(),
          slice.getMixedStrides());
    }
    rewriter.modifyOpInPlace(
        write, [&] { write.getBaseMutable().assign(destination); });
    return success();
  }
};

/// Where the fill of the sums is made in a loop (`root`) around the
/// reduction (fused into the parallel loops), the sums start as the fill's
/// value in registers and are written over the unfilled destination: no
/// fill is left. LLVM did neither with a fill of each bag's sums: its
/// stores (16 of 32 bytes for 128 floats) stayed, and so did the 8 64-byte
/// loads of them back, which wait on the stores (no store forwarding from
/// narrower stores). The loops' unchanged iter_args and whole slices are
/// folded first, so that the read and the write see the fill.
void foldFillsIntoSums(Operation *root) {
  MLIRContext *context = root->getContext();
  RewritePatternSet patterns(context);
  scf::ForOp::getCanonicalizationPatterns(patterns, context);
  tensor::ExtractSliceOp::getCanonicalizationPatterns(patterns, context);
  tensor::InsertSliceOp::getCanonicalizationPatterns(patterns, context);
  patterns.add<ReadOfFill, WriteOverFill>(context);
  (void)applyPatternsGreedily(root, std::move(patterns));
}

/// The reduction of one tile as vector operations: its loops tiled by 1 but
/// the innermost, taken whole (a static size of at most
/// `kVectorReductionElements`, or steps of that many where they divide it),
/// the parallel loops outside the reduction loops, the gather fused into
/// each step, each step vectorized, what a step reads and writes of the
/// output carried through the loops that do not move along it
/// (hoistLoopInvariantSubsets), and a fill of the output folded into the
/// carried values (foldFillsIntoSums): a bag's sum starts in registers and
/// stays there while its rows are added. convert-linalg-to-loops would leave
/// scalar loops that LLVM does not vectorize (its cost model rejected the
/// loop that adds a gathered row into the output row). Left as it is where
/// the innermost size is dynamic or the body is no reduction the vectorizer
/// takes.
constexpr int64_t kVectorReductionElements = 1024;
static_assert(kVectorReductionElements * 8 <= kReductionStepBufferBytes,
              "a step of 64-bit elements fits the stack buffer");

void vectorizeReductionTile(RewriterBase &rewriter, linalg::LinalgOp op) {
  SmallVector<int64_t> ranges = op.getStaticLoopRanges();
  if (ranges.empty() || ShapedType::isDynamic(ranges.back()) ||
      ranges.back() == 0)
    return;
  int64_t inner = ranges.back();
  int64_t step = inner <= kVectorReductionElements ? inner
                 : inner % kVectorReductionElements == 0
                     ? kVectorReductionElements
                     : 0;
  if (step == 0)
    return;
  // The parallel loops first, then the reduction loops inside them (each
  // tiled by 1; the innermost whole or in steps).
  SmallVector<utils::IteratorType> iterators = op.getIteratorTypesArray();
  int64_t innerSize = step == inner ? 0 : step;
  SmallVector<OpFoldResult> parallelSizes(ranges.size(),
                                          rewriter.getIndexAttr(0));
  SmallVector<OpFoldResult> reductionSizes = parallelSizes;
  for (auto [d, iterator] : llvm::enumerate(iterators)) {
    int64_t size = d + 1 == ranges.size() ? innerSize : 1;
    (iterator == utils::IteratorType::parallel ? parallelSizes
                                               : reductionSizes)[d] =
        rewriter.getIndexAttr(size);
  }
  // A fill of the sums (the destination) is fused into the parallel loops
  // only (a reduction loop would refill them at each step): each position
  // fills the sums it adds into, and foldFillsIntoSums below folds that
  // fill away. The gather is fused there too, then into the steps.
  auto tiles = [](ArrayRef<OpFoldResult> sizes) {
    return llvm::any_of(sizes,
                        [](OpFoldResult s) { return !isZeroInteger(s); });
  };
  Operation *parallelStep = op;
  SmallVector<LoopLikeOpInterface> loops;
  bool tiledParallel = tiles(parallelSizes);
  if (tiledParallel) {
    scf::SCFTilingOptions parallelTiling;
    parallelTiling.setLoopType(scf::SCFTilingOptions::LoopType::ForOp);
    parallelTiling.setTileSizes(parallelSizes);
    scf::SCFTileAndFuseOptions options;
    options.setTilingOptions(parallelTiling);
    options.setFusionControlFn(fuseGatherAndFill(/*gather=*/nullptr,
                                                 /*fill=*/true));
    rewriter.setInsertionPoint(op);
    FailureOr<scf::SCFTileAndFuseResult> outer =
        scf::tileConsumerAndFuseProducersUsingSCF(
            rewriter, cast<TilingInterface>(op.getOperation()), options);
    if (failed(outer))
      return;
    SmallVector<Operation *> parallelSteps =
        llvm::filter_to_vector(outer->tiledAndFusedOps, [](Operation *tiledOp) {
          return !isa<linalg::FillOp, GatherOpInterface>(tiledOp);
        });
    // The producers fused here, erased where nothing else reads them.
    SmallVector<Operation *> producers;
    for (Value operand : op->getOperands()) {
      if (auto slice = operand.getDefiningOp<tensor::ExtractSliceOp>())
        operand = slice.getSource();
      if (isa_and_nonnull<linalg::FillOp, GatherOpInterface>(
              operand.getDefiningOp()))
        producers.push_back(operand.getDefiningOp());
    }
    for (OpResult r : op->getResults())
      rewriter.replaceAllUsesWith(r, outer->replacements.lookup(r));
    rewriter.eraseOp(op);
    for (Operation *producer : producers)
      eraseFusedProducer(rewriter, producer);
    if (outer->loops.empty() || parallelSteps.size() != 1)
      return;
    // Each position's gather into a tensor of its own.
    gatherIntoTilesOfTheirOwn(rewriter, outer->loops.front());
    parallelStep = parallelSteps.front();
    loops = outer->loops;
  }
  SmallVector<LoopLikeOpInterface> reductionLoops;
  Operation *tiledStep = parallelStep;
  if (tiles(reductionSizes)) {
    scf::SCFTilingOptions reductionTiling;
    reductionTiling.setLoopType(scf::SCFTilingOptions::LoopType::ForOp);
    reductionTiling.setTileSizes(reductionSizes);
    rewriter.setInsertionPoint(parallelStep);
    FailureOr<scf::SCFTilingResult> tiled = scf::tileUsingSCF(
        rewriter, cast<TilingInterface>(parallelStep), reductionTiling);
    if (failed(tiled) || tiled->tiledOps.size() != 1)
      return;
    rewriter.replaceOp(parallelStep, tiled->replacements);
    reductionLoops = tiled->loops;
    llvm::append_range(loops, reductionLoops);
    tiledStep = tiled->tiledOps.front();
  }
  fuseGatherIntoSteps(rewriter, tiledStep, reductionLoops);
  if (failed(linalg::vectorizeOpPrecondition(tiledStep)))
    return;
  FailureOr<linalg::VectorizationResult> vectorized =
      linalg::vectorize(rewriter, tiledStep);
  if (failed(vectorized))
    return;
  rewriter.replaceOp(tiledStep, vectorized->replacements);
  if (loops.empty())
    return;
  // The vectorizer's constants (the transfers' padding) out of the loops
  // first: a subset op is hoisted only where its operands are defined
  // outside the loop.
  Operation *outermost = loops.front();
  SmallVector<Operation *> constants;
  outermost->walk([&](Operation *inside) {
    if (inside->hasTrait<OpTrait::ConstantLike>())
      constants.push_back(inside);
  });
  for (Operation *constant : constants)
    constant->moveBefore(outermost);
  // (Each loop that hoisting rewrites is replaced by a new one.)
  for (LoopLikeOpInterface &loop : llvm::reverse(loops))
    loop = hoistLoopInvariantSubsets(rewriter, loop);
  // (Without parallel loops, a fill before the reduction loops is one that
  // a loop around them made: convert-linalg-to-gather's, a bag's.)
  Operation *root = tiledParallel ? loops.front().getOperation()
                                  : loops.front().getOperation()->getParentOp();
  if (isa<LoopLikeOpInterface>(root))
    foldFillsIntoSums(root);
}

/// Makes the tiled gather write into the consumer's destination tile and
/// the consumer update the gathered tile in place: the gathered value
/// becomes the consumer's output operand (its block argument the output
/// argument). Otherwise the gather writes a tile of its own init, which
/// bufferization allocates in every iteration, and the consumer reading one
/// buffer while writing another through reshapes would need a copy. Only
/// where the consumer does not read its destination and the types agree.
void updateGatheredTileInPlace(RewriterBase &rewriter, Operation *tiledGather,
                               linalg::GenericOp tiledConsumer,
                               DominanceInfo &dominance) {
  OpOperand *dest = tiledConsumer.getDpsInitOperand(0);
  Value gathered = tiledGather->getResult(0);
  if (dest->get().getType() != gathered.getType() ||
      tiledConsumer.payloadUsesValueFromOperand(dest) || !gathered.hasOneUse())
    return;
  Value tile = dest->get();
  if (!dominance.properlyDominates(tile, tiledGather)) {
    // The consumer's destination slice can move up to the gather.
    Operation *slice = tile.getDefiningOp();
    if (!slice || slice->getBlock() != tiledGather->getBlock() ||
        !llvm::all_of(slice->getOperands(), [&](Value v) {
          return dominance.properlyDominates(v, tiledGather);
        }))
      return;
    slice->moveBefore(tiledGather);
  }
  OpOperand &init =
      cast<DestinationStyleOpInterface>(tiledGather).getDpsInitsMutable()[0];
  Operation *oldInit = init.get().getDefiningOp();
  rewriter.modifyOpInPlace(tiledGather, [&] { init.assign(tile); });
  if (isa_and_nonnull<tensor::ExtractSliceOp>(oldInit) && oldInit->use_empty())
    rewriter.eraseOp(oldInit);

  OpOperand &use = *gathered.getUses().begin();
  unsigned gatheredInput = use.getOperandNumber();
  SmallVector<Value> inputs;
  SmallVector<AffineMap> maps;
  for (OpOperand *input : tiledConsumer.getDpsInputOperands()) {
    if (input->getOperandNumber() == gatheredInput)
      continue;
    inputs.push_back(input->get());
    maps.push_back(tiledConsumer.getMatchingIndexingMap(input));
  }
  maps.push_back(tiledConsumer.getMatchingIndexingMap(dest));
  rewriter.setInsertionPoint(tiledConsumer);
  auto inPlace = linalg::GenericOp::create(
      rewriter, tiledConsumer.getLoc(), tiledConsumer.getResultTypes(), inputs,
      ValueRange{gathered}, maps, tiledConsumer.getIteratorTypesArray());
  // Block arguments: the inputs but the gathered one, then the output,
  // which now carries the gathered value.
  Block *oldBody = tiledConsumer.getBlock();
  Block *newBody = rewriter.createBlock(&inPlace.getRegion());
  SmallVector<Value> argMapping(oldBody->getNumArguments());
  for (OpOperand *input : tiledConsumer.getDpsInputOperands()) {
    if (input->getOperandNumber() == gatheredInput)
      continue;
    BlockArgument old = tiledConsumer.getMatchingBlockArgument(input);
    argMapping[old.getArgNumber()] =
        newBody->addArgument(old.getType(), old.getLoc());
  }
  BlockArgument oldGathered = tiledConsumer.getMatchingBlockArgument(&use);
  BlockArgument output =
      newBody->addArgument(oldGathered.getType(), oldGathered.getLoc());
  argMapping[oldGathered.getArgNumber()] = output;
  // The old output argument is unused (checked above).
  BlockArgument oldOutput = tiledConsumer.getMatchingBlockArgument(dest);
  argMapping[oldOutput.getArgNumber()] = output;
  rewriter.mergeBlocks(oldBody, newBody, argMapping);
  rewriter.replaceOp(tiledConsumer, inPlace.getResults());
}

struct GatherFuseConsumersPass
    : gather::impl::GatherFuseConsumersBase<GatherFuseConsumersPass> {
  using Base::Base;

  /// Tiling needs the TilingInterface models of the gather ops and of linalg.
  void getDependentDialects(DialectRegistry &registry) const override {
    Base::getDependentDialects(registry);
    registerTilingInterfaceExternalModels(registry);
    linalg::registerTilingInterfaceExternalModels(registry);
  }

  void runOnOperation() override {
    func::FuncOp func = getOperation();
    MLIRContext *ctx = &getContext();

    // Chains of elementwise ops become one op first, so that the gather
    // fuses with all of them.
    RewritePatternSet fusion(ctx);
    linalg::populateElementwiseOpsFusionPatterns(
        fusion, [](OpOperand *operand) {
          Operation *producer = operand->get().getDefiningOp();
          return producer && producer->hasOneUse();
        });
    if (failed(applyPatternsGreedily(func, std::move(fusion))))
      return signalPassFailure();

    // One gather per consumer: tiling replaces the consumer, so a second
    // gather it reads stays unfused (read through slices of its result).
    SmallVector<Candidate> candidates;
    llvm::SmallPtrSet<Operation *, 8> consumers;
    func.walk([&](GatherOpInterface gather) {
      if (std::optional<Candidate> c = findCandidate(gather);
          c && consumers.insert(c->consumer).second)
        candidates.push_back(*c);
    });
    IRRewriter rewriter(ctx);
    for (Candidate c : candidates) {
      auto resultType =
          cast<ShapedType>(c.consumer.getDpsInitOperand(0)->get().getType());
      scf::SCFTilingOptions tiling;
      tiling.setLoopType(scf::SCFTilingOptions::LoopType::ForallOp);
      rewriter.setInsertionPoint(c.consumer);
      SmallVector<OpFoldResult> sizes =
          c.reduction ? chooseReductionTileSizes(rewriter, c.consumer,
                                                 reductionTileElements)
                      : chooseTileSizes(rewriter, resultType, tileElements);
      if (c.reduction && sizes.empty()) {
        // No parallel loop to tile outside the innermost: a reduction in a
        // loop of its own (a bag's sum in convert-linalg-to-gather's loop
        // over embedding bags). Where the innermost loop is parallel (a
        // row of sums), its steps still take the gather's rows one at a
        // time; a reduction along it (a total) stays unfused.
        if (c.consumer.getIteratorTypesArray().back() ==
            utils::IteratorType::parallel) {
          // The step fusion erases the gather it leaves unused.
          buildEmptyOutputChecks(rewriter, c.gather->getLoc(), c.gather);
          vectorizeReductionTile(rewriter, c.consumer);
        }
        continue;
      }
      tiling.setTileSizes(sizes);
      scf::SCFTileAndFuseOptions options;
      options.setTilingOptions(tiling);
      Operation *gather = c.gather;
      // Only the gather is fused, and a reduction's fill of its
      // destination: other producers (a broadcast bias) are read through
      // slices of their results. The fill in each tile fills the sums where
      // they are summed (the tiles cover the parallel dimensions only, each
      // element in one tile; vectorizeReductionTile then folds it into the
      // sums), not in a pass over the whole output before the loop: an
      // embedding bag of 2048 bags of 32 rows of 128 floats ran 2% faster
      // (Emerald Rapids, bench/README.md).
      options.setFusionControlFn(fuseGatherAndFill(gather, c.reduction));
      FailureOr<scf::SCFTileAndFuseResult> result =
          scf::tileConsumerAndFuseProducersUsingSCF(
              rewriter, cast<TilingInterface>(c.consumer.getOperation()),
              options);
      if (failed(result))
        continue;
      // An output empty at run time runs no tile, so no tile checks the
      // shapes or (under `error`) the indices, which the unfused lowering
      // still does: checked before the loops.
      if (!result->loops.empty()) {
        rewriter.setInsertionPoint(result->loops.front());
        buildEmptyOutputChecks(rewriter, gather->getLoc(), gather);
      }
      Operation *tiledGather = nullptr;
      linalg::GenericOp tiledConsumer;
      linalg::LinalgOp tiledReduction;
      for (Operation *op : result->tiledAndFusedOps) {
        if (isa<GatherOpInterface>(op))
          tiledGather = op;
        else if (auto generic = dyn_cast<linalg::GenericOp>(op))
          tiledConsumer = generic;
        if (auto linalgOp = dyn_cast<linalg::LinalgOp>(op);
            linalgOp && c.reduction && !isa<linalg::FillOp>(op))
          tiledReduction = linalgOp;
      }
      // Only the gather is fused: a producer of its indices stays whole, so
      // the tile's report may name positions in its result too (and so may
      // the steps' gathers, made from the tile's below, which erases it).
      if (auto tiled = dyn_cast_or_null<GatherOpInterface>(tiledGather);
          tiled && !tiled.getWholeIndices())
        if (Value whole =
                getWholeIndicesForTiles(gather, /*producerStaysWhole=*/true))
          rewriter.modifyOpInPlace(
              tiled, [&] { tiled.getWholeIndicesMutable().assign(whole); });
      if (c.reduction) {
        if (!result->loops.empty())
          gatherIntoTilesOfTheirOwn(rewriter, result->loops.front());
        if (tiledReduction)
          vectorizeReductionTile(rewriter, tiledReduction);
      } else if (tiledGather && tiledConsumer) {
        DominanceInfo dominance(tiledGather->getParentOp());
        updateGatheredTileInPlace(rewriter, tiledGather, tiledConsumer,
                                  dominance);
      }
      for (OpResult r : c.consumer->getResults())
        rewriter.replaceAllUsesWith(r, result->replacements.lookup(r));
      rewriter.eraseOp(c.consumer);
      // Slices of the untiled gather that tiling made and fusion left unused.
      for (Operation *user : llvm::make_early_inc_range(gather->getUsers()))
        if (isa<tensor::ExtractSliceOp>(user) && user->use_empty())
          rewriter.eraseOp(user);
      if (gather->use_empty())
        rewriter.eraseOp(gather);
    }
  }
};

} // namespace
