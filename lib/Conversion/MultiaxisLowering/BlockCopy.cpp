//===- BlockCopy.cpp - trailing blocks copied whole -----------------------===//
//
// A trailing block of output dimensions that is taken from the input whole
// (an embedding row, the trailing dimensions of a block gather) is copied
// with one slice per coordinate of the other dimensions: a memcpy after
// bufferization, never element by element.
//
//===----------------------------------------------------------------------===//

#include "LoweringState.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"

using namespace mlir;
using namespace mlir::gather;
using namespace mlir::gather::lowering;

/// First output dimension of the trailing block that is copied from the
/// input whole: every later dimension is not an axis, the indices do not
/// vary along it (logical size 1), and the input has the output's size
/// there. For an embedding lookup [n, d] <- table[v, d] this is d.
int64_t lowering::contiguousBlockStart(const LoweringState &s,
                                       ArrayRef<int64_t> outputShape) {
  int64_t start = s.rank;
  for (int64_t d = s.rank - 1; d >= 0; --d) {
    // Where the indices have size 1 along a non-axis dimension, the output
    // has the input's size there (static or not): the dimension is copied.
    bool indicesConstant = s.indicesUnitStatic[d] == std::optional<bool>(true);
    if (llvm::is_contained(s.axes, d) || !indicesConstant)
      break;
    start = d;
  }
  return start;
}

/// The structure-aware form: a parallel loop over the outer output
/// dimensions; each iteration computes one input coordinate and copies the
/// contiguous trailing block with one slice (a memcpy after bufferization),
/// never element by element.
Value lowering::buildBlockCopy(OpBuilder &b, Location loc,
                               const LoweringState &s, Value init,
                               int64_t blockStart, bool prefetch) {
  auto outputType = cast<RankedTensorType>(init.getType());
  auto inputType = cast<RankedTensorType>(s.op.getInput().getType());
  int64_t rank = s.rank;
  SmallVector<OpFoldResult> upperBounds;
  for (int64_t d = 0; d < blockStart; ++d)
    upperBounds.push_back(tensor::getMixedSize(b, loc, init, d));
  std::optional<BlockPrefetch> plan =
      prefetch ? planBlockPrefetch(b, loc, s, init, blockStart) : std::nullopt;
  auto forall = scf::ForallOp::create(b, loc, upperBounds, ValueRange{init},
                                      std::nullopt);
  OpBuilder::InsertionGuard guard(b);
  b.setInsertionPoint(forall.getTerminator());
  if (plan)
    emitBlockPrefetch(b, loc, s, *plan, forall.getInductionVars(),
                      upperBounds, blockStart);
  SmallVector<Value> coords(forall.getInductionVars());
  for (int64_t d = blockStart; d < rank; ++d)
    coords.push_back(constIndex(b, loc, 0));
  InputCoords at = computeInputCoords(b, loc, s, coords);
  SmallVector<OpFoldResult> ones(rank, b.getIndexAttr(1));
  SmallVector<OpFoldResult> sizes(blockStart, b.getIndexAttr(1));
  SmallVector<int64_t> sliceShape(blockStart, 1);
  for (int64_t d = blockStart; d < rank; ++d) {
    sizes.push_back(tensor::getMixedSize(b, loc, s.op.getInput(), d));
    sliceShape.push_back(inputType.getDimSize(d));
  }
  SmallVector<OpFoldResult> inputOffsets(at.coords.begin(), at.coords.end());
  Value block = tensor::ExtractSliceOp::create(
      b, loc, RankedTensorType::get(sliceShape, outputType.getElementType()),
      s.op.getInput(), inputOffsets, sizes, ones);
  if (at.valid && !fillsInvalid(s)) {
    reportIfInvalid(b, loc, s, at.valid);
  } else if (at.valid) {
    // A select, not an scf.if: the copy stays one straight-line body.
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
