//===- GatherFolds.cpp - folds and canonicalization of gather ops ---------===//
//
// Part of the gather project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// Canonical form: every gather is a gather.multiaxis (plus reshapes), with the
// most static result type, no negative-index wrap when indices cannot be
// negative, constant or trivial gathers folded away, and unit dimensions that
// only carry the ONNX layout merged.
//
//===----------------------------------------------------------------------===//

#include "gather/Dialect/Gather/IR/GatherOps.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Dialect/Utils/IndexingUtils.h"
#include "mlir/IR/Matchers.h"
#include "mlir/IR/PatternMatch.h"

using namespace mlir;
using namespace mlir::gather;

/// Constant folding evaluates at most this many output elements.
static constexpr int64_t kFoldElementLimit = 1 << 16;

//===----------------------------------------------------------------------===//
// Multiaxis forms
//===----------------------------------------------------------------------===//

static ArrayRef<int64_t> shapeOf(Value value) {
  return cast<ShapedType>(value.getType()).getShape();
}

MultiaxisForm mlir::gather::getMultiaxisForm(Operation *op) {
  ArrayRef<int64_t> dataShape = shapeOf(op->getOperand(0));
  ArrayRef<int64_t> indicesShape = shapeOf(op->getOperand(1));
  if (auto block = dyn_cast<BlockOp>(op))
    return getBlockMultiaxisForm(dataShape, indicesShape,
                                 block.getNormalizedAxis());
  if (auto elements = dyn_cast<ElementsOp>(op))
    return getElementsMultiaxisForm(dataShape, indicesShape,
                                    elements.getNormalizedAxis());
  if (auto nd = dyn_cast<NdOp>(op))
    return getNdMultiaxisForm(dataShape, indicesShape, nd.getBatchDims());
  // gather.multiaxis itself: every reshape is the identity.
  MultiaxisForm form = getElementsMultiaxisForm(dataShape, indicesShape, 0);
  form.sliceDataDims.clear();
  form.axes = llvm::to_vector(cast<MultiaxisOp>(op).getAxes());
  return form;
}

//===----------------------------------------------------------------------===//
// Origins
//===----------------------------------------------------------------------===//

OriginAttr mlir::gather::getGatherOrigin(Operation *gatherOp) {
  MLIRContext *context = gatherOp->getContext();
  if (auto origin = context->getLoadedDialect<GatherDialect>()
                        ->getOriginAttrHelper()
                        .getAttr(gatherOp))
    return origin;
  auto op = cast<GatherOpInterface>(gatherOp);
  ArrayRef<int64_t> indicesShape = shapeOf(op.getIndices());
  return OriginAttr::get(
      context, gatherOp->getName().getStringRef(), op.getGatheredDims(),
      indicesShape,
      llvm::to_vector(llvm::seq<int64_t>(0, indicesShape.size())));
}

static void setOrigin(Operation *op, OriginAttr origin) {
  op->getContext()
      ->getLoadedDialect<GatherDialect>()
      ->getOriginAttrHelper()
      .setAttr(op, origin);
}

/// The origin of the multiaxis form of `op`: each written indices
/// dimension goes where the form's indices reshape puts it.
static OriginAttr originOfForm(Operation *op, const MultiaxisForm &form) {
  OriginAttr written = getGatherOrigin(op);
  SmallVector<int64_t> indicesDims;
  const UnitReshape &reshape = form.indices;
  if (reshape.expand) {
    indicesDims.assign(reshape.positions.begin(), reshape.positions.end());
  } else {
    // The coordinate fold: written dimensions grouped into one.
    indicesDims.resize(written.getIndices().size(), -1);
    for (auto [group, dims] : llvm::enumerate(reshape.reassociation))
      for (int64_t dim : dims)
        indicesDims[dim] = group;
  }
  return OriginAttr::get(op->getContext(), written.getName(), written.getDims(),
                         written.getIndices(), indicesDims);
}

/// The origin of `op` after its indices' dimensions were merged by
/// `groups` (unit dimensions collapsed away).
static OriginAttr originAfterCollapse(MultiaxisOp op,
                                      ArrayRef<ReassociationIndices> groups) {
  OriginAttr before = getGatherOrigin(op);
  SmallVector<int64_t> indicesDims;
  for (int64_t dim : before.getIndicesDims()) {
    int64_t merged = -1;
    for (auto [group, dims] : llvm::enumerate(groups))
      if (dim >= 0 && llvm::is_contained(dims, dim))
        merged = group;
    indicesDims.push_back(merged);
  }
  return OriginAttr::get(op->getContext(), before.getName(), before.getDims(),
                         before.getIndices(), indicesDims);
}

