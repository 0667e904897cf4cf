//===- GatherToLinalg.cpp - gather ops to linalg.generic ------------------===//

#include "gather/Conversion/MultiaxisLowering.h"
#include "gather/Conversion/Passes.h"

#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

namespace mlir::gather {
#define GEN_PASS_DEF_CONVERTGATHERTOLINALG
#include "gather/Conversion/Passes.h.inc"
} // namespace mlir::gather

using namespace mlir;
using namespace mlir::gather;

/// A reduction linalg.generic over the indices into one i1.
static Value buildGenericAllOf(
    OpBuilder &b, Location loc, Value indices,
    llvm::function_ref<Value(OpBuilder &, Location, Value, Value)> isValid) {
  auto type = cast<RankedTensorType>(indices.getType());
  int64_t rank = type.getRank();
  Value init = tensor::EmptyOp::create(b, loc, ArrayRef<int64_t>{},
                                       b.getI1Type());
  Value trueValue = arith::ConstantIntOp::create(b, loc, b.getI1Type(), 1);
  init = linalg::FillOp::create(b, loc, trueValue, init).getResult(0);
  SmallVector<AffineMap> maps = {
      b.getMultiDimIdentityMap(rank),
      AffineMap::get(rank, 0, {}, b.getContext())};
  SmallVector<utils::IteratorType> iterators(rank,
                                             utils::IteratorType::reduction);
  auto generic = linalg::GenericOp::create(
      b, loc, TypeRange{init.getType()}, ValueRange{indices}, ValueRange{init},
      maps, iterators, [&](OpBuilder &nb, Location nloc, ValueRange args) {
        Value lastPos =
            rank > 0 ? linalg::IndexOp::create(nb, nloc, rank - 1).getResult()
                     : arith::ConstantIndexOp::create(nb, nloc, 0).getResult();
        Value valid = isValid(nb, nloc, args[0], lastPos);
        linalg::YieldOp::create(
            nb, nloc, arith::AndIOp::create(nb, nloc, args[1], valid).getResult());
      });
  return tensor::ExtractOp::create(b, loc, generic.getResult(0), ValueRange{});
}

namespace {
struct ConvertGatherToLinalgPass
    : gather::impl::ConvertGatherToLinalgBase<ConvertGatherToLinalgPass> {
  void runOnOperation() override {
    if (failed(lowerAllGathers(getOperation(), buildGenericLoopNest, buildGenericAllOf,
                               /*copyContiguousBlocks=*/true)))
      signalPassFailure();
  }
};
} // namespace
