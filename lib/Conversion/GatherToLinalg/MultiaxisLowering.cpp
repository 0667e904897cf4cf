//===- MultiaxisLowering.cpp - shared lowering of gather.multiaxis --------===//

#include "gather/Conversion/MultiaxisLowering.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/Matchers.h"
#include "mlir/IR/SymbolTable.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"
#include "llvm/Support/raw_ostream.h"

using namespace mlir;
using namespace mlir::gather;

std::string mlir::gather::describeGatherSite(Operation *op) {
  std::string opName = op->getName().getStringRef().str();
  Location loc = op->getLoc();
  // The rewrite to multiaxis wraps the location in a NameLoc with the
  // original op's name.
  if (auto named = dyn_cast<NameLoc>(loc)) {
    if (named.getName().strref().starts_with("gather.")) {
      opName = named.getName().str();
      loc = named.getChildLoc();
    }
  }
  std::string text;
  llvm::raw_string_ostream os(text);
  os << opName;
  if (auto fileLoc = dyn_cast<FileLineColLoc>(loc))
    os << " at " << fileLoc.getFilename().strref() << ":" << fileLoc.getLine()
       << ":" << fileLoc.getColumn();
  return text;
}

static void emitErrorCall(OpBuilder &b, Location loc, Operation *op,
                          Value kind);

/// gather.elements whose sizes are only known at run time: checks that no
/// indices size exceeds the data size (ONNX and torch reject that), then
/// rewrites it into multiaxis form with in-bounds slices.
static LogicalResult lowerRuntimeBoundedElements(RewriterBase &rewriter,
                                                 ElementsOp op) {
  if (failed(op.analyzeShapes()))
    return failure();
  Location loc = op.getLoc();
  rewriter.setInsertionPoint(op);
  Value fits;
  for (int64_t d : getRuntimeBoundedDims(op)) {
    Value dataSize = tensor::DimOp::create(rewriter, loc, op.getData(), d);
    Value indicesSize =
        tensor::DimOp::create(rewriter, loc, op.getIndices(), d);
    Value ok = arith::CmpIOp::create(rewriter, loc, arith::CmpIPredicate::ule,
                                     indicesSize, dataSize);
    fits =
        fits ? arith::AndIOp::create(rewriter, loc, fits, ok).getResult() : ok;
  }
  Value tooLarge = arith::XOrIOp::create(
      rewriter, loc, fits,
      arith::ConstantIntOp::create(rewriter, loc, rewriter.getI1Type(), 1));
  scf::IfOp::create(rewriter, loc, tooLarge, [&](OpBuilder &b, Location l) {
    Value kind = arith::ConstantIntOp::create(
        b, l, b.getI64Type(),
        static_cast<int64_t>(RuntimeErrorKind::IndicesLargerThanData));
    emitErrorCall(b, l, op, kind);
    scf::YieldOp::create(b, l);
  });
  return rewriteToMultiaxis(rewriter, op);
}

LogicalResult mlir::gather::prepareForLowering(Operation *root) {
  MLIRContext *ctx = root->getContext();
  SmallVector<ElementsOp> runtimeBounded;
  root->walk([&](ElementsOp op) {
    if (!getRuntimeBoundedDims(op).empty())
      runtimeBounded.push_back(op);
  });
  IRRewriter rewriter(ctx);
  for (ElementsOp op : runtimeBounded)
    if (failed(lowerRuntimeBoundedElements(rewriter, op)))
      return op.emitOpError("could not be lowered");
  return bringToMultiaxisForm(root);
}

LogicalResult mlir::gather::bringToMultiaxisForm(Operation *root) {
  MLIRContext *ctx = root->getContext();
  RewritePatternSet patterns(ctx);
  populateGatherToMultiaxisPatterns(patterns);
  MultiaxisOp::getCanonicalizationPatterns(patterns, ctx);
  tensor::ExpandShapeOp::getCanonicalizationPatterns(patterns, ctx);
  tensor::CollapseShapeOp::getCanonicalizationPatterns(patterns, ctx);
  return applyPatternsGreedily(root, std::move(patterns));
}

namespace {
/// Everything the loop body needs, computed once before the loops.
struct Prepared {
  mutable MultiaxisOp op;
  int64_t rank = 0;
  int64_t coordinateSize = 1;
  SmallVector<int64_t> axes;
  /// Per dimension: run-time size of input / logical indices (index).
  SmallVector<Value> inputSize, logicalIndicesSize;
  /// Per dimension: whether the coordinate is pinned to 0 because the size
  /// is 1 (broadcast). A static answer, or an i1 value when dynamic.
  SmallVector<std::optional<bool>> inputUnitStatic, indicesUnitStatic;
  SmallVector<Value> inputUnit, indicesUnit;
  /// When set: the indices already resolved by the policy (tensor of index,
  /// the indices' shape; -1 marks an out-of-bounds value under `fill`).
  Value resolved;
};
} // namespace

static Value constIndex(OpBuilder &b, Location loc, int64_t v) {
  return arith::ConstantIndexOp::create(b, loc, v);
}

static Value andValues(OpBuilder &b, Location loc, Value lhs, Value rhs) {
  if (!lhs)
    return rhs;
  if (!rhs)
    return lhs;
  return arith::AndIOp::create(b, loc, lhs, rhs);
}

