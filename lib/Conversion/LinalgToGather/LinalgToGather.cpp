//===- LinalgToGather.cpp - gather-like linalg.generic to gather ops ------===//
//
// Part of the gather project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// A generic is gather-like when every loop is parallel, its one output has
// the identity map, its body has no side effects (but asserts that an
// index value is in range), and it reads one table
// (a tensor from outside the generic) with tensor.extract at positions that
// are either `linalg.index d` (the position follows an output dimension) or
// an index value: a scalar of an input operand, or of a tensor read in the
// body at output positions and a constant component, through the idioms
// that normalize it (casts, negative wrap, clamp, a select of zero). The
// match is a plan (which op, which operands, which policy); the rewrite
// builds it.
//
//===----------------------------------------------------------------------===//

#include "gather/Conversion/LinalgToGather.h"
#include "Idioms.h"

#include "gather/Dialect/Gather/IR/GatherOps.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/ControlFlow/IR/ControlFlowOps.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Dialect/Utils/StaticValueUtils.h"
#include "mlir/IR/Matchers.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"
#include "llvm/ADT/SetVector.h"

namespace mlir::gather {
#define GEN_PASS_DEF_CONVERTLINALGTOGATHER
#include "gather/Conversion/Passes.h.inc"
} // namespace mlir::gather

using namespace mlir;
using namespace mlir::gather;
using namespace mlir::gather::linalg_to_gather;

Value mlir::gather::linalg_to_gather::lookThroughCasts(Value value,
                                                       bool *isUnsigned) {
  while (Operation *def = value.getDefiningOp()) {
    if (isa<arith::IndexCastOp, arith::ExtSIOp>(def)) {
      value = def->getOperand(0);
      continue;
    }
    if (isa<arith::IndexCastUIOp, arith::ExtUIOp>(def)) {
      if (isUnsigned)
        *isUnsigned = true;
      value = def->getOperand(0);
      continue;
    }
    break;
  }
  return value;
}

arith::CmpIPredicate mlir::gather::linalg_to_gather::swappedPredicate(
    arith::CmpIPredicate predicate) {
  using P = arith::CmpIPredicate;
  switch (predicate) {
  case P::slt:
    return P::sgt;
  case P::sgt:
    return P::slt;
  case P::sle:
    return P::sge;
  case P::sge:
    return P::sle;
  case P::ult:
    return P::ugt;
  case P::ugt:
    return P::ult;
  case P::ule:
    return P::uge;
  case P::uge:
    return P::ule;
  default:
    return predicate;
  }
}

std::optional<int64_t> mlir::gather::linalg_to_gather::constantOf(Value value) {
  return getConstantIntValue(lookThroughCasts(value));
}

bool mlir::gather::linalg_to_gather::isSizePlus(Value value, Value table,
                                                int64_t dim, int64_t delta) {
  auto tableType = cast<RankedTensorType>(table.getType());
  if (std::optional<int64_t> known = constantOf(value))
    return !tableType.isDynamicDim(dim) &&
           *known == tableType.getDimSize(dim) + delta;
  value = lookThroughCasts(value);
  if (delta == -1) {
    auto sub = value.getDefiningOp<arith::SubIOp>();
    if (!sub || constantOf(sub.getRhs()) != std::optional<int64_t>(1))
      return false;
    return isSizePlus(sub.getLhs(), table, dim, 0);
  }
  if (delta != 0)
    return false;
  auto dimOp = value.getDefiningOp<tensor::DimOp>();
  return dimOp && dimOp.getSource() == table &&
         dimOp.getConstantIndex() == std::optional<int64_t>(dim);
}