//===----------------------------------------------------------------------===//
// Folding
//===----------------------------------------------------------------------===//

/// Evaluates a gather whose data and indices are constants, through its
/// multiaxis form (the reshapes of the form are free on attributes).
static OpFoldResult foldConstantGather(Operation *op, Attribute dataAttr,
                                       Attribute indicesAttr,
                                       IndexPolicy policy) {
  auto data = dyn_cast_if_present<DenseElementsAttr>(dataAttr);
  auto indices = dyn_cast_if_present<DenseIntElementsAttr>(indicesAttr);
  auto resultType = cast<RankedTensorType>(op->getResult(0).getType());
  if (!data || !indices || !resultType.hasStaticShape() ||
      resultType.getNumElements() > kFoldElementLimit)
    return {};
  MultiaxisForm form = getMultiaxisForm(op);
  SmallVector<int64_t> inputShape = form.data.resultShape;
  SmallVector<int64_t> inputStrides = computeStrides(inputShape);
  for (int64_t d : form.sliceDataDims)
    inputShape[d] = form.indices.resultShape[d];
  FailureOr<GatherShape> shape = analyzeMultiaxisShapes(
      inputShape, form.indices.resultShape, form.axes, nullptr);
  if (failed(shape))
    return {};
  SmallVector<int64_t> indexValues;
  for (const APInt &value : indices.getValues<APInt>())
    indexValues.push_back(value.getSExtValue());
  SmallVector<Attribute> inputValues(data.getValues<Attribute>());
  Type elementType = resultType.getElementType();
  Attribute zero = Builder(op->getContext()).getZeroAttr(elementType);
  FailureOr<SmallVector<Attribute>> values = evaluateMultiaxis(
      inputValues, inputShape, inputStrides, indexValues,
      form.indices.resultShape, form.axes, shape->outputShape, policy, zero);
  if (failed(values))
    return {};
  return DenseElementsAttr::get(resultType, *values);
}

/// Every output element of a gather over a splat is the splat value, unless
/// an index hits the policy: fold only where no index can trap or fill.
static OpFoldResult foldSplatGather(Operation *op, Attribute dataAttr,
                                    Attribute indicesAttr, IndexPolicy policy) {
  auto data = dyn_cast_if_present<SplatElementsAttr>(dataAttr);
  auto resultType = cast<RankedTensorType>(op->getResult(0).getType());
  if (!data || data.getNumElements() == 0 || !resultType.hasStaticShape())
    return {};
  Attribute value = data.getSplatValue<Attribute>();
  // A bad index reads an element of the input under `clamp`, anything under
  // `unchecked`, zero under `fill`; constant indices under `error` were
  // verified in range.
  bool badIndexReadsSplat =
      policy.outOfBounds == OutOfBoundsMode::clamp ||
      policy.mayReadOutOfBounds() ||
      (policy.outOfBounds == OutOfBoundsMode::fill &&
       value ==
           Builder(op->getContext()).getZeroAttr(resultType.getElementType()));
  bool indicesKnownValid = indicesAttr && policy.canTrap();
  if (!badIndexReadsSplat && !indicesKnownValid)
    return {};
  return SplatElementsAttr::get(resultType, value);
}

/// Folds on tensors only (on buffers there is no result). `identity`, when
/// set, is a value the output equals.
template <typename OpTy>
static LogicalResult foldGather(OpTy op, Attribute dataAttr,
                                Attribute indicesAttr, Value identity,
                                SmallVectorImpl<OpFoldResult> &results) {
  if (!op.hasPureTensorSemantics() || failed(op.analyzeShapes()))
    return failure();
  if (identity) {
    results.push_back(identity);
    return success();
  }
  IndexPolicy policy = op.getIndexPolicy();
  OpFoldResult folded = foldSplatGather(op, dataAttr, indicesAttr, policy);
  if (!folded)
    folded = foldConstantGather(op, dataAttr, indicesAttr, policy);
  if (!folded)
    return failure();
  results.push_back(folded);
  return success();
}

/// A single axis whose indices are 0..n-1 along that very dimension (and 1
/// elsewhere) copies the input.
static bool isIotaOverAxis(MultiaxisOp op, Attribute indicesAttr) {
  auto indices = dyn_cast_if_present<DenseIntElementsAttr>(indicesAttr);
  if (!indices || op.getAxes().size() != 1)
    return false;
  int64_t axis = op.getAxes().front();
  ArrayRef<int64_t> shape = indices.getType().getShape();
  ArrayRef<int64_t> inputShape = shapeOf(op.getInput());
  for (auto [d, size] : llvm::enumerate(shape))
    if (static_cast<int64_t>(d) == axis ? size != inputShape[axis] : size != 1)
      return false;
  int64_t expected = 0;
  for (const APInt &value : indices.getValues<APInt>())
    if (value.getSExtValue() != expected++)
      return false;
  return true;
}

