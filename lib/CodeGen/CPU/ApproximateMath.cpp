//===- ApproximateMath.cpp - math functions as vectorizable arithmetic ----===//
//
// Part of the gather project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "gather/CodeGen/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/Math/Transforms/Approximation.h"
#include "mlir/Dialect/Math/Transforms/Passes.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

namespace mlir::gather {
#define GEN_PASS_DEF_GATHERAPPROXIMATEMATH
#include "gather/CodeGen/Passes.h.inc"
} // namespace mlir::gather

using namespace mlir;

namespace {
struct GatherApproximateMathPass
    : gather::impl::GatherApproximateMathBase<GatherApproximateMathPass> {
  void runOnOperation() override {
    // Most lowered functions have no math op; a greedy driver would still
    // visit and try to fold every op of them.
    Dialect *math = getContext().getLoadedDialect<math::MathDialect>();
    if (!math || !getOperation()
                      ->walk([&](Operation *op) {
                        return op->getDialect() == math
                                   ? WalkResult::interrupt()
                                   : WalkResult::advance();
                      })
                      .wasInterrupted())
      return;
    RewritePatternSet patterns(&getContext());
    gather::populateApproximateMathPatterns(patterns);
    if (failed(applyPatternsGreedily(getOperation(), std::move(patterns))))
      signalPassFailure();
  }
};
} // namespace

void mlir::gather::populateApproximateMathPatterns(
    RewritePatternSet &patterns) {
  populateMathPolynomialApproximationPatterns(patterns);
}