namespace {

//===----------------------------------------------------------------------===//
// Index values and their idioms
//===----------------------------------------------------------------------===//

/// How a table position is computed from an index value.
struct IndexValue {
  /// The scalar read: a block argument of an input of the generic, or a
  /// tensor.extract in its body.
  Value raw;
  /// The idioms found on the way from the position to `raw`.
  bool wraps = false, clamps = false, fills = false;
  /// The value was read as unsigned (index_castui, extui).
  bool isUnsigned = false;
};

static bool isZero(Value value) {
  return constantOf(value) == std::optional<int64_t>(0);
}

/// The value whose validity `condition` tests against dimension `dim`:
/// `x ult size`, or `x sge 0 and x slt size` (either order).
static Value checkedValue(Value condition, Value table, int64_t dim) {
  if (auto cmp = condition.getDefiningOp<arith::CmpIOp>()) {
    if (cmp.getPredicate() == arith::CmpIPredicate::ult &&
        isSizePlus(cmp.getRhs(), table, dim, 0))
      return cmp.getLhs();
    return nullptr;
  }
  auto both = condition.getDefiningOp<arith::AndIOp>();
  if (!both)
    return nullptr;
  auto lower = both.getLhs().getDefiningOp<arith::CmpIOp>();
  auto upper = both.getRhs().getDefiningOp<arith::CmpIOp>();
  if (lower && lower.getPredicate() == arith::CmpIPredicate::slt)
    std::swap(lower, upper);
  if (!lower || !upper || lower.getPredicate() != arith::CmpIPredicate::sge ||
      upper.getPredicate() != arith::CmpIPredicate::slt ||
      lower.getLhs() != upper.getLhs() || !isZero(lower.getRhs()) ||
      !isSizePlus(upper.getRhs(), table, dim, 0))
    return nullptr;
  return lower.getLhs();
}

/// The value `select` wraps (x < 0 ? x + size : x, either way round), or
/// null.
static Value wrappedValue(arith::SelectOp select, Value table, int64_t dim) {
  auto cmp = select.getCondition().getDefiningOp<arith::CmpIOp>();
  if (!cmp || !isZero(cmp.getRhs()))
    return nullptr;
  Value x = cmp.getLhs();
  Value ifNegative, ifNot;
  if (cmp.getPredicate() == arith::CmpIPredicate::slt) {
    ifNegative = select.getTrueValue();
    ifNot = select.getFalseValue();
  } else if (cmp.getPredicate() == arith::CmpIPredicate::sge) {
    ifNegative = select.getFalseValue();
    ifNot = select.getTrueValue();
  } else {
    return nullptr;
  }
  auto add = ifNegative.getDefiningOp<arith::AddIOp>();
  if (ifNot != x || !add)
    return nullptr;
  Value size = add.getLhs() == x ? add.getRhs() : add.getLhs();
  if ((add.getLhs() != x && add.getRhs() != x) ||
      !isSizePlus(size, table, dim, 0))
    return nullptr;
  return x;
}

/// The value a clamp to [0, size - 1] bounds (either nesting), or null.
static Value clampedValue(Operation *op, Value table, int64_t dim) {
  auto operandsOf = [](Operation *minOrMax) {
    return std::make_pair(minOrMax->getOperand(0), minOrMax->getOperand(1));
  };
  // One bound: the other operand of `op` when one of them matches.
  auto other = [&](Operation *bounded,
                   function_ref<bool(Value)> isBound) -> Value {
    auto [lhs, rhs] = operandsOf(bounded);
    if (isBound(rhs))
      return lhs;
    if (isBound(lhs))
      return rhs;
    return nullptr;
  };
  auto isLow = [](Value v) { return isZero(v); };
  auto isHigh = [&](Value v) { return isSizePlus(v, table, dim, -1); };
  if (isa<arith::MinSIOp>(op)) {
    Value inner = other(op, isHigh);
    auto max = inner ? inner.getDefiningOp<arith::MaxSIOp>() : nullptr;
    return max ? other(max, isLow) : nullptr;
  }
  if (isa<arith::MaxSIOp>(op)) {
    Value inner = other(op, isLow);
    auto min = inner ? inner.getDefiningOp<arith::MinSIOp>() : nullptr;
    return min ? other(min, isHigh) : nullptr;
  }
  return nullptr;
}

/// Whether `condition` tests a bound of `raw` (through signed casts) for
/// dimension `dim` of `table`: `x slt size`, `x ult size`, `x sle size - 1`,
/// `x sge 0`, `x sgt -1`, either operand order, or `x sge 0 and x slt size`.
/// torch-mlir asserts `x slt size` and `x sge 0` in its embedding and gather
/// bodies.
static bool testsBoundOf(Value condition, Value raw, Value table, int64_t dim) {
  auto isRaw = [&](Value x) {
    bool isUnsigned = false;
    return lookThroughCasts(x, &isUnsigned) == raw && !isUnsigned;
  };
  if (Value x = checkedValue(condition, table, dim))
    return isRaw(x);
  auto cmp = condition.getDefiningOp<arith::CmpIOp>();
  if (!cmp)
    return false;
  using P = arith::CmpIPredicate;
  Value x = cmp.getLhs(), bound = cmp.getRhs();
  P predicate = cmp.getPredicate();
  if (!isRaw(x)) {
    std::swap(x, bound);
    predicate = swappedPredicate(predicate);
  }
  if (!isRaw(x))
    return false;
  switch (predicate) {
  case P::slt:
  case P::ult:
    return isSizePlus(bound, table, dim, 0);
  case P::sle:
  case P::ule:
    return isSizePlus(bound, table, dim, -1);
  case P::sge:
    return isZero(bound);
  case P::sgt:
    return constantOf(bound) == std::optional<int64_t>(-1);
  default:
    return false;
  }
}

/// Parses the table position `position` along dimension `dim` as an index
/// value of `generic`. `fillCondition`, when given, is the condition of the
/// select of zero around the read: a select on it in the position is the
/// safe read of that idiom.
static std::optional<IndexValue> parseIndexValue(linalg::GenericOp generic,
                                                 Value position, Value table,
                                                 int64_t dim,
                                                 Value fillCondition) {
  IndexValue index;
  Value value = position;
  while (true) {
    value = lookThroughCasts(value, &index.isUnsigned);
    if (auto arg = dyn_cast<BlockArgument>(value)) {
      if (arg.getOwner() != generic.getBody() ||
          arg.getArgNumber() >= generic.getNumDpsInputs() ||
          !isa<IntegerType>(arg.getType()))
        return std::nullopt;
      index.raw = arg;
      return index;
    }
    Operation *def = value.getDefiningOp();
    if (!def)
      return std::nullopt;
    if (auto read = dyn_cast<tensor::ExtractOp>(def)) {
      // An indices tensor from outside the generic.
      if (read.getTensor().getParentBlock() == generic.getBody())
        return std::nullopt;
      index.raw = read;
      return index;
    }
    if (auto select = dyn_cast<arith::SelectOp>(def)) {
      // The safe read of `fill`: the index where the condition checks it,
      // else 0.
      if (fillCondition && select.getCondition() == fillCondition &&
          isZero(select.getFalseValue()) && !index.fills &&
          checkedValue(fillCondition, table, dim) == select.getTrueValue()) {
        index.fills = true;
        value = select.getTrueValue();
        continue;
      }
      if (Value x = wrappedValue(select, table, dim)) {
        // A wrap inside a clamp counts; outside one it changes nothing.
        index.wraps = true;
        value = x;
        continue;
      }
      return std::nullopt;
    }
    if (Value x = clampedValue(def, table, dim)) {
      index.clamps = true;
      index.wraps = false;
      value = x;
      continue;
    }
    return std::nullopt;
  }
}

//===----------------------------------------------------------------------===//
// The plan
//===----------------------------------------------------------------------===//

/// What one gather-like generic becomes.
struct RaisePlan {
  enum class Kind { Block, Elements, Nd, Multiaxis };
  Kind kind = Kind::Block;
  /// The table read and the read.
  Value table;
  tensor::ExtractOp read;
  /// The indices tensor (outside the generic) and, for an input operand,
  /// its indexing map.
  Value indices;
  AffineMap indicesMap;
  /// Block and elements: the axis; multiaxis: its one axis; nd: the batch
  /// dimensions.
  int64_t axis = 0;
  /// Per table dimension, the output dimension it follows (-1: gathered;
  /// kPinned while matching: read at 0, see Matcher::follows).
  SmallVector<int64_t> follows;
  static constexpr int64_t kPinned = -2;
  IndexPolicy policy;
  /// The index values are unsigned and narrower than 64 bits: widened with
  /// a zero extension before the gather.
  bool widenUnsigned = false;
  /// The value of the body the gather computes (the read, or the select of
  /// zero around it), and whether the body computes anything else with it.
  Value gathered;
  bool needsRest = false;
  /// Elements: the output has no dimension for the axis (each output
  /// position reads one value along it, torch's x[arange(n), idx]): the
  /// gather runs with a unit dimension inserted there.
  bool squeezedAxis = false;
};

/// Whether `position` is `linalg.index` of some dimension: which.
static std::optional<int64_t> loopDimOf(Value position) {
  if (auto index = position.getDefiningOp<linalg::IndexOp>())
    return index.getDim();
  return std::nullopt;
}

/// The loop a table position follows through an operand that counts up
/// along one loop (torch-mlir's `arange(n)`: a generic that yields
/// `linalg.index k`, cast to an integer that holds it, into its
/// identity-mapped output): the operand's value at a point of the loops is
/// that point's coordinate along the loop its map puts in dimension k. A
/// wrap of negative values (`x < 0 ? x + size : x`, which torch-mlir's
/// `aten.index.Tensor` puts on every index) changes nothing on such values.
static std::optional<int64_t> countingLoopOf(linalg::GenericOp generic,
                                             Value position, Value table,
                                             int64_t dim) {
  Value value = lookThroughCasts(position);
  if (auto select = value.getDefiningOp<arith::SelectOp>())
    if (Value x = wrappedValue(select, table, dim))
      value = lookThroughCasts(x);
  auto arg = dyn_cast<BlockArgument>(value);
  if (!arg || arg.getOwner() != generic.getBody() ||
      arg.getArgNumber() >= generic.getNumDpsInputs())
    return std::nullopt;
  OpOperand *operand = generic.getDpsInputOperand(arg.getArgNumber());
  Value source = operand->get();
  while (auto cast = source.getDefiningOp<tensor::CastOp>())
    source = cast.getSource();
  auto producer = source.getDefiningOp<linalg::GenericOp>();
  if (!producer || producer->getNumResults() != 1 ||
      producer.getNumDpsInits() != 1 ||
      producer.getNumParallelLoops() != producer.getNumLoops() ||
      !producer.getMatchingIndexingMap(producer.getDpsInitOperand(0))
           .isIdentity())
    return std::nullopt;
  // The count through its casts; one to a narrower integer keeps it only
  // where the loop's static length fits.
  auto yield = cast<linalg::YieldOp>(producer.getBody()->getTerminator());
  Value count = yield.getOperand(0);
  unsigned width = 64;
  while (Operation *def = count.getDefiningOp()) {
    if (!isa<arith::IndexCastOp, arith::IndexCastUIOp, arith::ExtSIOp,
             arith::ExtUIOp>(def))
      break;
    Type type = def->getResult(0).getType();
    width =
        std::min(width, type.isIndex() ? 64u : type.getIntOrFloatBitWidth());
    count = def->getOperand(0);
  }
  std::optional<int64_t> k = loopDimOf(count);
  SmallVector<int64_t> lengths = producer.getStaticLoopRanges();
  // An arange of length 1 after canonicalization yields 0.
  if (!k && isZero(count) && lengths.size() == 1 && lengths[0] == 1)
    k = 0;
  if (!k)
    return std::nullopt;
  int64_t length = lengths[*k];
  if (width < 64 &&
      (ShapedType::isDynamic(length) || length > (int64_t(1) << (width - 1))))
    return std::nullopt;
  auto d = dyn_cast<AffineDimExpr>(
      generic.getMatchingIndexingMap(operand).getResult(*k));
  if (!d)
    return std::nullopt;
  return d.getPosition();
}

/// The body's one read of a table at positions that depend on data, or null
/// (none, or several).
static tensor::ExtractOp findTableRead(linalg::GenericOp generic) {
  tensor::ExtractOp found;
  for (auto read : generic.getBody()->getOps<tensor::ExtractOp>()) {
    if (llvm::all_of(read.getIndices(), [](Value p) {
          return loopDimOf(p) || getConstantIntValue(p);
        }))
      continue;
    if (found)
      return nullptr;
    found = read;
  }
  return found;
}

class Matcher {
public:
  Matcher(linalg::GenericOp generic, const LinalgToGatherOptions &options)
      : generic(generic), options(options) {}

