//===- SegmentSums.cpp - embedding bags with offsets to gathers -----------===//
//
// Part of the gather project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// torch-mlir lowers aten.embedding_bag (mode sum, bags given by offsets) to
// one linalg.generic over (bags, every index, row) that adds table row
// indices[j] into bag b's sum where offsets[b] <= j < next(b), next(b) being
// the next bag's offset or, for the last bag, the number of indices: every
// bag visits every index, O(bags x indices x row). Raised here into a loop
// over the bags (scf.forall), each gathering the rows of its own range of
// indices (gather.block) and summing them (linalg.reduce): O(indices x row).
// The CPU pipeline's gather-fuse-consumers then adds each row into the sum as
// it reads it.
//
//===----------------------------------------------------------------------===//

#include "Idioms.h"
#include "gather/Conversion/LinalgToGather.h"

#include "gather/Dialect/Gather/IR/GatherOps.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Dialect/Utils/StaticValueUtils.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "mlir/Interfaces/ValueBoundsOpInterface.h"

using namespace mlir;
using namespace mlir::gather;
using namespace mlir::gather::linalg_to_gather;

namespace {

/// `value` through the casts that keep a signed value, or null through an
/// unsigned one.
Value throughSignedCasts(Value value) {
  bool isUnsigned = false;
  Value raw = lookThroughCasts(value, &isUnsigned);
  return isUnsigned ? Value() : raw;
}

/// The compare `condition` as `x pred y` with `x` the operand for which
/// `isLhs` holds (the predicate swapped where it is the right one): the
/// predicate and `y`, or nullopt.
std::optional<std::pair<arith::CmpIPredicate, Value>>
orientedCompare(Value condition, function_ref<bool(Value)> isLhs) {
  auto cmp = condition.getDefiningOp<arith::CmpIOp>();
  if (!cmp)
    return std::nullopt;
  if (isLhs(cmp.getLhs()))
    return std::make_pair(cmp.getPredicate(), cmp.getRhs());
  if (isLhs(cmp.getRhs()))
    return std::make_pair(swappedPredicate(cmp.getPredicate()), cmp.getLhs());
  return std::nullopt;
}

/// What one embedding bag generic becomes.
struct SegmentSum {
  Value table, indices, offsets;
  /// The add of the row's element and the bag's sum, and whether the sum is
  /// its first operand.
  Operation *combine = nullptr;
  bool sumFirst = false;
  IndexPolicy policy;
};

class SegmentSumMatcher {
public:
  SegmentSumMatcher(linalg::GenericOp generic,
                    const LinalgToGatherOptions &options)
      : generic(generic), options(options) {}
  FailureOr<SegmentSum> match();

private:
  bool isOffset(Value value) const {
    Value raw = throughSignedCasts(value);
    return raw && raw == offsetArg;
  }
  bool isLoopIndex(Value value, int64_t dim) const;
  bool isLoopIndexPlusOne(Value value, int64_t dim) const;
  bool isPosition(Value value) const { return isLoopIndex(value, 1); }
  bool isLowerBound(Value condition) const;
  bool isNextOffset(Value value, const SegmentSum &sum) const;
  bool isUpperBound(Value condition, const SegmentSum &sum) const;