static Prepared prepare(OpBuilder &b, Location loc, MultiaxisOp op) {
  Prepared p;
  p.op = op;
  auto inputType = op.getInput().getType();
  auto indicesType = op.getIndices().getType();
  p.rank = inputType.getRank();
  p.coordinateSize = op.getCoordinateSize();
  p.axes = llvm::to_vector(op.getAxes());
  Value one = constIndex(b, loc, 1);
  for (int64_t d = 0; d < p.rank; ++d) {
    int64_t divisor = d == p.rank - 1 ? p.coordinateSize : 1;
    int64_t staticIn = inputType.getDimSize(d);
    int64_t staticIdx = indicesType.getDimSize(d);
    if (!ShapedType::isDynamic(staticIdx))
      staticIdx /= divisor;
    Value in = inputType.isDynamicDim(d)
                   ? tensor::DimOp::create(b, loc, op.getInput(), d).getResult()
                   : constIndex(b, loc, staticIn);
    Value idx;
    if (!ShapedType::isDynamic(staticIdx)) {
      idx = constIndex(b, loc, staticIdx);
    } else {
      idx = tensor::DimOp::create(b, loc, op.getIndices(), d);
      if (divisor != 1)
        idx = arith::DivUIOp::create(b, loc, idx, constIndex(b, loc, divisor));
    }
    p.inputSize.push_back(in);
    p.logicalIndicesSize.push_back(idx);
    auto unitOf = [&](int64_t staticSize, Value size,
                      std::optional<bool> &isStatic, Value &dynamicFlag) {
      if (!ShapedType::isDynamic(staticSize)) {
        isStatic = staticSize == 1;
        return;
      }
      dynamicFlag =
          arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq, size, one);
    };
    p.inputUnitStatic.emplace_back();
    p.indicesUnitStatic.emplace_back();
    p.inputUnit.emplace_back();
    p.indicesUnit.emplace_back();
    unitOf(staticIn, in, p.inputUnitStatic.back(), p.inputUnit.back());
    unitOf(staticIdx, idx, p.indicesUnitStatic.back(), p.indicesUnit.back());
    // Where one side of a non-axis broadcast is statically 1 the output
    // size is the other side's: its coordinate needs no select.
    if (!llvm::is_contained(p.axes, d)) {
      if (p.indicesUnitStatic.back() == std::optional<bool>(true))
        p.inputUnitStatic.back() = false;
      if (p.inputUnitStatic.back() == std::optional<bool>(true) &&
          staticIn == 1)
        p.indicesUnitStatic.back() = false;
    }
  }
  return p;
}

/// The coordinate along a dimension that may be broadcast: 0 where the size
/// is 1, else the output coordinate.
static Value broadcastCoord(OpBuilder &b, Location loc, Value outCoord,
                            std::optional<bool> unitStatic, Value unitFlag) {
  if (unitStatic)
    return *unitStatic ? constIndex(b, loc, 0) : outCoord;
  return arith::SelectOp::create(b, loc, unitFlag, constIndex(b, loc, 0),
                                 outCoord);
}

static Value toIndex(OpBuilder &b, Location loc, Value value) {
  if (value.getType().isIndex())
    return value;
  return arith::IndexCastOp::create(b, loc, b.getIndexType(), value);
}

/// An index constant shaped like `like` (index, or a vector of index).
static Value indexConstantLike(OpBuilder &b, Location loc, Type like,
                               int64_t value) {
  if (auto vecType = dyn_cast<VectorType>(like))
    return arith::ConstantOp::create(
        b, loc, vecType,
        DenseElementsAttr::get(vecType, b.getIndexAttr(value)));
  return constIndex(b, loc, value);
}

/// Applies the negative-index policy to an index or a vector of indices.
static Value wrapNegative(OpBuilder &b, Location loc, MultiaxisOp op,
                          Value index, Value size) {
  if (op.getNegativeIndices() != NegativeIndexMode::wrap)
    return index;
  Value zero = indexConstantLike(b, loc, index.getType(), 0);
  Value isNegative =
      arith::CmpIOp::create(b, loc, arith::CmpIPredicate::slt, index, zero);
  Value wrapped = arith::AddIOp::create(b, loc, index, size);
  return arith::SelectOp::create(b, loc, isNegative, wrapped, index);
}

namespace {
/// An index after the op's policy: safe to read with, and under `fill` the
/// i1 (or vector of i1) "was in bounds"; null otherwise.
struct ResolvedIndex {
  Value index;
  Value valid;
};
} // namespace

/// The whole index policy, on an index or a vector of indices (`size` of
/// the same shape): the one place where wrap, clamp and fill are spelled
/// out. `error` (checked before the loops) and `unchecked` only wrap.
static ResolvedIndex applyIndexPolicy(OpBuilder &b, Location loc,
                                      MultiaxisOp op, Value index, Value size) {
  Type type = index.getType();
  Value zero = indexConstantLike(b, loc, type, 0);
  ResolvedIndex result{wrapNegative(b, loc, op, index, size), nullptr};
  OutOfBoundsMode oob = op.getOutOfBounds();
  if (oob == OutOfBoundsMode::clamp) {
    Value last =
        arith::SubIOp::create(b, loc, size, indexConstantLike(b, loc, type, 1));
    result.index = arith::MinSIOp::create(b, loc, result.index, last);
    result.index = arith::MaxSIOp::create(b, loc, result.index, zero);
  } else if (oob == OutOfBoundsMode::fill) {
    // One unsigned compare covers both index < 0 and index >= size.
    result.valid = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ult,
                                         result.index, size);
    result.index =
        arith::SelectOp::create(b, loc, result.valid, result.index, zero);
  }
  return result;
}

namespace {
/// Where the input is read for one output coordinate.
struct InputCoords {
  SmallVector<Value> coords;
  /// i1 "every index was in bounds" under `fill`; null otherwise.
  Value valid;
};
} // namespace

/// The input coordinate for the output coordinate `coords`: the only place
/// where indices are read and the index policy is applied.
static InputCoords computeInputCoords(OpBuilder &b, Location loc,
                                      const Prepared &p, ValueRange coords) {
  MultiaxisOp op = p.op;
  int64_t rank = p.rank;
  SmallVector<Value> indicesPos;
  InputCoords result;
  for (int64_t d = 0; d < rank; ++d) {
    indicesPos.push_back(broadcastCoord(
        b, loc, coords[d], p.indicesUnitStatic[d], p.indicesUnit[d]));
    result.coords.push_back(broadcastCoord(
        b, loc, coords[d], p.inputUnitStatic[d], p.inputUnit[d]));
  }
  Value base;
  if (rank > 0) {
    base = indicesPos.back();
    if (p.coordinateSize != 1)
      base = arith::MulIOp::create(b, loc, base,
                                   constIndex(b, loc, p.coordinateSize));
  }
  OutOfBoundsMode oob = op.getOutOfBounds();
  for (auto [j, axis] : llvm::enumerate(p.axes)) {
    SmallVector<Value> pos = indicesPos;
    pos.back() =
        j == 0 ? base
               : arith::AddIOp::create(b, loc, base, constIndex(b, loc, j))
                     .getResult();
    if (p.resolved) {
      Value index = tensor::ExtractOp::create(b, loc, p.resolved, pos);
      if (oob == OutOfBoundsMode::fill) {
        Value valid = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::sge,
                                            index, constIndex(b, loc, 0));
        index = arith::SelectOp::create(b, loc, valid, index,
                                        constIndex(b, loc, 0));
        result.valid = andValues(b, loc, result.valid, valid);
      }
      result.coords[axis] = index;
      continue;
    }
    Value raw = tensor::ExtractOp::create(b, loc, op.getIndices(), pos);
    ResolvedIndex resolved =
        applyIndexPolicy(b, loc, op, toIndex(b, loc, raw), p.inputSize[axis]);
    result.valid = andValues(b, loc, result.valid, resolved.valid);
    result.coords[axis] = resolved.index;
  }
  return result;
}