  FailureOr<RaisePlan> match();

private:
  /// Matches the index values of the read against one source.
  LogicalResult matchSource(RaisePlan &plan,
                            ArrayRef<std::pair<int64_t, IndexValue>> reads);

  /// Whether table dimension `t` follows output dimension `d`: read at
  /// `linalg.index d`, or at 0 where loop `d` has the static size 1 (an
  /// operand's shape says so): canonicalization folds `linalg.index` of such
  /// a loop to 0, and a batch of one has them.
  bool follows(const RaisePlan &plan, int64_t t, int64_t d);
  /// Whether the indices position `position` follows output dimension `d`
  /// in the same way.
  bool followsLoop(Value position, int64_t d);
  bool isUnitLoop(int64_t d);
  /// Each table dimension read at 0 given the output dimension `expected`
  /// says it follows (the form matched, which `follows` accepted).
  static void resolvePins(RaisePlan &plan,
                          function_ref<int64_t(int64_t)> expected);

  linalg::GenericOp generic;
  const LinalgToGatherOptions &options;
  /// The loops' static lengths (dynamic where no operand gives one).
  SmallVector<int64_t> loopRanges;
};

} // namespace

bool Matcher::follows(const RaisePlan &plan, int64_t t, int64_t d) {
  return plan.follows[t] == d ||
         (plan.follows[t] == RaisePlan::kPinned && isUnitLoop(d));
}

