//===- GatherToSCF.cpp - gather ops to plain loops ------------------------===//
//
// Part of the gather project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

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

static Value buildLoopAllOf(OpBuilder &b, Location loc, Value indices,
                            IndexCheckFn isValid) {
  Value trueValue = arith::ConstantIntOp::create(b, loc, b.getI1Type(), 1);
  SmallVector<Value> results = buildForLoopsOver(
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

void mlir::gather::populateGatherToSCFPatterns(RewritePatternSet &patterns) {
  MultiaxisLoweringStrategy strategy;
  strategy.buildLoops = buildSerialLoopNest;
  strategy.buildAllOf = buildLoopAllOf;
  strategy.checkIndicesInLoops = true;
  strategy.lowerBufferForms = true;
  strategy.serialColdPath = true;
  populateMultiaxisLoweringPatterns(patterns, strategy);
}

namespace {
struct ConvertGatherToSCFPass
    : gather::impl::ConvertGatherToSCFBase<ConvertGatherToSCFPass> {
  void runOnOperation() override {
    RewritePatternSet patterns(&getContext());
    populateGatherToSCFPatterns(patterns);
    if (failed(
            applyGatherLoweringPatterns(getOperation(), std::move(patterns))))
      signalPassFailure();
  }
};
} // namespace