/// With empty axes the output is the input broadcast against the indices;
/// it is the input itself only if no dimension can grow, which equal static
/// types alone do not prove (`?` against `?` may broadcast at run time).
static bool isBroadcastIdentity(MultiaxisOp op) {
  ArrayRef<int64_t> inputShape = shapeOf(op.getInput());
  ArrayRef<int64_t> indicesShape = shapeOf(op.getIndices());
  for (auto [inputSize, indicesSize] : llvm::zip(inputShape, indicesShape)) {
    bool inputDecides = !ShapedType::isDynamic(inputSize) && inputSize != 1;
    if (!inputDecides && indicesSize != 1 && indicesSize != inputSize)
      return false;
    if (!inputDecides && ShapedType::isDynamic(indicesSize))
      return false;
  }
  return true;
}

LogicalResult MultiaxisOp::fold(FoldAdaptor adaptor,
                                SmallVectorImpl<OpFoldResult> &results) {
  // Empty axes with nothing to broadcast, or an iota over the axis: the
  // output is the input.
  Value identity;
  if (getInput().getType() == getInit().getType() &&
      succeeded(analyzeShapes()) &&
      ((getAxes().empty() && isBroadcastIdentity(*this)) ||
       isIotaOverAxis(*this, adaptor.getIndices())))
    identity = getInput();
  return foldGather(*this, adaptor.getInput(), adaptor.getIndices(), identity,
                    results);
}

LogicalResult BlockOp::fold(FoldAdaptor adaptor,
                            SmallVectorImpl<OpFoldResult> &results) {
  return foldGather(*this, adaptor.getData(), adaptor.getIndices(), Value(),
                    results);
}

LogicalResult ElementsOp::fold(FoldAdaptor adaptor,
                               SmallVectorImpl<OpFoldResult> &results) {
  return foldGather(*this, adaptor.getData(), adaptor.getIndices(), Value(),
                    results);
}

LogicalResult NdOp::fold(FoldAdaptor adaptor,
                         SmallVectorImpl<OpFoldResult> &results) {
  return foldGather(*this, adaptor.getData(), adaptor.getIndices(), Value(),
                    results);
}

//===----------------------------------------------------------------------===//
// Patterns shared by all ops
//===----------------------------------------------------------------------===//

SmallVector<int64_t> mlir::gather::getRuntimeBoundedDims(ElementsOp op) {
  ArrayRef<int64_t> dataShape = shapeOf(op.getData());
  ArrayRef<int64_t> indicesShape = shapeOf(op.getIndices());
  int64_t axis = op.getNormalizedAxis();
  SmallVector<int64_t> dims;
  for (int64_t d = 0, e = dataShape.size(); d < e; ++d)
    if (d != axis && (ShapedType::isDynamic(dataShape[d]) ||
                      ShapedType::isDynamic(indicesShape[d])))
      dims.push_back(d);
  return dims;
}