bool Matcher::followsLoop(Value position, int64_t d) {
  return loopDimOf(position) == std::optional<int64_t>(d) ||
         (isZero(position) && isUnitLoop(d));
}

bool Matcher::isUnitLoop(int64_t d) {
  return d >= 0 && d < static_cast<int64_t>(loopRanges.size()) &&
         loopRanges[d] == 1;
}

void Matcher::resolvePins(RaisePlan &plan,
                          function_ref<int64_t(int64_t)> expected) {
  for (auto [t, d] : llvm::enumerate(plan.follows))
    if (d == RaisePlan::kPinned)
      d = expected(t);
}

FailureOr<RaisePlan> Matcher::match() {
  if (!generic.hasPureTensorSemantics() || generic.getNumDpsInits() != 1 ||
      generic->getNumResults() != 1 ||
      generic.getNumParallelLoops() != generic.getNumLoops() ||
      !generic.getMatchingIndexingMap(generic.getDpsInitOperand(0))
           .isIdentity())
    return failure();
  // Side effects stay where they are, but for asserts, which may only test
  // the bounds of the index values read (below).
  SmallVector<cf::AssertOp> asserts;
  for (Operation &op : generic.getBody()->without_terminator()) {
    if (auto check = dyn_cast<cf::AssertOp>(op))
      asserts.push_back(check);
    else if (!isMemoryEffectFree(&op) || op.getNumRegions() != 0)
      return failure();
  }
  loopRanges = generic.getStaticLoopRanges();
  RaisePlan plan;
  plan.read = findTableRead(generic);
  if (!plan.read)
    return failure();
  plan.table = plan.read.getTensor();
  if (plan.table.getParentBlock() == generic.getBody())
    return failure();
  auto tableType = cast<RankedTensorType>(plan.table.getType());
  Type elementType = tableType.getElementType();
  if (!elementType.isIntOrIndexOrFloat())
    return failure();
  // A static size 0 in the table or the output: the generic reads nothing
  // (or nothing defined), and tensor.extract_slice of MLIR 22 rejects the
  // offset 0 into such a dimension that a cut of the table would take.
  auto outputType = cast<RankedTensorType>(generic.getResult(0).getType());
  if (llvm::is_contained(tableType.getShape(), 0) ||
      llvm::is_contained(outputType.getShape(), 0))
    return failure();

  // A select of zero around the read: the `fill` idiom.
  Value fillCondition;
  plan.gathered = plan.read.getResult();
  if (plan.read->hasOneUse()) {
    auto select = dyn_cast<arith::SelectOp>(*plan.read->getUsers().begin());
    if (select && select.getTrueValue() == plan.read.getResult() &&
        (matchPattern(select.getFalseValue(), m_AnyZeroFloat()) ||
         isZero(select.getFalseValue()))) {
      fillCondition = select.getCondition();
      plan.gathered = select.getResult();
    }
  }

  // Each position: an output dimension, or an index value.
  int64_t rank = tableType.getRank();
  plan.follows.assign(rank, -1);
  SmallVector<std::pair<int64_t, IndexValue>> reads;
  for (auto [t, position] : llvm::enumerate(plan.read.getIndices())) {
    if (std::optional<int64_t> d = loopDimOf(position)) {
      plan.follows[t] = *d;
      continue;
    }
    if (isZero(position)) {
      plan.follows[t] = RaisePlan::kPinned;
      continue;
    }
    if (std::optional<int64_t> d =
            countingLoopOf(generic, position, plan.table, t)) {
      plan.follows[t] = *d;
      continue;
    }
    std::optional<IndexValue> index =
        parseIndexValue(generic, position, plan.table, t, fillCondition);
    if (!index)
      return failure();
    reads.push_back({static_cast<int64_t>(t), *index});
  }
  if (reads.empty())
    return failure();
  // One policy for every component.
  const IndexValue &first = reads.front().second;
  for (auto &[t, index] : reads)
    if (index.wraps != first.wraps || index.clamps != first.clamps ||
        index.fills != first.fills || index.isUnsigned != first.isUnsigned)
      return failure();
  // The select of zero must be the fill of the index it checks.
  if (fillCondition) {
    if (!first.fills || reads.size() != 1 ||
        !checkedValue(fillCondition, plan.table, reads.front().first))
      return failure();
  } else if (first.fills) {
    return failure();
  }
  // Asserts that plain reads are in range (torch-mlir's embedding and
  // gather): the source stops where an index is out of range, which the
  // gather op's `error` reports. Each assert must test a bound of an index
  // value read, signed; any other assert keeps the generic.
  if (!asserts.empty()) {
    if (first.wraps || first.clamps || first.fills || first.isUnsigned)
      return failure();
    for (cf::AssertOp check : asserts)
      if (llvm::none_of(reads, [&](const auto &read) {
            return testsBoundOf(check.getArg(), read.second.raw, plan.table,
                                read.first);
          }))
        return failure();
  }
  plan.policy.negative =
      first.wraps ? NegativeIndexMode::wrap : NegativeIndexMode::out_of_bounds;
  plan.policy.outOfBounds = first.clamps  ? OutOfBoundsMode::clamp
                            : first.fills ? OutOfBoundsMode::fill
                            : options.uncheckedPlainReads && asserts.empty()
                                ? OutOfBoundsMode::unchecked
                                : OutOfBoundsMode::error;
  if (failed(matchSource(plan, reads)))
    return failure();
  // A loop longer than the table dimension it follows reads past the table
  // (undefined in the source): no gather op of those sizes verifies.
  for (auto [t, d] : llvm::enumerate(plan.follows))
    if (d >= 0 && !tableType.isDynamicDim(t) &&
        !ShapedType::isDynamic(loopRanges[d]) &&
        loopRanges[d] > tableType.getDimSize(t))
      return failure();

  // The rest of the body: anything but yielding the gathered value.
  auto yield = cast<linalg::YieldOp>(generic.getBody()->getTerminator());
  plan.needsRest =
      yield.getOperand(0) != plan.gathered || !plan.gathered.hasOneUse();
  if (!plan.needsRest &&
      cast<RankedTensorType>(generic.getResult(0).getType()).getElementType() !=
          elementType)
    return failure();
  return plan;
}