static Value computeElement(OpBuilder &b, Location loc, const Prepared &p,
                            ValueRange coords) {
  InputCoords at = computeInputCoords(b, loc, p, coords);
  Value element = tensor::ExtractOp::create(b, loc, p.op.getInput(), at.coords);
  if (at.valid) {
    Type elementType = element.getType();
    Value zero = arith::ConstantOp::create(b, loc, elementType,
                                           b.getZeroAttr(elementType));
    element = arith::SelectOp::create(b, loc, at.valid, element, zero);
  }
  return element;
}

/// The size of the input dimension that index value at last-dim position
/// `lastPos` addresses: axes[lastPos % k].
static Value addressedSize(OpBuilder &b, Location loc, const Prepared &p,
                           Value lastPos) {
  Value size = p.inputSize[p.axes.back()];
  if (p.axes.size() == 1)
    return size;
  Value component = arith::RemUIOp::create(
      b, loc, lastPos, constIndex(b, loc, p.coordinateSize));
  for (int64_t j = static_cast<int64_t>(p.axes.size()) - 2; j >= 0; --j) {
    Value isJ = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq,
                                      component, constIndex(b, loc, j));
    size = arith::SelectOp::create(b, loc, isJ, p.inputSize[p.axes[j]], size);
  }
  return size;
}

/// Applies the index policy to every index value once, into a table of
/// input coordinates, so that loops that reuse each index many times
/// (broadcast dimensions) only read it.
static Value resolveIndices(OpBuilder &b, Location loc, const Prepared &p) {
  MultiaxisOp op = p.op;
  auto indicesType = op.getIndices().getType();
  int64_t rank = indicesType.getRank();
  auto tableType =
      RankedTensorType::get(indicesType.getShape(), b.getIndexType());
  Value init =
      tensor::EmptyOp::create(b, loc, tableType.getShape(), b.getIndexType());
  SmallVector<AffineMap> maps(2, b.getMultiDimIdentityMap(rank));
  SmallVector<utils::IteratorType> iterators(rank,
                                             utils::IteratorType::parallel);
  auto generic = linalg::GenericOp::create(
      b, loc, TypeRange{tableType}, ValueRange{op.getIndices()},
      ValueRange{init}, maps, iterators,
      [&](OpBuilder &nb, Location nloc, ValueRange args) {
        Value lastPos = linalg::IndexOp::create(nb, nloc, rank - 1);
        Value size = addressedSize(nb, nloc, p, lastPos);
        ResolvedIndex resolved =
            applyIndexPolicy(nb, nloc, op, toIndex(nb, nloc, args[0]), size);
        Value index = resolved.index;
        // The table marks a fill miss with -1.
        if (resolved.valid)
          index = arith::SelectOp::create(nb, nloc, resolved.valid, index,
                                          constIndex(nb, nloc, -1));
        linalg::YieldOp::create(nb, nloc, index);
      });
  return generic.getResult(0);
}

/// Applies the index policy to every coordinate tuple once and combines it
/// into the linear offset of the axis coordinates in the row-major input:
/// sum over c of coordinate_c * stride(axes[c]). The table has the logical
/// indices shape (the coordinates folded away); -1 marks a `fill` miss.
/// `inputStrides` are the input's row-major strides.
static Value buildAxisOffsetTable(OpBuilder &b, Location loc, const Prepared &p,
                                  ArrayRef<Value> inputStrides) {
  MultiaxisOp op = p.op;
  auto indicesType = op.getIndices().getType();
  int64_t rank = indicesType.getRank();
  SmallVector<int64_t> shape(indicesType.getShape());
  shape.back() /= p.coordinateSize;
  Value init = tensor::EmptyOp::create(b, loc, shape, b.getIndexType());
  auto tableType = cast<RankedTensorType>(init.getType());
  SmallVector<AffineMap> maps = {b.getMultiDimIdentityMap(rank)};
  SmallVector<utils::IteratorType> iterators(rank,
                                             utils::IteratorType::parallel);
  auto generic = linalg::GenericOp::create(
      b, loc, TypeRange{tableType}, ValueRange{}, ValueRange{init}, maps,
      iterators, [&](OpBuilder &nb, Location nloc, ValueRange) {
        SmallVector<Value> pos;
        for (int64_t d = 0; d < rank; ++d)
          pos.push_back(linalg::IndexOp::create(nb, nloc, d));
        Value first = arith::MulIOp::create(
            nb, nloc, pos.back(), constIndex(nb, nloc, p.coordinateSize));
        Value offset = constIndex(nb, nloc, 0);
        Value valid;
        for (auto [c, axis] : llvm::enumerate(p.axes)) {
          SmallVector<Value> at = pos;
          at.back() =
              arith::AddIOp::create(nb, nloc, first, constIndex(nb, nloc, c));
          Value raw = tensor::ExtractOp::create(nb, nloc, op.getIndices(), at);
          ResolvedIndex resolved = applyIndexPolicy(
              nb, nloc, op, toIndex(nb, nloc, raw), p.inputSize[axis]);
          valid = andValues(nb, nloc, valid, resolved.valid);
          Value term = arith::MulIOp::create(nb, nloc, resolved.index,
                                             inputStrides[axis]);
          offset = arith::AddIOp::create(nb, nloc, offset, term);
        }
        if (valid)
          offset = arith::SelectOp::create(nb, nloc, valid, offset,
                                           constIndex(nb, nloc, -1));
        linalg::YieldOp::create(nb, nloc, offset);
      });
  return generic.getResult(0);
}