/// Rewrites an ONNX-style gather into reshape(multiaxis(reshape(data),
/// reshape(indices))), following the Gather Multiaxis proposal's gatherBlocks /
/// gatherSingleAxisElements / gatherNdBlocks. Dynamic sizes go through the
/// reshapes' dynamic forms.
template <typename OpTy>
static LogicalResult rewriteOpToMultiaxis(RewriterBase &rewriter, OpTy op) {
  if (!op.hasPureTensorSemantics() || failed(op.analyzeShapes()))
    return failure();
  MultiaxisForm form = getMultiaxisForm(op);
  Location loc = op.getLoc();
  rewriter.setInsertionPoint(op);
  Value data = op.getData();
  Value indices = op.getIndices();
  SmallVector<int64_t> runtimeBounded;
  if (auto elements = dyn_cast<ElementsOp>(op.getOperation()))
    runtimeBounded = getRuntimeBoundedDims(elements);
  if (!form.sliceDataDims.empty() || !runtimeBounded.empty()) {
    // gather.elements reads only the leading part of data where indices
    // are smaller; multiaxis would broadcast instead.
    int64_t rank = shapeOf(data).size();
    SmallVector<OpFoldResult> offsets(rank, rewriter.getIndexAttr(0));
    SmallVector<OpFoldResult> strides(rank, rewriter.getIndexAttr(1));
    SmallVector<OpFoldResult> sizes =
        tensor::getMixedSizes(rewriter, loc, data);
    for (int64_t d : form.sliceDataDims)
      sizes[d] = tensor::getMixedSize(rewriter, loc, indices, d);
    // Where the sizes are only known at run time the slice stays in bounds
    // whatever they are; the lowering has checked them before.
    for (int64_t d : runtimeBounded) {
      // An empty data dimension stays statically empty.
      if (shapeOf(data)[d] == 0) {
        sizes[d] = rewriter.getIndexAttr(0);
        continue;
      }
      Value dataSize = tensor::DimOp::create(rewriter, loc, data, d);
      Value indicesSize = tensor::DimOp::create(rewriter, loc, indices, d);
      sizes[d] = arith::MinUIOp::create(rewriter, loc, dataSize, indicesSize)
                     .getResult();
    }
    // Data with a static size 0 has no elements: any tensor of the
    // sliced shape is the slice (and extract_slice's verifier rejects
    // offset 0 in an empty dimension).
    if (llvm::is_contained(shapeOf(data), 0))
      data = tensor::EmptyOp::create(
          rewriter, loc, sizes,
          cast<RankedTensorType>(data.getType()).getElementType());
    else
      data = tensor::ExtractSliceOp::create(rewriter, loc, data, offsets, sizes,
                                            strides);
  }
  Value input = buildUnitReshape(rewriter, loc, data, form.data);
  Value multiIndices = buildUnitReshape(rewriter, loc, indices, form.indices);
  FailureOr<GatherShape> multiaxisShape = analyzeMultiaxisShapes(
      shapeOf(input), shapeOf(multiIndices), form.axes, nullptr);
  if (failed(multiaxisShape))
    return failure();
  // The destination keeps its buffer: expanded, not replaced.
  Value init = expandDestination(rewriter, loc, op.getInit(), form.output,
                                 multiaxisShape->outputShape);
  auto multiaxis = MultiaxisOp::create(
      rewriter, loc, input, multiIndices, form.axes, op.getNegativeIndices(),
      op.getOutOfBounds(), op.getWholeIndices(), init);
  // Run-time errors name the op the user wrote, not gather.multiaxis.
  setOrigin(multiaxis, originOfForm(op, form));
  Value result =
      buildUnitReshape(rewriter, loc, multiaxis.getOutput(), form.output);
  Type resultType = op.getInit().getType();
  if (result.getType() != resultType)
    result = tensor::CastOp::create(rewriter, loc, resultType, result);
  rewriter.replaceOp(op, result);
  return success();
}

LogicalResult mlir::gather::rewriteToMultiaxis(RewriterBase &rewriter,
                                               Operation *op) {
  if (auto block = dyn_cast<BlockOp>(op))
    return rewriteOpToMultiaxis(rewriter, block);
  if (auto elements = dyn_cast<ElementsOp>(op))
    return rewriteOpToMultiaxis(rewriter, elements);
  if (auto nd = dyn_cast<NdOp>(op))
    return rewriteOpToMultiaxis(rewriter, nd);
  return failure();
}