LogicalResult
Matcher::matchSource(RaisePlan &plan,
                     ArrayRef<std::pair<int64_t, IndexValue>> reads) {
  auto tableType = cast<RankedTensorType>(plan.table.getType());
  int64_t rank = tableType.getRank();
  int64_t loops = generic.getNumLoops();
  const IndexValue &first = reads.front().second;
  Type rawType = first.raw.getType();
  if (first.isUnsigned) {
    unsigned width = rawType.isIndex() ? 64 : rawType.getIntOrFloatBitWidth();
    // A 64-bit unsigned value past 2^63 reads as negative: the same error,
    // fill and undefined result, but not the same clamp.
    if (width >= 64 && plan.policy.outOfBounds == OutOfBoundsMode::clamp)
      return failure();
    plan.widenUnsigned = width < 64;
  }

  // An input operand: one component.
  if (auto arg = dyn_cast<BlockArgument>(first.raw)) {
    if (reads.size() != 1)
      return failure();
    OpOperand *operand = generic.getDpsInputOperand(arg.getArgNumber());
    plan.indices = operand->get();
    plan.indicesMap = generic.getMatchingIndexingMap(operand);
    int64_t a = reads.front().first;
    plan.axis = a;
    AffineMap map = plan.indicesMap;
    // torch.gather, take_along_axis: the identity, every other position its
    // own dimension.
    bool followsSame = rank == loops;
    for (int64_t t = 0; t < rank && followsSame; ++t)
      followsSame = t == a || follows(plan, t, t);
    auto same = [](int64_t t) { return t; };
    if (map.isIdentity() && followsSame) {
      plan.kind = RaisePlan::Kind::Elements;
      resolvePins(plan, same);
      return success();
    }
    // Embedding, index_select, take: dimensions [a, a + q) of the indices,
    // the table around them. A dimension of size 1 pinned to 0 where the
    // loop has size 1 too is the same (torch-mlir's aten.index.Tensor pins
    // every index dimension of size 1).
    int64_t q = map.getNumResults();
    auto outputType = cast<RankedTensorType>(generic.getResult(0).getType());
    auto indicesType = cast<RankedTensorType>(plan.indices.getType());
    bool consecutive = rank - 1 + q == loops;
    for (int64_t j = 0; j < q && consecutive; ++j)
      consecutive =
          map.getResult(j) == getAffineDimExpr(a + j, map.getContext()) ||
          (isa<AffineConstantExpr>(map.getResult(j)) &&
           cast<AffineConstantExpr>(map.getResult(j)).getValue() == 0 &&
           indicesType.getDimSize(j) == 1 && outputType.getDimSize(a + j) == 1);
    auto around = [&](int64_t t) { return t < a ? t : t + q - 1; };
    for (int64_t t = 0; t < rank && consecutive; ++t)
      if (t != a)
        consecutive = follows(plan, t, around(t));
    if (consecutive) {
      plan.kind = RaisePlan::Kind::Block;
      resolvePins(plan, around);
      return success();
    }
    // No output dimension for the axis: the table's other dimensions follow
    // the loops in order, and the indices have them (torch's
    // x[arange(n), idx], take_along_axis then the axis squeezed).
    auto squeezed = [&](int64_t t) { return t < a ? t : t - 1; };
    bool followsSqueezed = rank == loops + 1;
    for (int64_t t = 0; t < rank && followsSqueezed; ++t)
      followsSqueezed = t == a || follows(plan, t, squeezed(t));
    if (followsSqueezed && map.isIdentity()) {
      plan.kind = RaisePlan::Kind::Elements;
      plan.squeezedAxis = true;
      resolvePins(plan, squeezed);
      return success();
    }
    // Indices broadcast along dimensions their map drops or pins to 0.
    if (!followsSame)
      return failure();
    int64_t previous = -1;
    for (auto [j, result] : llvm::enumerate(map.getResults())) {
      if (auto dimExpr = dyn_cast<AffineDimExpr>(result)) {
        if (static_cast<int64_t>(dimExpr.getPosition()) <= previous)
          return failure();
        previous = dimExpr.getPosition();
        continue;
      }
      // A pinned dimension: the row it reads must exist where known.
      auto constant = dyn_cast<AffineConstantExpr>(result);
      int64_t size = indicesType.getDimSize(j);
      if (!constant || constant.getValue() < 0 ||
          (!ShapedType::isDynamic(size) && constant.getValue() >= size))
        return failure();
    }
    // The gathered dimension's size is the indices': they must vary along
    // it (an index constant along it would need a broadcast along the axis,
    // which no gather op expresses).
    if (!map.isFunctionOfDim(a))
      return failure();
    plan.kind = RaisePlan::Kind::Multiaxis;
    resolvePins(plan, same);
    return success();
  }

  // Coordinates read in the body from a trailing dimension (StableHLO):
  // tensor.extract %idx[d0, ..., d(m-2), c] for the constant components c.
  auto firstRead = first.raw.getDefiningOp<tensor::ExtractOp>();
  plan.indices = firstRead.getTensor();
  auto indicesType = cast<RankedTensorType>(plan.indices.getType());
  int64_t m = indicesType.getRank();
  int64_t k = reads.size();
  if (m < 1 || indicesType.getDimSize(m - 1) != k)
    return failure();
  SmallVector<int64_t> tableDims(k, -1);
  for (auto &[t, index] : reads) {
    auto read = index.raw.getDefiningOp<tensor::ExtractOp>();
    if (!read || read.getTensor() != plan.indices)
      return failure();
    ValueRange at = read.getIndices();
    for (int64_t j = 0; j + 1 < m; ++j)
      if (!followsLoop(at[j], j))
        return failure();
    std::optional<int64_t> c = getConstantIntValue(at[m - 1]);
    if (!c || *c < 0 || *c >= k || tableDims[*c] != -1)
      return failure();
    tableDims[*c] = t;
  }
  // GatherND: components address table dimensions [b, b + k) in order, the
  // batch dimensions before them follow the leading output dimensions, the
  // trailing ones the output dimensions after the indices'.
  int64_t b = tableDims.front();
  for (int64_t c = 0; c < k; ++c)
    if (tableDims[c] != b + c)
      return failure();
  if (b > m - 1 || (m - 1) + (rank - b - k) != loops)
    return failure();
  auto expected = [&](int64_t t) { return t < b ? t : t - b - k + m - 1; };
  for (int64_t t = 0; t < rank; ++t) {
    if (t >= b && t < b + k)
      continue;
    if (!follows(plan, t, expected(t)))
      return failure();
  }
  plan.kind = RaisePlan::Kind::Nd;
  resolvePins(plan, expected);
  plan.axis = b;
  return success();
}