/// Resolving the indices up front pays when the loop reads each index value
/// many times (broadcast dimensions); `loopShape` is the iteration space
/// (the output, or its dimensions outside a copied block). Needs static
/// sizes to decide.
static bool shouldResolveIndices(const Prepared &p,
                                 ArrayRef<int64_t> loopShape) {
  auto indicesType = p.op.getIndices().getType();
  if (p.axes.empty() || p.rank == 0 || !indicesType.hasStaticShape() ||
      ShapedType::isDynamicShape(loopShape))
    return false;
  int64_t indexCount = indicesType.getNumElements();
  int64_t iterations = ShapedType::getNumElements(loopShape);
  return indexCount > 0 && iterations >= 4 * indexCount;
}

/// Lanes per vector for elements of `bitWidth` bits (one 512-bit register
/// for 32-bit elements, capped at 16 lanes).
static int64_t lanesFor(unsigned bitWidth) {
  return std::min<int64_t>(16, std::max<int64_t>(4, 512 / bitWidth));
}

/// Element gathers whose innermost output dimension is not a copied block
/// are vectorized along that dimension. i1 has no byte-addressed vector
/// form; other integers and floats do.
static bool canVectorizeInnermost(const Prepared &p, Type elementType) {
  if (p.rank < 2 || p.axes.empty() || !elementType.isIntOrFloat() ||
      elementType.getIntOrFloatBitWidth() < 8)
    return false;
  // An empty input has nothing to gather (and cannot be collapsed with a
  // dynamic size).
  auto inputType = p.op.getInput().getType();
  if (llvm::is_contained(inputType.getShape(), 0))
    return false;
  // A slice of a larger tensor (gather.elements with smaller indices)
  // bufferizes to a strided view that vector.gather cannot address.
  Value source = p.op.getInput();
  while (Operation *def = source.getDefiningOp()) {
    if (isa<tensor::ExtractSliceOp>(def))
      return false;
    if (!isa<tensor::ExpandShapeOp, tensor::CollapseShapeOp, tensor::CastOp>(
            def))
      break;
    source = def->getOperand(0);
  }
  return true;
}