namespace {

/// The canonical rewrite into multiaxis form; gather.elements whose sizes
/// need a run-time check stays for the lowerings (see getRuntimeBoundedDims).
template <typename OpTy> struct RewriteToMultiaxis : OpRewritePattern<OpTy> {
  using OpRewritePattern<OpTy>::OpRewritePattern;

  LogicalResult matchAndRewrite(OpTy op,
                                PatternRewriter &rewriter) const override {
    if (auto elements = dyn_cast<ElementsOp>(op.getOperation()))
      if (!getRuntimeBoundedDims(elements).empty())
        return rewriter.notifyMatchFailure(
            op, "indices sizes must be checked against data at run time");
    return rewriteOpToMultiaxis(rewriter, op);
  }
};

/// Gives the destination (and so the result) the most static type that
/// agrees with both the written and the inferred type: a tensor.cast of
/// `init` before the op, one back to the written type for the users. A
/// tensor.empty destination is made anew with that type. Another (with
/// contents) is cast under a run-time check of its sizes, whose other
/// branch yields a new tensor, only with `withContents`
/// (gather-refine-result-types): bufferized, that scf.if made a copy of
/// the whole output where the destination was the caller's buffer (W4 with
/// dynamic indices through its destination-passing entry: two 16 MB copies
/// a call), so canonicalization leaves such destinations to the lowering,
/// which checks their dynamic sizes and writes them in place, unless the
/// output has no elements.
template <typename OpTy> struct RefineResultType : OpRewritePattern<OpTy> {
  RefineResultType(MLIRContext *context, bool withContents)
      : OpRewritePattern<OpTy>(context), withContents(withContents) {}
  bool withContents;

  LogicalResult matchAndRewrite(OpTy op,
                                PatternRewriter &rewriter) const override {
    if (!op.hasPureTensorSemantics())
      return rewriter.notifyMatchFailure(op, "no result on buffers");
    FailureOr<GatherShape> shape = op.analyzeShapes();
    if (failed(shape))
      return rewriter.notifyMatchFailure(op, "invalid operand shapes");
    auto written = cast<RankedTensorType>(op.getInit().getType());
    SmallVector<int64_t> refined;
    for (auto [have, inferred] :
         llvm::zip_equal(written.getShape(), shape->outputShape))
      refined.push_back(ShapedType::isDynamic(have) ? inferred : have);
    RankedTensorType refinedType = written.clone(refined);
    if (refinedType == written)
      return rewriter.notifyMatchFailure(op, "result type already refined");
    // (An output of static size 0 holds nothing to copy: refined, a
    // zero-size destination of a dynamic size is never collapsed with it,
    // which one-shot-bufferize types wrongly, `?` x 0 as 0.)
    if (!withContents &&
        !op.getInit().template getDefiningOp<tensor::EmptyOp>() &&
        !llvm::is_contained(refined, 0))
      return rewriter.notifyMatchFailure(op, "destination with contents");
    Location loc = op.getLoc();
    rewriter.setInsertionPoint(op);
    // The cast assumes the sizes it makes static: the run-time check of a
    // destination of another size, which the lowering would have made for
    // the dynamic size, goes before it.
    StringRef name = getGatherOrigin(op).getName();
    Value allSame;
    for (auto [d, size] : llvm::enumerate(refined)) {
      if (!written.isDynamicDim(d) || ShapedType::isDynamic(size))
        continue;
      Value actual = tensor::DimOp::create(rewriter, loc, op.getInit(), d);
      Value expected = arith::ConstantIndexOp::create(rewriter, loc, size);
      Value same = arith::CmpIOp::create(
          rewriter, loc, arith::CmpIPredicate::eq, actual, expected);
      CheckShapeOp::create(
          rewriter, loc, same,
          static_cast<int64_t>(RuntimeErrorKind::InitSizeMismatch), d, actual,
          expected, name);
      allSame =
          allSame
              ? arith::AndIOp::create(rewriter, loc, allSame, same).getResult()
              : same;
    }
    // A reported error need not stop the program (an embedder may record
    // it and go on): a destination of another size is then not cast, which
    // would be undefined (its buffer copied at its own size into one of the
    // output's), but replaced by a new tensor; the gather writes all of it.
    Value init = op.getInit();
    auto newEmpty = [&](OpBuilder &b, Location l) -> Value {
      return buildRefinedEmpty(b, l, init, refinedType);
    };
    // A tensor.empty destination has no contents to keep: a new one of the
    // refined type serves both cases. (The scf.if yielding two empties
    // bufferized into a result of dynamic strides: every block copy of W4
    // with dynamic indices became a memrefCopy call, 1.96x slower.)
    if (init.getDefiningOp<tensor::EmptyOp>()) {
      Value refinedInit = newEmpty(rewriter, loc);
      rewriter.setInsertionPointAfter(op);
      auto cast =
          tensor::CastOp::create(rewriter, loc, written, op.getOutput());
      rewriter.modifyOpInPlace(op, [&] {
        op.getInitMutable().assign(refinedInit);
        op.getOutput().setType(refinedType);
      });
      rewriter.replaceAllUsesExcept(op.getOutput(), cast.getResult(), cast);
      return success();
    }
    auto refine = scf::IfOp::create(
        rewriter, loc, allSame,
        [&](OpBuilder &b, Location l) {
          scf::YieldOp::create(
              b, l,
              ValueRange{tensor::CastOp::create(b, l, refinedType, init)});
        },
        [&](OpBuilder &b, Location l) {
          scf::YieldOp::create(b, l, ValueRange{newEmpty(b, l)});
        });
    init = refine.getResult(0);
    rewriter.setInsertionPointAfter(op);
    auto cast = tensor::CastOp::create(rewriter, loc, written, op.getOutput());
    rewriter.modifyOpInPlace(op, [&] {
      op.getInitMutable().assign(init);
      op.getOutput().setType(refinedType);
    });
    rewriter.replaceAllUsesExcept(op.getOutput(), cast.getResult(), cast);
    return success();
  }
};

/// Indices that cannot be negative need no wrap (and so no select in the
/// lowered code): constants >= 0, or zero-extended narrower integers.
static bool areProvablyNonNegative(Value indices) {
  DenseIntElementsAttr constant;
  if (matchPattern(indices, m_Constant(&constant)))
    return llvm::all_of(constant.getValues<APInt>(),
                        [](const APInt &v) { return !v.isNegative(); });
  Operation *def = indices.getDefiningOp();
  if (!def || !isa<arith::ExtUIOp, arith::IndexCastUIOp>(def))
    return false;
  auto narrowType = getElementTypeOrSelf(def->getOperand(0).getType());
  auto wideType = getElementTypeOrSelf(indices.getType());
  unsigned narrowWidth =
      narrowType.isIndex() ? 64 : narrowType.getIntOrFloatBitWidth();
  unsigned wideWidth =
      wideType.isIndex() ? 64 : wideType.getIntOrFloatBitWidth();
  return narrowWidth < wideWidth;
}

template <typename OpTy> struct DropNegativeWrap : OpRewritePattern<OpTy> {
  using OpRewritePattern<OpTy>::OpRewritePattern;

  LogicalResult matchAndRewrite(OpTy op,
                                PatternRewriter &rewriter) const override {
    if (op.getNegativeIndices() != NegativeIndexMode::wrap ||
        !areProvablyNonNegative(op.getIndices()))
      return failure();
    rewriter.modifyOpInPlace(
        op, [&] { op.setNegativeIndices(NegativeIndexMode::out_of_bounds); });
    return success();
  }
};

//===----------------------------------------------------------------------===//
// gather.multiaxis simplifications
//===----------------------------------------------------------------------===//

/// `op` with dimension `dropped` folded into a neighbour by `groups` (a
/// unit dimension of the input, the indices and the destination): the new
/// op reads and writes the collapsed tensors, its axes renumbered, and its
/// result is expanded back to the destination's type.
static Value rebuildWithoutDim(PatternRewriter &rewriter, MultiaxisOp op,
                               int64_t dropped,
                               ArrayRef<ReassociationIndices> groups) {
  Location loc = op.getLoc();
  Value input =
      tensor::CollapseShapeOp::create(rewriter, loc, op.getInput(), groups);
  Value indices =
      tensor::CollapseShapeOp::create(rewriter, loc, op.getIndices(), groups);
  SmallVector<int64_t> axes;
  for (int64_t a : op.getAxes())
    axes.push_back(a > dropped ? a - 1 : a);
  Value init = op.getInit();
  Value collapsedInit =
      tensor::CollapseShapeOp::create(rewriter, loc, init, groups);
  auto reduced = MultiaxisOp::create(
      rewriter, loc, input, indices, axes, op.getNegativeIndices(),
      op.getOutOfBounds(), op.getWholeIndices(), collapsedInit);
  // Errors still name the op, dimensions and positions as written.
  setOrigin(reduced, originAfterCollapse(op, groups));
  return tensor::ExpandShapeOp::create(
      rewriter, loc, init.getType(), reduced.getOutput(), groups,
      tensor::getMixedSizes(rewriter, loc, init));
}

/// Constant indices naming one coordinate for the whole output (logical
/// indices shape all ones) select a slice: tensor.extract_slice.
struct SingleCoordinateToSlice : OpRewritePattern<MultiaxisOp> {
  using OpRewritePattern::OpRewritePattern;