//===----------------------------------------------------------------------===//
// The rewrite
//===----------------------------------------------------------------------===//

/// The table with its followed dimensions cut to the output's sizes where
/// they may differ (the generic reads only those).
static Value sliceTable(OpBuilder &b, Location loc, const RaisePlan &plan,
                        Value init) {
  auto tableType = cast<RankedTensorType>(plan.table.getType());
  auto initType = cast<RankedTensorType>(init.getType());
  SmallVector<OpFoldResult> sizes = tensor::getMixedSizes(b, loc, plan.table);
  bool cut = false;
  for (auto [t, d] : llvm::enumerate(plan.follows)) {
    if (d < 0)
      continue;
    int64_t have = tableType.getDimSize(t), want = initType.getDimSize(d);
    if (!ShapedType::isDynamic(have) && have == want)
      continue;
    // Sizes the frontend took from the table itself.
    if (auto empty = init.getDefiningOp<tensor::EmptyOp>()) {
      if (initType.isDynamicDim(d)) {
        auto dim = empty.getDynamicSize(d).getDefiningOp<tensor::DimOp>();
        if (dim && dim.getSource() == plan.table &&
            dim.getConstantIndex() == std::optional<int64_t>(t))
          continue;
      }
    }
    sizes[t] = tensor::getMixedSize(b, loc, init, d);
    cut = true;
  }
  if (!cut)
    return plan.table;
  int64_t rank = tableType.getRank();
  SmallVector<OpFoldResult> offsets(rank, b.getIndexAttr(0));
  SmallVector<OpFoldResult> strides(rank, b.getIndexAttr(1));
  return tensor::ExtractSliceOp::create(b, loc, plan.table, offsets, sizes,
                                        strides);
}

/// Unsigned index values narrower than 64 bits, zero-extended to i64 (the
/// gather ops read signed values).
static Value widenIndices(OpBuilder &b, Location loc, Value indices) {
  SmallVector<OpFoldResult> sizes = tensor::getMixedSizes(b, loc, indices);
  Value init = tensor::EmptyOp::create(b, loc, sizes, b.getI64Type());
  return linalg::MapOp::create(
             b, loc, ValueRange{indices}, init,
             [&](OpBuilder &nb, Location nl, ValueRange args) {
               Value wide =
                   arith::ExtUIOp::create(nb, nl, nb.getI64Type(), args[0]);
               linalg::YieldOp::create(nb, nl, wide);
             })
      ->getResult(0);
}