  linalg::GenericOp generic;
  const LinalgToGatherOptions &options;
  BlockArgument offsetArg;
  SmallVector<int64_t> loopSizes;
};

/// Whether `value` is `linalg.index dim` (through signed casts), or 0 where
/// that loop has the static size 1 (canonicalization folds its index so).
bool SegmentSumMatcher::isLoopIndex(Value value, int64_t dim) const {
  if (loopSizes[dim] == 1 && constantOf(value) == std::optional<int64_t>(0))
    return true;
  Value raw = throughSignedCasts(value);
  auto index = raw ? raw.getDefiningOp<linalg::IndexOp>() : nullptr;
  return index && index.getDim() == static_cast<uint64_t>(dim);
}

/// Whether `value` is `linalg.index dim` plus 1 (through signed casts), or
/// 1 where that loop has the static size 1.
bool SegmentSumMatcher::isLoopIndexPlusOne(Value value, int64_t dim) const {
  if (loopSizes[dim] == 1 && constantOf(value) == std::optional<int64_t>(1))
    return true;
  Value raw = throughSignedCasts(value);
  auto add = raw ? raw.getDefiningOp<arith::AddIOp>() : nullptr;
  if (!add)
    return false;
  auto one = [](Value v) { return constantOf(v) == std::optional<int64_t>(1); };
  return (one(add.getRhs()) && isLoopIndex(add.getLhs(), dim)) ||
         (one(add.getLhs()) && isLoopIndex(add.getRhs(), dim));
}

/// `offsets[b] <= j`: `sle`/`sge` either way round, or `slt` or `eq`.
bool SegmentSumMatcher::isLowerBound(Value condition) const {
  auto fromOffset =
      orientedCompare(condition, [&](Value v) { return isOffset(v); });
  if (fromOffset && isPosition(fromOffset->second))
    return fromOffset->first == arith::CmpIPredicate::sle;
  auto either = condition.getDefiningOp<arith::OrIOp>();
  if (!either)
    return false;
  auto less =
      orientedCompare(either.getLhs(), [&](Value v) { return isOffset(v); });
  auto equal =
      orientedCompare(either.getRhs(), [&](Value v) { return isOffset(v); });
  if (less && less->first == arith::CmpIPredicate::eq)
    std::swap(less, equal);
  return less && equal && less->first == arith::CmpIPredicate::slt &&
         equal->first == arith::CmpIPredicate::eq && isPosition(less->second) &&
         isPosition(equal->second);
}

/// `b + 1 == bags ? size(indices) : offsets[b + 1]`; `size(indices)` where
/// the one bag is the last (canonicalization folds the select so).
bool SegmentSumMatcher::isNextOffset(Value value, const SegmentSum &sum) const {
  if (loopSizes[0] == 1 && isSizePlus(value, sum.indices, 0, 0))
    return true;
  auto select = value.getDefiningOp<arith::SelectOp>();
  if (!select || !isSizePlus(select.getTrueValue(), sum.indices, 0, 0))
    return false;
  auto last = orientedCompare(
      select.getCondition(), [&](Value v) { return isLoopIndexPlusOne(v, 0); });
  if (!last || last->first != arith::CmpIPredicate::eq ||
      !isSizePlus(last->second, sum.offsets, 0, 0))
    return false;
  Value raw = throughSignedCasts(select.getFalseValue());
  auto next = raw ? raw.getDefiningOp<tensor::ExtractOp>() : nullptr;
  return next && next.getTensor() == sum.offsets &&
         isLoopIndexPlusOne(next.getIndices()[0], 0);
}

/// `j < next(b)`: `slt` either way round.
bool SegmentSumMatcher::isUpperBound(Value condition,
                                     const SegmentSum &sum) const {
  auto fromPosition =
      orientedCompare(condition, [&](Value v) { return isPosition(v); });
  return fromPosition && fromPosition->first == arith::CmpIPredicate::slt &&
         isNextOffset(fromPosition->second, sum);
}

FailureOr<SegmentSum> SegmentSumMatcher::match() {
  using utils::IteratorType;
  if (generic.getNumDpsInputs() != 2 || generic.getNumDpsInits() != 1 ||
      generic.getNumResults() != 1 || generic.getNumLoops() != 3 ||
      generic.getIteratorTypesArray() !=
          SmallVector<IteratorType>{IteratorType::parallel,
                                    IteratorType::reduction,
                                    IteratorType::parallel})
    return failure();
  loopSizes = generic.getStaticLoopRanges();
  MLIRContext *ctx = generic.getContext();
  auto map = [&](ArrayRef<unsigned> dims) {
    SmallVector<AffineExpr> exprs;
    for (unsigned d : dims)
      exprs.push_back(getAffineDimExpr(d, ctx));
    return AffineMap::get(3, 0, exprs, ctx);
  };
  OpOperand *init = generic.getDpsInitOperand(0);
  auto initType = dyn_cast<RankedTensorType>(init->get().getType());
  if (!initType || generic.getMatchingIndexingMap(init) != map({0, 2}))
    return failure();
  SegmentSum sum;
  BlockArgument indexArg;
  for (OpOperand *input : generic.getDpsInputOperands()) {
    auto type = dyn_cast<RankedTensorType>(input->get().getType());
    if (!type || type.getRank() != 1 || !type.getElementType().isInteger())
      return failure();
    AffineMap inputMap = generic.getMatchingIndexingMap(input);
    if (inputMap == map({1})) {
      sum.indices = input->get();
      indexArg = generic.getMatchingBlockArgument(input);
    } else if (inputMap == map({0})) {
      sum.offsets = input->get();
      offsetArg = generic.getMatchingBlockArgument(input);
    }
  }
  // The comparisons are of 64-bit values: a narrower position would wrap.
  if (!sum.indices || !sum.offsets ||
      cast<RankedTensorType>(sum.offsets.getType())
              .getElementType()
              .getIntOrFloatBitWidth() != 64)
    return failure();

  Block *body = generic.getBody();
  for (Operation &op : body->without_terminator())
    if (!isMemoryEffectFree(&op) || op.getNumRegions())
      return failure();
  BlockArgument bagSum = generic.getMatchingBlockArgument(init);
  auto select =
      body->getTerminator()->getOperand(0).getDefiningOp<arith::SelectOp>();
  if (!select || select.getFalseValue() != bagSum)
    return failure();
  Operation *combine = select.getTrueValue().getDefiningOp();
  if (!isa_and_nonnull<arith::AddFOp, arith::AddIOp>(combine) ||
      combine->getBlock() != body)
    return failure();
  sum.combine = combine;
  sum.sumFirst = combine->getOperand(0) == bagSum;
  Value element = combine->getOperand(sum.sumFirst ? 1 : 0);
  if (combine->getOperand(sum.sumFirst ? 0 : 1) != bagSum)
    return failure();
  // The row: table[indices[j], k], the table from outside the generic.
  auto read = element.getDefiningOp<tensor::ExtractOp>();
  if (!read || read->getBlock() != body)
    return failure();
  sum.table = read.getTensor();
  auto tableType = cast<RankedTensorType>(sum.table.getType());
  if (tableType.getRank() != 2 ||
      generic->isAncestor(sum.table.getParentBlock()->getParentOp()) ||
      tableType.getElementType() != initType.getElementType() ||
      !isLoopIndex(read.getIndices()[1], 2))
    return failure();
  // A plain read, as the generic's: an out-of-range value is undefined in
  // the source, `error` here (or `unchecked`, as the main raise's option).
  Value position = read.getIndices()[0];
  while (auto cast = position.getDefiningOp<arith::IndexCastOp>())
    position = cast.getIn();
  if (position != indexArg)
    return failure();
  sum.policy.negative = NegativeIndexMode::out_of_bounds;
  sum.policy.outOfBounds = options.uncheckedPlainReads
                               ? OutOfBoundsMode::unchecked
                               : OutOfBoundsMode::error;

  // The bag's range: offsets[b] <= j and j < next(b), either order.
  auto both = select.getCondition().getDefiningOp<arith::AndIOp>();
  if (!both)
    return failure();
  if (!(isLowerBound(both.getLhs()) && isUpperBound(both.getRhs(), sum)) &&
      !(isLowerBound(both.getRhs()) && isUpperBound(both.getLhs(), sum)))
    return failure();
  return sum;
}

/// Bag `bag`'s range [lo, hi) of the indices, of `count`: lo =
/// min(max(offsets[bag], 0), count) and hi = max(min(next(bag), count), lo)
/// (the positions j in [0, count) the generic adds), the next bag's offset
/// read within the offsets (`bagCount` of them; the last bag reads its own
/// and takes `count` instead).
std::pair<Value, Value> bagRange(OpBuilder &b, Location loc,
                                 const SegmentSum &sum, Value bag,
                                 Value bagCount, Value count) {
  auto index = [&](Value v) {
    return arith::IndexCastOp::create(b, loc, b.getIndexType(), v).getResult();
  };
  Value zero = arith::ConstantIndexOp::create(b, loc, 0);
  Value one = arith::ConstantIndexOp::create(b, loc, 1);
  Value start =
      index(tensor::ExtractOp::create(b, loc, sum.offsets, ValueRange{bag}));
  Value nextBag = arith::AddIOp::create(b, loc, bag, one);
  Value isLast = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq,
                                       nextBag, bagCount);
  Value lastBag = arith::SubIOp::create(b, loc, bagCount, one);
  Value readBag = arith::MinUIOp::create(b, loc, nextBag, lastBag);
  Value next =
      arith::SelectOp::create(b, loc, isLast, count,
                              index(tensor::ExtractOp::create(
                                  b, loc, sum.offsets, ValueRange{readBag})));
  Value lo = arith::MinSIOp::create(
      b, loc, arith::MaxSIOp::create(b, loc, start, zero), count);
  Value hi = arith::MaxSIOp::create(
      b, loc, arith::MinSIOp::create(b, loc, next, count), lo);
  return {lo, hi};
}