  LogicalResult matchAndRewrite(MultiaxisOp op,
                                PatternRewriter &rewriter) const override {
    DenseIntElementsAttr indices;
    if (!op.hasPureTensorSemantics() || op.getAxes().empty() ||
        !matchPattern(op.getIndices(), m_Constant(&indices)) ||
        indices.getNumElements() != op.getCoordinateSize())
      return failure();
    ArrayRef<int64_t> inputShape = shapeOf(op.getInput());
    int64_t rank = inputShape.size();
    SmallVector<OpFoldResult> offsets(rank, rewriter.getIndexAttr(0));
    SmallVector<OpFoldResult> sizes =
        tensor::getMixedSizes(rewriter, op.getLoc(), op.getInput());
    SmallVector<OpFoldResult> strides(rank, rewriter.getIndexAttr(1));
    auto values = llvm::to_vector(indices.getValues<APInt>());
    for (auto [j, axis] : llvm::enumerate(op.getAxes())) {
      bool isFill = false;
      // A dynamic size leaves the policy undecidable here.
      if (ShapedType::isDynamic(inputShape[axis]))
        return failure();
      std::optional<int64_t> at = op.getIndexPolicy().resolve(
          values[j].getSExtValue(), inputShape[axis], isFill);
      if (!at || isFill)
        return failure();
      offsets[axis] = rewriter.getIndexAttr(*at);
      sizes[axis] = rewriter.getIndexAttr(1);
    }
    Value slice = tensor::ExtractSliceOp::create(
        rewriter, op.getLoc(), op.getInput(), offsets, sizes, strides);
    Type resultType = op.getInit().getType();
    if (slice.getType() != resultType)
      slice = tensor::CastOp::create(rewriter, op.getLoc(), resultType, slice);
    rewriter.replaceOp(op, slice);
    return success();
  }
};

/// An axis dimension whose logical indices size is 1, followed by a
/// non-axis dimension that only indices fill (input size 1), are one
/// dimension: the layout gatherBlocks produces. Merging them gives the
/// Gather Multiaxis proposal's worked shapes ([4,1,3]/[1,2,1] ->
/// [4,3]/[2,1]).
struct MergeUnitAxisWithIndexDim : OpRewritePattern<MultiaxisOp> {
  using OpRewritePattern::OpRewritePattern;