/// The indices of a broadcast multiaxis gather: the input's tensor with one
/// dimension per loop (size 1 where the map drops or pins it).
static Value indicesForEveryLoop(OpBuilder &b, Location loc, Value indices,
                                 AffineMap map, int64_t loops) {
  auto type = cast<RankedTensorType>(indices.getType());
  // The row each pinned dimension reads, where that is not all of it.
  bool slice = false;
  SmallVector<OpFoldResult> offsets(type.getRank(), b.getIndexAttr(0));
  SmallVector<OpFoldResult> sizes = tensor::getMixedSizes(b, loc, indices);
  SmallVector<OpFoldResult> strides(type.getRank(), b.getIndexAttr(1));
  for (auto [j, result] : llvm::enumerate(map.getResults())) {
    auto constant = dyn_cast<AffineConstantExpr>(result);
    if (!constant || (constant.getValue() == 0 && type.getDimSize(j) == 1))
      continue;
    offsets[j] = b.getIndexAttr(constant.getValue());
    sizes[j] = b.getIndexAttr(1);
    slice = true;
  }
  if (slice) {
    indices = tensor::ExtractSliceOp::create(b, loc, indices, offsets, sizes,
                                             strides);
    type = cast<RankedTensorType>(indices.getType());
  }
  // Drop the pinned dimensions (now of size 1), then insert one per loop
  // the map leaves out.
  SmallVector<int64_t> kept;
  for (auto [j, result] : llvm::enumerate(map.getResults()))
    if (isa<AffineDimExpr>(result))
      kept.push_back(j);
  SmallVector<int64_t> unitDims;
  for (int64_t j = 0; j < type.getRank(); ++j)
    if (!llvm::is_contained(kept, j))
      unitDims.push_back(j);
  Value collapsed = collapseUnitDims(b, loc, indices, unitDims);
  auto collapsedType = cast<RankedTensorType>(collapsed.getType());
  SmallVector<int64_t> positions, shape(loops, 1);
  for (int64_t j : kept) {
    int64_t d = cast<AffineDimExpr>(map.getResult(j)).getPosition();
    positions.push_back(d);
  }
  for (auto [i, d] : llvm::enumerate(positions))
    shape[d] = collapsedType.getDimSize(i);
  SmallVector<ReassociationIndices> groups = unitDimGroups(positions, loops);
  if (static_cast<int64_t>(positions.size()) == loops)
    return collapsed;
  SmallVector<OpFoldResult> outputShape;
  for (int64_t d = 0; d < loops; ++d) {
    auto it = llvm::find(positions, d);
    outputShape.push_back(
        it == positions.end()
            ? OpFoldResult(b.getIndexAttr(1))
            : tensor::getMixedSize(b, loc, collapsed, it - positions.begin()));
  }
  return tensor::ExpandShapeOp::create(b, loc, collapsedType.clone(shape),
                                       collapsed, groups, outputShape);
}

/// The groups that take a tensor of rank `rank` to one with a unit
/// dimension at `position` (expand_shape), and back (collapse_shape).
static SmallVector<ReassociationIndices> unitDimAt(int64_t rank,
                                                   int64_t position) {
  SmallVector<ReassociationIndices> groups;
  for (int64_t j = 0; j < rank; ++j) {
    int64_t first = j < position ? j : j + 1;
    if (j == position)
      groups.push_back({j, j + 1});
    else if (j == rank - 1 && position == rank)
      groups.push_back({first, first + 1});
    else
      groups.push_back({first});
  }
  return groups;
}

/// `value` with a unit dimension inserted at `position`.
static Value insertUnitDim(OpBuilder &b, Location loc, Value value,
                           int64_t position) {
  auto type = cast<RankedTensorType>(value.getType());
  SmallVector<int64_t> shape(type.getShape());
  shape.insert(shape.begin() + position, 1);
  SmallVector<OpFoldResult> sizes = tensor::getMixedSizes(b, loc, value);
  sizes.insert(sizes.begin() + position, b.getIndexAttr(1));
  return tensor::ExpandShapeOp::create(b, loc, type.clone(shape), value,
                                       unitDimAt(type.getRank(), position),
                                       sizes);
}

/// The gather op of `plan` writing into `init`.
static Value buildGather(OpBuilder &b, Location loc, const RaisePlan &plan,
                         Value init, int64_t loops) {
  Value indices = plan.indices;
  if (plan.widenUnsigned)
    indices = widenIndices(b, loc, indices);
  NegativeIndexMode negative = plan.policy.negative;
  OutOfBoundsMode outOfBounds = plan.policy.outOfBounds;
  if (plan.squeezedAxis) {
    // The elements gather with a unit dimension at the axis in the indices
    // and the output, then the output without it.
    int64_t rank = cast<RankedTensorType>(init.getType()).getRank();
    Value gathered =
        ElementsOp::create(
            b, loc, plan.table, insertUnitDim(b, loc, indices, plan.axis),
            plan.axis, negative, outOfBounds,
            /*whole_indices=*/Value(), insertUnitDim(b, loc, init, plan.axis))
            .getOutput();
    return tensor::CollapseShapeOp::create(b, loc, init.getType(), gathered,
                                           unitDimAt(rank, plan.axis));
  }
  switch (plan.kind) {
  case RaisePlan::Kind::Elements:
    return ElementsOp::create(b, loc, plan.table, indices, plan.axis, negative,
                              outOfBounds, /*whole_indices=*/Value(), init)
        .getOutput();
  case RaisePlan::Kind::Block:
    return BlockOp::create(b, loc, sliceTable(b, loc, plan, init), indices,
                           plan.axis, negative, outOfBounds,
                           /*whole_indices=*/Value(), init)
        .getOutput();
  case RaisePlan::Kind::Nd:
    return NdOp::create(b, loc, sliceTable(b, loc, plan, init), indices,
                        plan.axis, negative, outOfBounds,
                        /*whole_indices=*/Value(), init)
        .getOutput();
  case RaisePlan::Kind::Multiaxis:
    return MultiaxisOp::create(
               b, loc, sliceTable(b, loc, plan, init),
               indicesForEveryLoop(b, loc, indices, plan.indicesMap, loops),
               ArrayRef<int64_t>{plan.axis}, negative, outOfBounds,
               /*whole_indices=*/Value(), init)
        .getOutput();
  }
  llvm_unreachable("unknown gather kind");
}