/// One output row per iteration of an scf.forall over the outer dimensions;
/// along the row, V lanes at a time: index values are read with one masked
/// vector.transfer_read where they are contiguous (one axis) or a
/// vector.gather along the indices row (k interleaved coordinates), resolved
/// with vector arithmetic, and the elements fetched with one vector.gather:
/// along the input row when only the innermost input coordinate varies per
/// lane, else from the input collapsed to 1-D with linear offsets.
static Value buildVectorRows(OpBuilder &b, Location loc, const Prepared &p,
                             Value init, bool useOffsetTable) {
  MultiaxisOp op = p.op;
  int64_t rank = p.rank;
  int64_t last = rank - 1;
  int64_t k = p.coordinateSize;
  auto outputType = cast<RankedTensorType>(init.getType());
  Type elementType = outputType.getElementType();
  Type indexElementType = op.getIndices().getType().getElementType();
  int64_t lanes = lanesFor(elementType.getIntOrFloatBitWidth());
  auto indexVecType = VectorType::get({lanes}, b.getIndexType());
  auto rawVecType = VectorType::get({lanes}, indexElementType);
  auto valueVecType = VectorType::get({lanes}, elementType);
  auto maskType = VectorType::get({lanes}, b.getI1Type());
  auto splat = [&](OpBuilder &vb, Location vl, Value scalar) -> Value {
    return vector::BroadcastOp::create(vb, vl, indexVecType, scalar);
  };

  SmallVector<OpFoldResult> upperBounds;
  for (int64_t d = 0; d < last; ++d)
    upperBounds.push_back(tensor::getMixedSize(b, loc, init, d));
  // Which coordinates vary with the lane (the innermost output coordinate).
  bool indicesVary = p.indicesUnitStatic[last] != std::optional<bool>(true);
  bool innermostIsAxis = llvm::is_contained(p.axes, last);
  bool onlyInnermostVaries =
      indicesVary && p.axes.size() == 1 && innermostIsAxis;
  // Linear offsets need the input as one dimension; collapse_shape is free
  // on the contiguous buffers gathers read (bufferization copies otherwise).
  Value flatInput;
  SmallVector<Value> inputStrides(rank);
  useOffsetTable = useOffsetTable && !onlyInnermostVaries;
  if (!onlyInnermostVaries) {
    SmallVector<ReassociationIndices> all(1);
    for (int64_t d = 0; d < rank; ++d)
      all[0].push_back(d);
    flatInput = tensor::CollapseShapeOp::create(b, loc, op.getInput(), all);
    Value stride = constIndex(b, loc, 1);
    for (int64_t d = last; d >= 0; --d) {
      inputStrides[d] = stride;
      stride = arith::MulIOp::create(b, loc, stride, p.inputSize[d]);
    }
  }
  // Indices reused by many rows: resolve each coordinate tuple once, into
  // its linear offset; the rows then read offsets contiguously.
  Value offsetTable;
  if (useOffsetTable)
    offsetTable = buildAxisOffsetTable(b, loc, p, inputStrides);

  auto forall = scf::ForallOp::create(b, loc, upperBounds, ValueRange{init},
                                      std::nullopt);
  OpBuilder::InsertionGuard guard(b);
  b.setInsertionPoint(forall.getTerminator());
  ValueRange ivs = forall.getInductionVars();
  Value rowLength = tensor::DimOp::create(b, loc, init, last);
  SmallVector<OpFoldResult> rowOffsets(ivs.begin(), ivs.end());
  rowOffsets.push_back(b.getIndexAttr(0));
  SmallVector<OpFoldResult> rowSizes(last, b.getIndexAttr(1));
  rowSizes.push_back(tensor::getMixedSize(b, loc, init, last));
  SmallVector<OpFoldResult> ones(rank, b.getIndexAttr(1));
  Value sharedOut = forall.getRegionIterArgs()[0];
  Value row = tensor::ExtractSliceOp::create(b, loc, sharedOut, rowOffsets,
                                             rowSizes, ones);

  Value zeroIndex = constIndex(b, loc, 0);
  SmallVector<Value> indicesPos, inputPos;
  for (int64_t d = 0; d < last; ++d) {
    indicesPos.push_back(broadcastCoord(b, loc, ivs[d], p.indicesUnitStatic[d],
                                        p.indicesUnit[d]));
    inputPos.push_back(
        broadcastCoord(b, loc, ivs[d], p.inputUnitStatic[d], p.inputUnit[d]));
  }
  indicesPos.push_back(zeroIndex);
  inputPos.push_back(zeroIndex);
  Value zeroVec = arith::ConstantOp::create(
      b, loc, indexVecType,
      DenseElementsAttr::get(indexVecType, b.getIndexAttr(0)));
  // With the offset table: the row's offset from the dimensions that are
  // not axes and not the innermost one, once per row.
  Value rowBase;
  if (offsetTable) {
    rowBase = zeroIndex;
    for (int64_t d = 0; d < last; ++d) {
      if (llvm::is_contained(p.axes, d))
        continue;
      rowBase = arith::AddIOp::create(
          b, loc, rowBase,
          arith::MulIOp::create(b, loc, inputPos[d], inputStrides[d]));
    }
  }
  Value laneIds = vector::StepOp::create(b, loc, indexVecType);
  Value passThrough = arith::ConstantOp::create(
      b, loc, valueVecType,
      DenseElementsAttr::get(valueVecType, b.getZeroAttr(elementType)));
  Value rawPad = arith::ConstantOp::create(b, loc, indexElementType,
                                           b.getZeroAttr(indexElementType));
  Value rawPassThrough = arith::ConstantOp::create(
      b, loc, rawVecType,
      DenseElementsAttr::get(rawVecType, b.getZeroAttr(indexElementType)));
  auto minorMap = AffineMapAttr::get(
      AffineMap::getMinorIdentityMap(rank, 1, b.getContext()));
  ArrayAttr notInBounds = b.getBoolArrayAttr({false});

  auto loop = scf::ForOp::create(
      b, loc, zeroIndex, rowLength, constIndex(b, loc, lanes), ValueRange{row},
      [&](OpBuilder &lb, Location ll, Value j, ValueRange iterArgs) {
        Value remaining = arith::SubIOp::create(lb, ll, rowLength, j);
        Value mask = vector::CreateMaskOp::create(lb, ll, maskType,
                                                  ValueRange{remaining});
        // Output coordinates of the lanes along the row.
        Value laneCoords =
            arith::AddIOp::create(lb, ll, laneIds, splat(lb, ll, j));
        Value gatherMask = mask;
        Value values;
        if (offsetTable) {
          Value axisOffsets;
          if (!indicesVary) {
            SmallVector<Value> at = indicesPos;
            Value scalar = tensor::ExtractOp::create(lb, ll, offsetTable, at);
            axisOffsets = splat(lb, ll, scalar);
          } else {
            // A dynamic indices row of size 1 cannot reach here: the table
            // needs static shapes.
            SmallVector<Value> at = indicesPos;
            at.back() = j;
            axisOffsets = vector::TransferReadOp::create(
                lb, ll, indexVecType, offsetTable, at, minorMap,
                constIndex(lb, ll, 0), mask, notInBounds);
          }
          if (op.getOutOfBounds() == OutOfBoundsMode::fill) {
            Value hit = arith::CmpIOp::create(lb, ll, arith::CmpIPredicate::sge,
                                              axisOffsets, zeroVec);
            gatherMask = arith::AndIOp::create(lb, ll, gatherMask, hit);
            axisOffsets =
                arith::SelectOp::create(lb, ll, hit, axisOffsets, zeroVec);
          }
          Value offsets = arith::AddIOp::create(lb, ll, axisOffsets,
                                                splat(lb, ll, rowBase));
          // The innermost dimension as a non-axis: the lane's own
          // coordinate, unless the input broadcasts it.
          if (!llvm::is_contained(p.axes, last) &&
              p.inputUnitStatic[last] != std::optional<bool>(true)) {
            Value laneTerm = laneCoords;
            if (p.inputUnit[last])
              laneTerm = arith::SelectOp::create(
                  lb, ll,
                  vector::BroadcastOp::create(lb, ll, maskType,
                                              p.inputUnit[last]),
                  zeroVec, laneCoords);
            offsets = arith::AddIOp::create(lb, ll, offsets, laneTerm);
          }
          values = vector::GatherOp::create(lb, ll, valueVecType, flatInput,
                                            ValueRange{zeroIndex}, offsets,
                                            gatherMask, passThrough, nullptr);
        } else {
          SmallVector<Value> axisCoords(p.axes.size());
          for (auto [c, axis] : llvm::enumerate(p.axes)) {
            Value raw;
            if (!indicesVary) {
              // Every lane reads the same index value.
              SmallVector<Value> at = indicesPos;
              at.back() = constIndex(lb, ll, c);
              Value scalar =
                  tensor::ExtractOp::create(lb, ll, op.getIndices(), at);
              raw = vector::BroadcastOp::create(lb, ll, rawVecType, scalar);
            } else if (k == 1 && p.indicesUnitStatic[last]) {
              SmallVector<Value> at = indicesPos;
              at.back() = j;
              raw = vector::TransferReadOp::create(
                  lb, ll, rawVecType, op.getIndices(), at, minorMap, rawPad,
                  mask, notInBounds);
            } else {
              // Coordinates are interleaved: lane l reads l*k + c of the row;
              // a dynamic row of size 1 is a broadcast (every lane reads c).
              Value lanePos = laneCoords;
              if (!p.indicesUnitStatic[last])
                lanePos = arith::SelectOp::create(
                    lb, ll,
                    vector::BroadcastOp::create(lb, ll, maskType,
                                                p.indicesUnit[last]),
                    zeroVec, lanePos);
              Value positions = arith::MulIOp::create(
                  lb, ll, lanePos, splat(lb, ll, constIndex(lb, ll, k)));
              positions = arith::AddIOp::create(
                  lb, ll, positions, splat(lb, ll, constIndex(lb, ll, c)));
              raw = vector::GatherOp::create(
                  lb, ll, rawVecType, op.getIndices(), indicesPos, positions,
                  mask, rawPassThrough, nullptr);
            }
            Value index =
                indexElementType.isIndex()
                    ? raw
                    : arith::IndexCastOp::create(lb, ll, indexVecType, raw)
                          .getResult();
            ResolvedIndex resolved = applyIndexPolicy(
                lb, ll, op, index, splat(lb, ll, p.inputSize[axis]));
            // Lanes with an invalid index take the zero pass-through.
            if (resolved.valid)
              gatherMask =
                  arith::AndIOp::create(lb, ll, gatherMask, resolved.valid);
            axisCoords[c] = resolved.index;
          }
          if (onlyInnermostVaries) {
            values = vector::GatherOp::create(
                lb, ll, valueVecType, op.getInput(), inputPos,
                axisCoords.front(), gatherMask, passThrough, nullptr);
          } else {
            // Linear offset of each lane's input element.
            Value offsets = zeroVec;
            for (int64_t d = 0; d < rank; ++d) {
              Value coord;
              auto axisIt = llvm::find(p.axes, d);
              if (axisIt != p.axes.end()) {
                coord = axisCoords[axisIt - p.axes.begin()];
              } else if (d == last) {
                coord = p.inputUnitStatic[d] == std::optional<bool>(true)
                            ? zeroVec
                        : p.inputUnit[d]
                            ? arith::SelectOp::create(
                                  lb, ll,
                                  vector::BroadcastOp::create(lb, ll, maskType,
                                                              p.inputUnit[d]),
                                  zeroVec, laneCoords)
                                  .getResult()
                            : laneCoords;
              } else {
                coord = splat(lb, ll, inputPos[d]);
              }
              Value term = arith::MulIOp::create(
                  lb, ll, coord, splat(lb, ll, inputStrides[d]));
              offsets = arith::AddIOp::create(lb, ll, offsets, term);
            }
            values = vector::GatherOp::create(lb, ll, valueVecType, flatInput,
                                              ValueRange{zeroIndex}, offsets,
                                              gatherMask, passThrough, nullptr);
          }
        }
        SmallVector<Value> writeAt(last, zeroIndex);
        writeAt.push_back(j);
        Value updated = vector::TransferWriteOp::create(
                            lb, ll, values, iterArgs[0], writeAt, minorMap,
                            mask, notInBounds)
                            .getResult();
        scf::YieldOp::create(lb, ll, updated);
      });
  b.setInsertionPointToStart(forall.getTerminator().getBody());
  tensor::ParallelInsertSliceOp::create(b, loc, loop.getResult(0), sharedOut,
                                        rowOffsets, rowSizes, ones);
  return forall.getResult(0);
}