  LogicalResult matchAndRewrite(MultiaxisOp op,
                                PatternRewriter &rewriter) const override {
    if (!op.hasPureTensorSemantics())
      return failure();
    ArrayRef<int64_t> inputShape = shapeOf(op.getInput());
    ArrayRef<int64_t> indicesShape = shapeOf(op.getIndices());
    ArrayRef<int64_t> axes = op.getAxes();
    int64_t rank = inputShape.size();
    int64_t k = op.getCoordinateSize();
    auto logicalSize = [&](int64_t d) {
      return getLogicalIndicesSize(indicesShape[d], d == rank - 1 ? k : 1);
    };
    for (int64_t axis : axes) {
      int64_t next = axis + 1;
      if (next >= rank || logicalSize(axis) != 1 ||
          llvm::is_contained(axes, next) || inputShape[next] != 1)
        continue;
      SmallVector<ReassociationIndices> merge;
      for (int64_t d = 0; d < rank; ++d) {
        if (d == next)
          continue;
        if (d == axis)
          merge.push_back({axis, next});
        else
          merge.push_back({d});
      }
      rewriter.replaceOp(op, rebuildWithoutDim(rewriter, op, next, merge));
      return success();
    }
    return failure();
  }
};

/// A non-axis dimension where both the input and the logical indices have
/// size 1 carries nothing: gather on the tensors without it and expand the
/// output back.
struct DropInertUnitDim : OpRewritePattern<MultiaxisOp> {
  using OpRewritePattern::OpRewritePattern;

  LogicalResult matchAndRewrite(MultiaxisOp op,
                                PatternRewriter &rewriter) const override {
    if (!op.hasPureTensorSemantics())
      return failure();
    ArrayRef<int64_t> inputShape = shapeOf(op.getInput());
    ArrayRef<int64_t> indicesShape = shapeOf(op.getIndices());
    ArrayRef<int64_t> axes = op.getAxes();
    int64_t rank = inputShape.size();
    int64_t k = op.getCoordinateSize();
    if (rank < 2)
      return failure();
    for (int64_t d = 0; d < rank; ++d) {
      int64_t logical =
          getLogicalIndicesSize(indicesShape[d], d == rank - 1 ? k : 1);
      if (llvm::is_contained(axes, d) || inputShape[d] != 1 ||
          ShapedType::isDynamic(indicesShape[d]) || logical != 1)
        continue;
      SmallVector<int64_t> kept;
      for (int64_t e = 0; e < rank; ++e)
        if (e != d)
          kept.push_back(e);
      // On the last dimension the k index values of a coordinate move into
      // the new last dimension with the group: [.., n, k] -> [.., n*k].
      SmallVector<ReassociationIndices> groups = unitDimGroups(kept, rank);
      rewriter.replaceOp(op, rebuildWithoutDim(rewriter, op, d, groups));
      return success();
    }
    return failure();
  }
};

/// Empty axes: the output is the input broadcast along the dimensions where
/// it has size 1: linalg.broadcast of the input with those dimensions
/// dropped.
struct EmptyAxesToBroadcast : OpRewritePattern<MultiaxisOp> {
  using OpRewritePattern::OpRewritePattern;