/// The table's columns the generic reads: as many as the row has.
Value tableColumns(OpBuilder &b, Location loc, const SegmentSum &sum,
                   OpFoldResult rowLength) {
  Value table = sum.table;
  auto tableType = cast<RankedTensorType>(table.getType());
  std::optional<int64_t> length = getConstantIntValue(rowLength);
  if (length && tableType.getDimSize(1) == *length)
    return table;
  return tensor::ExtractSliceOp::create(
      b, loc, table,
      ArrayRef<OpFoldResult>{b.getIndexAttr(0), b.getIndexAttr(0)},
      ArrayRef<OpFoldResult>{tensor::getMixedSize(b, loc, table, 0), rowLength},
      ArrayRef<OpFoldResult>{b.getIndexAttr(1), b.getIndexAttr(1)});
}

/// The number of indices, as a value.
Value indexCount(OpBuilder &b, Location loc, const SegmentSum &sum) {
  return getValueOrCreateConstantIndexOp(
      b, loc, tensor::getMixedSize(b, loc, sum.indices, 0));
}

/// The raised form: for each bag b, its range [lo, hi) of the indices, where
/// lo = min(max(offsets[b], 0), n) and hi = max(min(next(b), n), lo) (the
/// positions j in [0, n) the generic adds), gathered and summed into row b
/// of the generic's destination.
Value buildSegmentSums(PatternRewriter &rewriter, Location loc,
                       linalg::GenericOp generic, const SegmentSum &sum) {
  Value init = generic.getDpsInitOperand(0)->get();
  auto initType = cast<RankedTensorType>(init.getType());
  Type element = initType.getElementType();
  // The bags: the offsets' and the destination's rows, which a valid
  // generic has alike (the fewer, where dynamic sizes disagree at run time:
  // no read or write past either).
  OpFoldResult bags = tensor::getMixedSize(rewriter, loc, init, 0);
  OpFoldResult offsetCount =
      tensor::getMixedSize(rewriter, loc, sum.offsets, 0);
  bool everyRowABag = isEqualConstantIntOrValue(bags, offsetCount);
  if (!everyRowABag)
    bags =
        arith::MinUIOp::create(
            rewriter, loc, getValueOrCreateConstantIndexOp(rewriter, loc, bags),
            getValueOrCreateConstantIndexOp(rewriter, loc, offsetCount))
            .getResult();
  OpFoldResult rowLength = tensor::getMixedSize(rewriter, loc, init, 1);
  Value count = indexCount(rewriter, loc, sum);
  // A fill of the destination (torch-mlir's zeros) fills each bag's row
  // where the bag is summed, not in a pass over the whole destination before
  // the loop (as gather-fuse-consumers fills its bags: the fixed-length
  // bags of bench/embedding_bag.py ran 2% faster so on an Emerald Rapids),
  // and gather-fuse-consumers folds that fill into the bag's sums; only
  // where every row is a bag, as rows no bag visits keep the fill's value.
  Value shared = init, fillValue;
  if (auto fill = init.getDefiningOp<linalg::FillOp>(); fill && everyRowABag) {
    shared = fill.getDpsInitOperand(0)->get();
    fillValue = fill.getDpsInputOperand(0)->get();
  }
  auto forall = scf::ForallOp::create(rewriter, loc, ArrayRef{bags},
                                      ValueRange{shared}, std::nullopt);
  Value bag = forall.getInductionVar(0);
  Value out = forall.getRegionIterArgs()[0];
  rewriter.setInsertionPointToStart(forall.getBody());
  Value bagCount = getValueOrCreateConstantIndexOp(rewriter, loc, bags);

  auto [lo, hi] = bagRange(rewriter, loc, sum, bag, bagCount, count);
  Value length = arith::SubIOp::create(rewriter, loc, hi, lo);

  auto indicesType = cast<RankedTensorType>(sum.indices.getType());
  Value bagIndices = tensor::ExtractSliceOp::create(
      rewriter, loc,
      RankedTensorType::get({ShapedType::kDynamic},
                            indicesType.getElementType()),
      sum.indices, ValueRange{lo}, ValueRange{length}, ValueRange{},
      ArrayRef<int64_t>{ShapedType::kDynamic},
      ArrayRef<int64_t>{ShapedType::kDynamic}, ArrayRef<int64_t>{1});
  Value table = tableColumns(rewriter, loc, sum, rowLength);
  Value rows = tensor::EmptyOp::create(
      rewriter, loc, ArrayRef<OpFoldResult>{length, rowLength}, element);
  // The report of an invalid index names its position in all the indices.
  Value gathered = BlockOp::create(rewriter, loc, table, bagIndices, /*axis=*/0,
                                   sum.policy.negative, sum.policy.outOfBounds,
                                   /*whole_indices=*/sum.indices, rows)
                       .getOutput();

  SmallVector<OpFoldResult> rowOffsets{bag, rewriter.getIndexAttr(0)};
  SmallVector<OpFoldResult> rowSizes{rewriter.getIndexAttr(1), rowLength};
  SmallVector<OpFoldResult> unitStrides(2, rewriter.getIndexAttr(1));
  auto rowType = RankedTensorType::get({initType.getDimSize(1)}, element);
  Value row = tensor::ExtractSliceOp::create(rewriter, loc, rowType, out,
                                             rowOffsets, rowSizes, unitStrides);
  if (fillValue)
    row = linalg::FillOp::create(rewriter, loc, fillValue, row).getResult(0);
  auto reduce = linalg::ReduceOp::create(
      rewriter, loc, ValueRange{gathered}, ValueRange{row},
      ArrayRef<int64_t>{0}, [&](OpBuilder &b, Location l, ValueRange args) {
        // The generic's add, its operands in the same order.
        Value x = args[0], acc = args[1];
        Operation *add = b.clone(*sum.combine);
        add->setOperands(sum.sumFirst ? ValueRange{acc, x}
                                      : ValueRange{x, acc});
        linalg::YieldOp::create(b, l, add->getResult(0));
      });

  rewriter.setInsertionPointToStart(forall.getTerminator().getBody());
  tensor::ParallelInsertSliceOp::create(rewriter, loc, reduce.getResult(0), out,
                                        rowOffsets, rowSizes, unitStrides);
  return forall.getResult(0);
}