/// First output dimension of the trailing block that is copied from the
/// input whole: every later dimension is not an axis, the indices do not
/// vary along it (logical size 1), and the input has the output's size
/// there. For an embedding lookup [n, d] <- table[v, d] this is d.
static int64_t contiguousBlockStart(const Prepared &p,
                                    ArrayRef<int64_t> outputShape) {
  auto inputType = p.op.getInput().getType();
  int64_t start = p.rank;
  for (int64_t d = p.rank - 1; d >= 0; --d) {
    int64_t inSize = inputType.getDimSize(d);
    bool indicesConstant = p.indicesUnitStatic[d] == std::optional<bool>(true);
    if (llvm::is_contained(p.axes, d) || !indicesConstant ||
        ShapedType::isDynamic(inSize) || inSize != outputShape[d])
      break;
    start = d;
  }
  return start;
}

/// The structure-aware form: a parallel loop over the outer output
/// dimensions; each iteration computes one input coordinate and copies the
/// contiguous trailing block with one slice (a memcpy after bufferization),
/// never element by element.
static Value buildBlockCopy(OpBuilder &b, Location loc, const Prepared &p,
                            Value init, int64_t blockStart) {
  auto outputType = cast<RankedTensorType>(init.getType());
  auto inputType = p.op.getInput().getType();
  int64_t rank = p.rank;
  SmallVector<OpFoldResult> upperBounds;
  for (int64_t d = 0; d < blockStart; ++d)
    upperBounds.push_back(tensor::getMixedSize(b, loc, init, d));
  auto forall = scf::ForallOp::create(b, loc, upperBounds, ValueRange{init},
                                      std::nullopt);
  OpBuilder::InsertionGuard guard(b);
  b.setInsertionPoint(forall.getTerminator());
  SmallVector<Value> coords(forall.getInductionVars());
  for (int64_t d = blockStart; d < rank; ++d)
    coords.push_back(constIndex(b, loc, 0));
  InputCoords at = computeInputCoords(b, loc, p, coords);
  SmallVector<OpFoldResult> ones(rank, b.getIndexAttr(1));
  SmallVector<OpFoldResult> sizes(blockStart, b.getIndexAttr(1));
  SmallVector<int64_t> sliceShape(blockStart, 1);
  for (int64_t d = blockStart; d < rank; ++d) {
    sizes.push_back(b.getIndexAttr(inputType.getDimSize(d)));
    sliceShape.push_back(inputType.getDimSize(d));
  }
  SmallVector<OpFoldResult> inputOffsets(at.coords.begin(), at.coords.end());
  Value block = tensor::ExtractSliceOp::create(
      b, loc, RankedTensorType::get(sliceShape, outputType.getElementType()),
      p.op.getInput(), inputOffsets, sizes, ones);
  if (at.valid) {
    // A select, not an scf.if: the loop body becomes an OpenMP region that
    // must stay a single block.
    Type elementType = outputType.getElementType();
    auto blockType = RankedTensorType::get(sliceShape, elementType);
    Value zeros = arith::ConstantOp::create(
        b, loc, blockType,
        DenseElementsAttr::get(blockType, b.getZeroAttr(elementType)));
    block = arith::SelectOp::create(b, loc, at.valid, block, zeros);
  }
  SmallVector<OpFoldResult> outputOffsets(coords.begin(), coords.end());
  b.setInsertionPointToStart(forall.getTerminator().getBody());
  tensor::ParallelInsertSliceOp::create(
      b, loc, block, forall.getRegionIterArgs()[0], outputOffsets, sizes, ones);
  return forall.getResult(0);
}

