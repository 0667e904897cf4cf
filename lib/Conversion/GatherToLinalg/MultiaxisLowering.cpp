//===- MultiaxisLowering.cpp - shared lowering of gather.multiaxis --------===//

#include "gather/Conversion/MultiaxisLowering.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/BuiltinOps.h"
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

LogicalResult mlir::gather::prepareForLowering(Operation *root) {
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
      dynamicFlag = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq,
                                          size, one);
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

/// Applies the negative-index policy.
static Value wrapNegative(OpBuilder &b, Location loc, MultiaxisOp op,
                          Value index, Value size) {
  if (op.getNegativeIndices() != NegativeIndexMode::wrap)
    return index;
  Value zero = constIndex(b, loc, 0);
  Value isNegative =
      arith::CmpIOp::create(b, loc, arith::CmpIPredicate::slt, index, zero);
  Value wrapped = arith::AddIOp::create(b, loc, index, size);
  return arith::SelectOp::create(b, loc, isNegative, wrapped, index);
}

static Value computeElement(OpBuilder &b, Location loc, const Prepared &p,
                            ValueRange coords) {
  MultiaxisOp op = p.op;
  int64_t rank = p.rank;
  SmallVector<Value> indicesPos, inputPos;
  for (int64_t d = 0; d < rank; ++d) {
    indicesPos.push_back(broadcastCoord(b, loc, coords[d],
                                        p.indicesUnitStatic[d],
                                        p.indicesUnit[d]));
    inputPos.push_back(broadcastCoord(b, loc, coords[d], p.inputUnitStatic[d],
                                      p.inputUnit[d]));
  }
  Value base;
  if (rank > 0) {
    base = indicesPos.back();
    if (p.coordinateSize != 1)
      base = arith::MulIOp::create(b, loc, base,
                                   constIndex(b, loc, p.coordinateSize));
  }
  Value allValid;
  OutOfBoundsMode oob = op.getOutOfBounds();
  for (auto [j, axis] : llvm::enumerate(p.axes)) {
    SmallVector<Value> pos = indicesPos;
    pos.back() = j == 0 ? base
                        : arith::AddIOp::create(b, loc, base,
                                                constIndex(b, loc, j))
                              .getResult();
    Value raw = tensor::ExtractOp::create(b, loc, op.getIndices(), pos);
    Value size = p.inputSize[axis];
    Value index = wrapNegative(b, loc, op, toIndex(b, loc, raw), size);
    if (oob == OutOfBoundsMode::clamp) {
      Value last = arith::SubIOp::create(b, loc, size, constIndex(b, loc, 1));
      index = arith::MinSIOp::create(b, loc, index, last);
      index = arith::MaxSIOp::create(b, loc, index, constIndex(b, loc, 0));
    } else if (oob == OutOfBoundsMode::fill) {
      // One unsigned compare covers both index < 0 and index >= size.
      Value valid = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ult,
                                          index, size);
      index =
          arith::SelectOp::create(b, loc, valid, index, constIndex(b, loc, 0));
      allValid = andValues(b, loc, allValid, valid);
    }
    inputPos[axis] = index;
  }
  Value element = tensor::ExtractOp::create(b, loc, op.getInput(), inputPos);
  if (allValid) {
    Type elementType = element.getType();
    Value zero = arith::ConstantOp::create(
        b, loc, elementType, b.getZeroAttr(elementType));
    element = arith::SelectOp::create(b, loc, allValid, element, zero);
  }
  return element;
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
  return buildAllOf(
      b, loc, p.op.getIndices(),
      [&](OpBuilder &nb, Location nloc, Value raw, Value lastPos) -> Value {
        // The data dimension this value indexes: axes[lastPos % k].
        Value size = p.inputSize[p.axes.back()];
        if (p.axes.size() > 1) {
          Value component = arith::RemUIOp::create(
              nb, nloc, lastPos, constIndex(nb, nloc, p.coordinateSize));
          for (int64_t j = static_cast<int64_t>(p.axes.size()) - 2; j >= 0;
               --j) {
            Value isJ = arith::CmpIOp::create(nb, nloc,
                                              arith::CmpIPredicate::eq,
                                              component, constIndex(nb, nloc, j));
            size = arith::SelectOp::create(nb, nloc, isJ,
                                           p.inputSize[p.axes[j]], size);
          }
        }
        Value index = wrapNegative(nb, nloc, p.op, toIndex(nb, nloc, raw), size);
        return arith::CmpIOp::create(nb, nloc, arith::CmpIPredicate::ult,
                                     index, size);
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
  auto type = MemRefType::get({static_cast<int64_t>(bytes.size())},
                              b.getI8Type());
  auto value = DenseElementsAttr::get(
      RankedTensorType::get(type.getShape(), b.getI8Type()),
      ArrayRef<int8_t>(bytes));
  // Reuse a global with the same text.
  for (auto global : module.getOps<memref::GlobalOp>())
    if (global.getSymName().starts_with("__gather_site") &&
        global.getInitialValue() == value)
      return global;
  OpBuilder::InsertionGuard guard(b);
  b.setInsertionPointToStart(module.getBody());
  auto global = memref::GlobalOp::create(
      b, loc, "__gather_site", b.getStringAttr("private"), type, value,
      /*constant=*/true, /*alignment=*/nullptr);
  SymbolTable(module).insert(global);
  return global;
}

static void emitErrorCall(OpBuilder &b, Location loc, Operation *op,
                          Value indexOk) {
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
  Value address =
      memref::ExtractAlignedPointerAsIndexOp::create(b, loc, text);
  Value site = arith::IndexCastOp::create(b, loc, b.getI64Type(), address);
  // Which check failed decides the kind.
  Value kind = arith::ConstantIntOp::create(
      b, loc, b.getI64Type(),
      static_cast<int64_t>(RuntimeErrorKind::ShapeMismatch));
  if (indexOk) {
    Value oobKind = arith::ConstantIntOp::create(
        b, loc, b.getI64Type(),
        static_cast<int64_t>(RuntimeErrorKind::IndexOutOfBounds));
    kind = arith::SelectOp::create(b, loc, indexOk, kind, oobKind);
  }
  func::CallOp::create(b, loc, kRuntimeErrorFn, TypeRange{},
                       ValueRange{site, kind});
}

LogicalResult mlir::gather::lowerMultiaxis(RewriterBase &rewriter,
                                           MultiaxisOp op,
                                           LoopNestFn buildLoops,
                                           AllOfFn buildAllOf) {
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
  Value result;
  if (!proceed) {
    result = buildLoops(rewriter, loc, init, element);
  } else {
    auto ifOp = scf::IfOp::create(
        rewriter, loc, proceed,
        [&](OpBuilder &b, Location l) {
          scf::YieldOp::create(b, l, buildLoops(b, l, init, element));
        },
        [&](OpBuilder &b, Location l) {
          if (errorFree) {
            Value failed = arith::XOrIOp::create(
                b, l, errorFree,
                arith::ConstantIntOp::create(b, l, b.getI1Type(), 1));
            scf::IfOp::create(b, l, failed, [&](OpBuilder &tb, Location tl) {
              emitErrorCall(tb, tl, op, indexOk);
              scf::YieldOp::create(tb, tl);
            });
          }
          Value zero = arith::ConstantOp::create(b, l, elementType,
                                                 b.getZeroAttr(elementType));
          Value zeros =
              linalg::FillOp::create(b, l, zero, init).getResult(0);
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