/// The GPU's form, where a gather inside a loop does not lower: the rows of
/// all the indices gathered first, then one loop nest over (bag, column)
/// whose iteration adds its bag's range [lo, hi) of them (an scf.for in its
/// body: one GPU thread each, over its own range, where the generic's
/// threads would each run over every index). Every index is checked, also
/// one outside every bag, which the generic reads too (undefined there;
/// PyTorch rejects offsets that leave one). Only where every row of the
/// destination is a bag (sizes proved equal): the others would keep theirs.
FailureOr<Value> buildSegmentSumsOfGatheredRows(PatternRewriter &rewriter,
                                                Location loc,
                                                linalg::GenericOp generic,
                                                const SegmentSum &sum) {
  Value init = generic.getDpsInitOperand(0)->get();
  FailureOr<bool> everyRowABag = ValueBoundsConstraintSet::areEqual(
      ValueBoundsConstraintSet::Variable(init, 0),
      ValueBoundsConstraintSet::Variable(sum.offsets, 0));
  if (failed(everyRowABag) || !*everyRowABag)
    return failure();
  auto initType = cast<RankedTensorType>(init.getType());
  OpFoldResult rowLength = tensor::getMixedSize(rewriter, loc, init, 1);
  Value count = indexCount(rewriter, loc, sum);
  Value bagCount = getValueOrCreateConstantIndexOp(
      rewriter, loc, tensor::getMixedSize(rewriter, loc, init, 0));
  Value rows = tensor::EmptyOp::create(
      rewriter, loc,
      ArrayRef<OpFoldResult>{
          tensor::getMixedSize(rewriter, loc, sum.indices, 0), rowLength},
      initType.getElementType());
  Value gathered =
      BlockOp::create(rewriter, loc,
                      tableColumns(rewriter, loc, sum, rowLength), sum.indices,
                      /*axis=*/0, sum.policy.negative, sum.policy.outOfBounds,
                      /*whole_indices=*/Value(), rows)
          .getOutput();
  AffineMap identity = rewriter.getMultiDimIdentityMap(2);
  auto sums = linalg::GenericOp::create(
      rewriter, loc, TypeRange{initType}, ValueRange{}, ValueRange{init},
      ArrayRef<AffineMap>{identity},
      ArrayRef<utils::IteratorType>{utils::IteratorType::parallel,
                                    utils::IteratorType::parallel},
      [&](OpBuilder &b, Location l, ValueRange args) {
        Value bag = linalg::IndexOp::create(b, l, 0);
        Value column = linalg::IndexOp::create(b, l, 1);
        auto [lo, hi] = bagRange(b, l, sum, bag, bagCount, count);
        Value one = arith::ConstantIndexOp::create(b, l, 1);
        auto loop = scf::ForOp::create(
            b, l, lo, hi, one, ValueRange{args[0]},
            [&](OpBuilder &fb, Location fl, Value j, ValueRange acc) {
              Value x = tensor::ExtractOp::create(fb, fl, gathered,
                                                  ValueRange{j, column});
              // The generic's add, its operands in the same order.
              Operation *add = fb.clone(*sum.combine);
              add->setOperands(sum.sumFirst ? ValueRange{acc[0], x}
                                            : ValueRange{x, acc[0]});
              scf::YieldOp::create(fb, fl, add->getResult(0));
            });
        linalg::YieldOp::create(b, l, loop.getResult(0));
      });
  return sums.getResult(0);
}

