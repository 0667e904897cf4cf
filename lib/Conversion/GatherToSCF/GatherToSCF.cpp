//===- GatherToSCF.cpp - gather ops to plain loops ------------------------===//

#include "gather/Conversion/GatherToSCF.h"
#include "gather/Conversion/MultiaxisLowering/MultiaxisLowering.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"

namespace mlir::gather {
#define GEN_PASS_DEF_CONVERTGATHERTOSCF
#include "gather/Conversion/Passes.h.inc"
} // namespace mlir::gather

using namespace mlir;
using namespace mlir::gather;

/// scf.for loops over every dimension of `shaped`, threading `iterArgs`.
static SmallVector<Value>
buildForNest(OpBuilder &b, Location loc, Value shaped, ValueRange iterArgs,
             llvm::function_ref<SmallVector<Value>(OpBuilder &, Location,
                                                   ValueRange, ValueRange)>
                 body) {
  auto type = cast<RankedTensorType>(shaped.getType());
  if (type.getRank() == 0)
    return body(b, loc, ValueRange{}, iterArgs);
  SmallVector<Value> lbs, ubs, steps;
  for (int64_t d = 0; d < type.getRank(); ++d) {
    lbs.push_back(arith::ConstantIndexOp::create(b, loc, 0));
    ubs.push_back(
        type.isDynamicDim(d)
            ? tensor::DimOp::create(b, loc, shaped, d).getResult()
            : arith::ConstantIndexOp::create(b, loc, type.getDimSize(d))
                  .getResult());
    steps.push_back(arith::ConstantIndexOp::create(b, loc, 1));
  }
  scf::LoopNest nest = scf::buildLoopNest(
      b, loc, lbs, ubs, steps, iterArgs,
      [&](OpBuilder &nb, Location nloc, ValueRange ivs, ValueRange args) {
        return scf::ValueVector(body(nb, nloc, ivs, args));
      });
  return SmallVector<Value>(nest.results.begin(), nest.results.end());
}

static Value buildLoopNest(OpBuilder &b, Location loc, Value init,
                           ElementFn element) {
  SmallVector<Value> results = buildForNest(
      b, loc, init, init,
      [&](OpBuilder &nb, Location nloc, ValueRange ivs, ValueRange args) {
        Value value = element(nb, nloc, ivs);
        Value updated = tensor::InsertOp::create(nb, nloc, value, args[0], ivs);
        return SmallVector<Value>{updated};
      });
  return results.front();
}

static Value buildLoopAllOf(OpBuilder &b, Location loc, Value indices,
                            IndexCheckFn isValid) {
  Value trueValue = arith::ConstantIntOp::create(b, loc, b.getI1Type(), 1);
  SmallVector<Value> results = buildForNest(
      b, loc, indices, trueValue,
      [&](OpBuilder &nb, Location nloc, ValueRange ivs, ValueRange args) {
        Value raw = tensor::ExtractOp::create(nb, nloc, indices, ivs);
        Value lastPos =
            ivs.empty()
                ? arith::ConstantIndexOp::create(nb, nloc, 0).getResult()
                : ivs.back();
        Value valid = isValid(nb, nloc, raw, lastPos);
        return SmallVector<Value>{
            arith::AndIOp::create(nb, nloc, args[0], valid).getResult()};
      });
  return results.front();
}

void mlir::gather::populateGatherToSCFPatterns(
    RewritePatternSet &patterns, const GatherToSCFOptions &options) {
  MultiaxisLoweringStrategy strategy;
  strategy.buildLoops = buildLoopNest;
  strategy.buildAllOf = buildLoopAllOf;
  strategy.checkIndicesInLoops = true;
  strategy.lowerBufferForms = true;
  strategy.symbolTables = options.symbolTables;
  populateMultiaxisLoweringPatterns(patterns, strategy);
}

namespace {
struct ConvertGatherToSCFPass
    : gather::impl::ConvertGatherToSCFBase<ConvertGatherToSCFPass> {
  void runOnOperation() override {
    SymbolTableCollection symbolTables;
    RewritePatternSet patterns(&getContext());
    populateGatherToSCFPatterns(patterns, {&symbolTables});
    if (failed(
            applyGatherLoweringPatterns(getOperation(), std::move(patterns))))
      signalPassFailure();
  }
};
} // namespace