/// The elementwise rest of the body: a generic over `gathered` (identity)
/// and the inputs the rest uses, into the original destination, whose body
/// is what the original computed from the gathered value.
static Value buildRest(OpBuilder &b, Location loc, linalg::GenericOp generic,
                       const RaisePlan &plan, Value gathered) {
  Block *body = generic.getBody();
  auto yield = cast<linalg::YieldOp>(body->getTerminator());
  // The ops the yield needs, not through the gathered value.
  llvm::SetVector<Operation *> needed;
  llvm::SetVector<BlockArgument> args;
  SmallVector<Value> worklist(yield.getOperands());
  while (!worklist.empty()) {
    Value value = worklist.pop_back_val();
    if (value == plan.gathered)
      continue;
    if (auto arg = dyn_cast<BlockArgument>(value)) {
      if (arg.getOwner() == body)
        args.insert(arg);
      continue;
    }
    Operation *def = value.getDefiningOp();
    if (!def || def->getBlock() != body || !needed.insert(def))
      continue;
    llvm::append_range(worklist, def->getOperands());
  }
  SmallVector<Value> inputs{gathered};
  AffineMap identity = b.getMultiDimIdentityMap(generic.getNumLoops());
  SmallVector<AffineMap> maps{identity};
  SmallVector<BlockArgument> usedInputs;
  for (OpOperand *operand : generic.getDpsInputOperands()) {
    BlockArgument arg = body->getArgument(operand->getOperandNumber());
    if (!args.contains(arg))
      continue;
    inputs.push_back(operand->get());
    maps.push_back(generic.getMatchingIndexingMap(operand));
    usedInputs.push_back(arg);
  }
  maps.push_back(identity);
  Value init = generic.getDpsInitOperand(0)->get();
  auto rest = linalg::GenericOp::create(
      b, loc, TypeRange{init.getType()}, inputs, ValueRange{init}, maps,
      generic.getIteratorTypesArray(),
      [&](OpBuilder &nb, Location nl, ValueRange newArgs) {
        IRMapping mapping;
        mapping.map(plan.gathered, newArgs[0]);
        for (auto [i, arg] : llvm::enumerate(usedInputs))
          mapping.map(arg, newArgs[i + 1]);
        mapping.map(body->getArgument(generic.getNumDpsInputs()),
                    newArgs.back());
        for (Operation &op : body->without_terminator())
          if (needed.contains(&op))
            nb.clone(op, mapping);
        linalg::YieldOp::create(nb, nl,
                                mapping.lookupOrDefault(yield.getOperand(0)));
      });
  return rest.getResult(0);
}

namespace {
struct RaiseGatherLikeGeneric : OpRewritePattern<linalg::GenericOp> {
  RaiseGatherLikeGeneric(MLIRContext *context,
                         const LinalgToGatherOptions &options)
      : OpRewritePattern(context), options(options) {}

  LogicalResult matchAndRewrite(linalg::GenericOp generic,
                                PatternRewriter &rewriter) const override {
    FailureOr<RaisePlan> plan = Matcher(generic, options).match();
    if (failed(plan))
      return rewriter.notifyMatchFailure(generic, "not a gather-like generic");
    Location loc = generic.getLoc();
    rewriter.setInsertionPoint(generic);
    Value init = generic.getDpsInitOperand(0)->get();
    int64_t loops = generic.getNumLoops();
    if (!plan->needsRest) {
      rewriter.replaceOp(generic,
                         buildGather(rewriter, loc, *plan, init, loops));
      return success();
    }
    Type elementType =
        cast<RankedTensorType>(plan->table.getType()).getElementType();
    Value empty = tensor::EmptyOp::create(
        rewriter, loc, tensor::getMixedSizes(rewriter, loc, init), elementType);
    Value gathered = buildGather(rewriter, loc, *plan, empty, loops);
    rewriter.replaceOp(generic,
                       buildRest(rewriter, loc, generic, *plan, gathered));
    return success();
  }

  LinalgToGatherOptions options;
};

struct ConvertLinalgToGatherPass
    : gather::impl::ConvertLinalgToGatherBase<ConvertLinalgToGatherPass> {
  using Base::Base;

  void runOnOperation() override {
    LinalgToGatherOptions options;
    if (plainReads == "unchecked") {
      options.uncheckedPlainReads = true;
    } else if (plainReads != "error") {
      getOperation()->emitError("plain-reads must be 'error' or "
                                "'unchecked', got '")
          << plainReads << "'";
      return signalPassFailure();
    }
    options.segmentSums = segmentSums;
    options.segmentSumsOfGatheredRows = segmentSumsOfGatheredRows;
    RewritePatternSet patterns(&getContext());
    populateLinalgToGatherPatterns(patterns, options);
    // Each generic once: the rewrites make no new gather-like generics.
    GreedyRewriteConfig config;
    config.setRegionSimplificationLevel(GreedySimplifyRegionLevel::Disabled);
    config.enableFolding(false);
    (void)applyPatternsGreedily(getOperation(), std::move(patterns), config);
  }
};
} // namespace

void mlir::gather::populateLinalgToGatherPatterns(
    RewritePatternSet &patterns, const LinalgToGatherOptions &options) {
  patterns.add<RaiseGatherLikeGeneric>(patterns.getContext(), options);
  if (options.segmentSums)
    populateSegmentSumPatterns(patterns, options);
}