struct RaiseSegmentSums : OpRewritePattern<linalg::GenericOp> {
  RaiseSegmentSums(MLIRContext *context, const LinalgToGatherOptions &options)
      : OpRewritePattern(context), options(options) {}

  LogicalResult matchAndRewrite(linalg::GenericOp generic,
                                PatternRewriter &rewriter) const override {
    FailureOr<SegmentSum> sum = SegmentSumMatcher(generic, options).match();
    if (failed(sum))
      return rewriter.notifyMatchFailure(generic, "not an embedding bag");
    rewriter.setInsertionPoint(generic);
    if (!options.segmentSumsOfGatheredRows) {
      rewriter.replaceOp(
          generic, buildSegmentSums(rewriter, generic.getLoc(), generic, *sum));
      return success();
    }
    FailureOr<Value> sums = buildSegmentSumsOfGatheredRows(
        rewriter, generic.getLoc(), generic, *sum);
    if (failed(sums))
      return rewriter.notifyMatchFailure(generic, "a row that is no bag");
    rewriter.replaceOp(generic, *sums);
    return success();
  }

  LinalgToGatherOptions options;
};

} // namespace

void mlir::gather::populateSegmentSumPatterns(
    RewritePatternSet &patterns, const LinalgToGatherOptions &options) {
  patterns.add<RaiseSegmentSums>(patterns.getContext(), options);
}
