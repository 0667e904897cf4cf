//===- GatherToLinalg.cpp - gather ops to linalg, scf and vector ----------===//
//
// Part of the gather project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "gather/Conversion/GatherToLinalg.h"
#include "gather/Conversion/MultiaxisLowering/MultiaxisLowering.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Bufferization/IR/Bufferization.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"

namespace mlir::gather {
#define GEN_PASS_DEF_CONVERTGATHERTOLINALG
#include "gather/Conversion/Passes.h.inc"
} // namespace mlir::gather

using namespace mlir;
using namespace mlir::gather;

/// A reduction linalg.generic over the indices into one i1.
static Value buildGenericAllOf(OpBuilder &b, Location loc, Value indices,
                               IndexCheckFn isValid) {
  auto type = cast<RankedTensorType>(indices.getType());
  int64_t rank = type.getRank();
  Value init =
      tensor::EmptyOp::create(b, loc, ArrayRef<int64_t>{}, b.getI1Type());
  Value trueValue = arith::ConstantIntOp::create(b, loc, b.getI1Type(), 1);
  init = linalg::FillOp::create(b, loc, trueValue, init).getResult(0);
  SmallVector<AffineMap> maps = {b.getMultiDimIdentityMap(rank),
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
            nb, nloc,
            arith::AndIOp::create(nb, nloc, args[1], valid).getResult());
      });
  return tensor::ExtractOp::create(b, loc, generic.getResult(0), ValueRange{});
}

void mlir::gather::populateGatherToLinalgPatterns(
    RewritePatternSet &patterns, const GatherToLinalgOptions &options) {
  MultiaxisLoweringStrategy strategy;
  strategy.buildLoops = buildGenericLoopNest;
  strategy.buildAllOf = buildGenericAllOf;
  strategy.checkIndicesInLoops = true;
  strategy.lowerBufferForms = true;
  strategy.serialColdPath = true;
  strategy.blockCopy = options.blockCopy;
  strategy.vectorize = options.vectorize;
  strategy.prefetch = options.prefetch;
  strategy.target = options.target;
  strategy.reportForms = options.reportForms;
  populateMultiaxisLoweringPatterns(patterns, strategy);
}

namespace {
struct ConvertGatherToLinalgPass
    : gather::impl::ConvertGatherToLinalgBase<ConvertGatherToLinalgPass> {
  using Base::Base;

  void runOnOperation() override {
    GatherToLinalgOptions options;
    options.blockCopy = blockCopy;
    options.vectorize = vectorize;
    options.prefetch = prefetch;
    FailureOr<CpuTarget> target =
        resolveCpuTarget(getOperation(), targetCpu, vectorBits, onHost);
    if (failed(target))
      return signalPassFailure();
    options.target = std::move(*target);
    options.reportForms = reportForms;
    RewritePatternSet patterns(&getContext());
    populateGatherToLinalgPatterns(patterns, options);
    if (failed(
            applyGatherLoweringPatterns(getOperation(), std::move(patterns))))
      signalPassFailure();
  }
};
} // namespace