  LogicalResult matchAndRewrite(MultiaxisOp op,
                                PatternRewriter &rewriter) const override {
    if (!op.hasPureTensorSemantics() || !op.getAxes().empty())
      return failure();
    FailureOr<GatherShape> shape = op.analyzeShapes();
    if (failed(shape))
      return failure();
    ArrayRef<int64_t> inputShape = shapeOf(op.getInput());
    ArrayRef<int64_t> indicesShape = shapeOf(op.getIndices());
    SmallVector<int64_t> broadcastDims;
    SmallVector<int64_t> keptDims;
    for (auto [d, size] : llvm::enumerate(inputShape)) {
      if (size == 1 && shape->outputShape[d] != 1) {
        broadcastDims.push_back(d);
        continue;
      }
      // A dynamic input size broadcasts only if it is 1 at run time, which
      // the indices side decides unless it is statically 1.
      if (ShapedType::isDynamic(size) && indicesShape[d] != 1)
        return rewriter.notifyMatchFailure(op, "broadcast decided at run time");
      keptDims.push_back(d);
    }
    if (broadcastDims.empty())
      return rewriter.notifyMatchFailure(op, "folds to the input instead");
    // Every size the broadcast takes must be proven by the types alike on
    // the input and the destination: a cast of a dynamic size to a static
    // one assumes what only a run-time check can tell (an input of size 1
    // against a destination of 5 would be read past its end), and the
    // lowering makes that check. RefineResultType makes the destination
    // static first where the operands prove its sizes.
    auto initShape = cast<RankedTensorType>(op.getInit().getType()).getShape();
    for (auto [d, size] : llvm::enumerate(initShape)) {
      bool kept = llvm::is_contained(keptDims, static_cast<int64_t>(d));
      int64_t proven = kept ? inputShape[d] : shape->outputShape[d];
      if (size != proven)
        return rewriter.notifyMatchFailure(
            op, "a size the types do not prove equal: the lowering checks it");
    }
    Location loc = op.getLoc();
    // Drop the unit dimensions that get broadcast.
    SmallVector<ReassociationIndices> groups =
        unitDimGroups(keptDims, inputShape.size());
    Value collapsed =
        tensor::CollapseShapeOp::create(rewriter, loc, op.getInput(), groups);
    // The kept sizes are written alike on the input and the init (checked
    // above), as linalg.broadcast wants.
    auto broadcast = linalg::BroadcastOp::create(rewriter, loc, collapsed,
                                                 op.getInit(), broadcastDims);
    rewriter.replaceOp(op, broadcast->getResult(0));
    return success();
  }
};

} // namespace

void mlir::gather::populateGatherToMultiaxisPatterns(
    RewritePatternSet &patterns) {
  patterns.add<RewriteToMultiaxis<BlockOp>, RewriteToMultiaxis<ElementsOp>,
               RewriteToMultiaxis<NdOp>>(patterns.getContext());
}

void mlir::gather::populateRefineResultTypePatterns(
    RewritePatternSet &patterns) {
  patterns.add<RefineResultType<MultiaxisOp>, RefineResultType<BlockOp>,
               RefineResultType<ElementsOp>, RefineResultType<NdOp>>(
      patterns.getContext(), /*withContents=*/true);
}

void mlir::gather::populateGatherCanonicalizationPatterns(
    RewritePatternSet &patterns) {
  MLIRContext *context = patterns.getContext();
  MultiaxisOp::getCanonicalizationPatterns(patterns, context);
  BlockOp::getCanonicalizationPatterns(patterns, context);
  ElementsOp::getCanonicalizationPatterns(patterns, context);
  NdOp::getCanonicalizationPatterns(patterns, context);
}

template <typename OpTy>
static void addCommonCanonicalizations(RewritePatternSet &results,
                                       MLIRContext *context) {
  results.add<RefineResultType<OpTy>>(context, /*withContents=*/false);
  results.add<DropNegativeWrap<OpTy>>(context);
}

void MultiaxisOp::getCanonicalizationPatterns(RewritePatternSet &results,
                                              MLIRContext *context) {
  addCommonCanonicalizations<MultiaxisOp>(results, context);
  results.add<SingleCoordinateToSlice, MergeUnitAxisWithIndexDim,
              DropInertUnitDim, EmptyAxesToBroadcast>(context);
}

void BlockOp::getCanonicalizationPatterns(RewritePatternSet &results,
                                          MLIRContext *context) {
  addCommonCanonicalizations<BlockOp>(results, context);
  results.add<RewriteToMultiaxis<BlockOp>>(context);
}

void ElementsOp::getCanonicalizationPatterns(RewritePatternSet &results,
                                             MLIRContext *context) {
  addCommonCanonicalizations<ElementsOp>(results, context);
  results.add<RewriteToMultiaxis<ElementsOp>>(context);
}

void NdOp::getCanonicalizationPatterns(RewritePatternSet &results,
                                       MLIRContext *context) {
  addCommonCanonicalizations<NdOp>(results, context);
  results.add<RewriteToMultiaxis<NdOp>>(context);
}