/// i1 "the shapes are consistent at run time": dynamic broadcasts are
/// compatible and a dynamic last dimension holds whole coordinates.
static Value checkShapes(OpBuilder &b, Location loc, const Prepared &p) {
  Value ok;
  auto indicesType = p.op.getIndices().getType();
  auto inputType = p.op.getInput().getType();
  Value one = constIndex(b, loc, 1);
  for (int64_t d = 0; d < p.rank; ++d) {
    if (llvm::is_contained(p.axes, d))
      continue;
    int64_t staticIn = inputType.getDimSize(d);
    int64_t staticIdx = indicesType.getDimSize(d);
    if (!ShapedType::isDynamic(staticIdx) && d == p.rank - 1)
      staticIdx /= p.coordinateSize;
    // Verified statically, or a static 1 that broadcasts to anything.
    if ((!ShapedType::isDynamic(staticIn) &&
         !ShapedType::isDynamic(staticIdx)) ||
        staticIn == 1 || staticIdx == 1)
      continue;
    Value in = p.inputSize[d], idx = p.logicalIndicesSize[d];
    Value same =
        arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq, in, idx);
    Value inOne =
        arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq, in, one);
    Value idxOne =
        arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq, idx, one);
    Value compatible = arith::OrIOp::create(
        b, loc, same, arith::OrIOp::create(b, loc, inOne, idxOne));
    ok = andValues(b, loc, ok, compatible);
  }
  if (p.rank > 0 && p.coordinateSize > 1 &&
      indicesType.isDynamicDim(p.rank - 1)) {
    Value last = tensor::DimOp::create(b, loc, p.op.getIndices(), p.rank - 1);
    Value rem = arith::RemUIOp::create(b, loc, last,
                                       constIndex(b, loc, p.coordinateSize));
    ok = andValues(b, loc, ok,
                   arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq, rem,
                                         constIndex(b, loc, 0)));
  }
  return ok;
}

/// i1 "every index value is in bounds", for `out_of_bounds = error`.
static Value checkIndices(OpBuilder &b, Location loc, const Prepared &p,
                          AllOfFn buildAllOf) {
  if (p.axes.empty() || p.op.getOutOfBounds() != OutOfBoundsMode::error)
    return nullptr;
  // Constant indices against static axis sizes were proven in bounds by the
  // verifier: no run-time check.
  auto inputType = p.op.getInput().getType();
  if (matchPattern(p.op.getIndices(), m_Constant()) &&
      llvm::none_of(p.axes,
                    [&](int64_t axis) { return inputType.isDynamicDim(axis); }))
    return nullptr;
  return buildAllOf(
      b, loc, p.op.getIndices(),
      [&](OpBuilder &nb, Location nloc, Value raw, Value lastPos) -> Value {
        // The data dimension this value indexes: axes[lastPos % k].
        Value size = addressedSize(nb, nloc, p, lastPos);
        Value index =
            wrapNegative(nb, nloc, p.op, toIndex(nb, nloc, raw), size);
        return arith::CmpIOp::create(nb, nloc, arith::CmpIPredicate::ult, index,
                                     size);
      });
}

/// Under clamp and fill an axis of size 0 has no element to read: the
/// output is all zeros (fill) or undefined-but-safe zeros (clamp).
static Value checkAxesNonEmpty(OpBuilder &b, Location loc, const Prepared &p) {
  OutOfBoundsMode oob = p.op.getOutOfBounds();
  if (oob != OutOfBoundsMode::clamp && oob != OutOfBoundsMode::fill)
    return nullptr;
  Value ok;
  auto inputType = p.op.getInput().getType();
  for (int64_t axis : p.axes) {
    if (!inputType.isDynamicDim(axis) && inputType.getDimSize(axis) > 0)
      continue;
    ok = andValues(b, loc, ok,
                   arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ne,
                                         p.inputSize[axis],
                                         constIndex(b, loc, 0)));
  }
  return ok;
}

/// The site text ("op at file:line:col") as a NUL-terminated constant in the
/// module, so that any runner can print it.
static memref::GlobalOp getOrCreateSiteString(OpBuilder &b, Location loc,
                                              Operation *op) {
  auto module = op->getParentOfType<ModuleOp>();
  std::string text = describeGatherSite(op);
  SmallVector<int8_t> bytes(text.begin(), text.end());
  bytes.push_back(0);
  auto type =
      MemRefType::get({static_cast<int64_t>(bytes.size())}, b.getI8Type());
  auto value = DenseElementsAttr::get(
      RankedTensorType::get(type.getShape(), b.getI8Type()),
      ArrayRef<int8_t>(bytes));
  // Reuse a global with the same text.
  for (auto global : module.getOps<memref::GlobalOp>())
    if (global.getSymName().starts_with("__gather_site") &&
        global.getInitialValue() == value)
      return global;
  // A fresh name: one site string per distinct text.
  std::string name = "__gather_site";
  for (int suffix = 0; module.lookupSymbol(name); ++suffix)
    name = "__gather_site_" + std::to_string(suffix);
  OpBuilder::InsertionGuard guard(b);
  b.setInsertionPointToStart(module.getBody());
  return memref::GlobalOp::create(b, loc, name, b.getStringAttr("private"),
                                  type, value, /*constant=*/true,
                                  /*alignment=*/nullptr);
}

static void emitErrorCall(OpBuilder &b, Location loc, Operation *op,
                          Value kind) {
  auto module = op->getParentOfType<ModuleOp>();
  auto fnType = b.getFunctionType({b.getI64Type(), b.getI64Type()}, {});
  if (!module.lookupSymbol<func::FuncOp>(kRuntimeErrorFn)) {
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPointToStart(module.getBody());
    auto fn = func::FuncOp::create(b, loc, kRuntimeErrorFn, fnType);
    fn.setPrivate();
  }
  memref::GlobalOp global = getOrCreateSiteString(b, loc, op);
  Value text = memref::GetGlobalOp::create(b, loc, global.getType(),
                                           global.getSymName());
  Value address = memref::ExtractAlignedPointerAsIndexOp::create(b, loc, text);
  Value site = arith::IndexCastOp::create(b, loc, b.getI64Type(), address);
  func::CallOp::create(b, loc, kRuntimeErrorFn, TypeRange{},
                       ValueRange{site, kind});
}

LogicalResult mlir::gather::lowerMultiaxis(RewriterBase &rewriter,
                                           MultiaxisOp op,
                                           LoopNestFn buildLoops,
                                           AllOfFn buildAllOf,
                                           bool copyContiguousBlocks) {
  FailureOr<GatherShape> shape = op.analyzeShapes();
  if (failed(shape))
    return failure();
  Location loc = op.getLoc();
  rewriter.setInsertionPoint(op);
  Prepared p = prepare(rewriter, loc, op);
  SmallVector<OpFoldResult> outputSizes =
      reifyOutputShape(rewriter, loc, *shape, op.getInput(), op.getIndices());
  Type elementType = op.getType().getElementType();
  Value init = tensor::EmptyOp::create(rewriter, loc, outputSizes, elementType);
  auto inferredType = cast<RankedTensorType>(init.getType());

  Value shapeOk = checkShapes(rewriter, loc, p);
  // Shapes first: index checks read sizes that only make sense if they hold.
  Value indexOk = checkIndices(rewriter, loc, p, buildAllOf);
  Value errorFree = andValues(rewriter, loc, shapeOk, indexOk);
  Value nonEmpty = checkAxesNonEmpty(rewriter, loc, p);
  Value proceed = andValues(rewriter, loc, errorFree, nonEmpty);

  auto element = [&](OpBuilder &b, Location l, ValueRange coords) {
    return computeElement(b, l, p, coords);
  };
  int64_t blockStart = copyContiguousBlocks
                           ? contiguousBlockStart(p, inferredType.getShape())
                           : p.rank;
  // An output with a static size 0 has no element: the plain loop nest
  // (slices would need offsets into empty dimensions, which
  // tensor.extract_slice rejects).
  bool staticallyEmpty = llvm::is_contained(inferredType.getShape(), 0);
  // A block copy needs at least one loop dimension and one block dimension.
  bool useBlockCopy = !staticallyEmpty && blockStart > 0 && blockStart < p.rank;
  ArrayRef<int64_t> loopShape = inferredType.getShape();
  if (useBlockCopy)
    loopShape = loopShape.take_front(blockStart);
  bool reused = shouldResolveIndices(p, loopShape);
  // Vectorize along the innermost dimension. Where interleaved coordinates
  // are reused across many rows (W5's broadcast dimensions), each tuple is
  // resolved once into a linear-offset table that the rows read
  // contiguously.
  bool singleInnermostAxis = p.axes.size() == 1 && p.axes.front() == p.rank - 1;
  bool vectorize = copyContiguousBlocks && !useBlockCopy && !staticallyEmpty &&
                   canVectorizeInnermost(p, elementType);
  // The vector path resolves indices in registers.
  bool resolveFirst = copyContiguousBlocks && !vectorize && reused;
  auto compute = [&](OpBuilder &b, Location l) -> Value {
    if (resolveFirst)
      p.resolved = resolveIndices(b, l, p);
    if (useBlockCopy)
      return buildBlockCopy(b, l, p, init, blockStart);
    if (vectorize)
      return buildVectorRows(b, l, p, init,
                             /*useOffsetTable=*/reused && !singleInnermostAxis);
    return buildLoops(b, l, init, element);
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
            Value failed = arith::XOrIOp::create(
                b, l, errorFree,
                arith::ConstantIntOp::create(b, l, b.getI1Type(), 1));
            scf::IfOp::create(b, l, failed, [&](OpBuilder &tb, Location tl) {
              // Which check failed decides the kind.
              Value kind = arith::ConstantIntOp::create(
                  tb, tl, tb.getI64Type(),
                  static_cast<int64_t>(RuntimeErrorKind::ShapeMismatch));
              if (indexOk) {
                Value oobKind = arith::ConstantIntOp::create(
                    tb, tl, tb.getI64Type(),
                    static_cast<int64_t>(RuntimeErrorKind::IndexOutOfBounds));
                kind = arith::SelectOp::create(tb, tl, indexOk, kind, oobKind);
              }
              emitErrorCall(tb, tl, op, kind);
              scf::YieldOp::create(tb, tl);
            });
          }
          Value zero = arith::ConstantOp::create(b, l, elementType,
                                                 b.getZeroAttr(elementType));
          Value zeros = linalg::FillOp::create(b, l, zero, init).getResult(0);
          scf::YieldOp::create(b, l, zeros);
        });
    result = ifOp.getResult(0);
  }
  if (result.getType() != inferredType)
    result = tensor::CastOp::create(rewriter, loc, inferredType, result);
  if (result.getType() != op.getType())
    result = tensor::CastOp::create(rewriter, loc, op.getType(), result);
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

Value mlir::gather::collapseUnitDims(OpBuilder &b, Location loc, Value value,
                                     ArrayRef<int64_t> unitDims) {
  auto type = cast<RankedTensorType>(value.getType());
  int64_t rank = type.getRank();
  if (unitDims.empty())
    return value;
  SmallVector<int64_t> shape;
  SmallVector<ReassociationIndices> groups;
  ReassociationIndices pending;
  for (int64_t d = 0; d < rank; ++d) {
    pending.push_back(d);
    if (llvm::is_contained(unitDims, d))
      continue;
    shape.push_back(type.getDimSize(d));
    groups.push_back(pending);
    pending.clear();
  }
  // Trailing unit dims join the last group (or form none: rank 0).
  if (!pending.empty() && !groups.empty())
    llvm::append_range(groups.back(), pending);
  return tensor::CollapseShapeOp::create(
      b, loc, RankedTensorType::get(shape, type.getElementType()), value,
      groups);
}

LogicalResult mlir::gather::lowerAllGathers(Operation *root,
                                            LoopNestFn buildLoops,
                                            AllOfFn buildAllOf,
                                            bool copyContiguousBlocks) {
  if (failed(prepareForLowering(root)))
    return failure();
  SmallVector<MultiaxisOp> ops;
  root->walk([&](MultiaxisOp op) { ops.push_back(op); });
  IRRewriter rewriter(root->getContext());
  for (MultiaxisOp op : ops)
    if (failed(lowerMultiaxis(rewriter, op, buildLoops, buildAllOf,
                              copyContiguousBlocks)))
      return op.emitOpError("could not be lowered");
  return success();
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
