//===- GatherToMultiaxis.cpp - ONNX-style gathers to gather.multiaxis -----===//
//
// Part of the gather project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "gather/Dialect/Gather/IR/GatherOps.h"
#include "gather/Dialect/Gather/Transforms/Passes.h"

#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

namespace mlir::gather {
#define GEN_PASS_DEF_GATHERTOMULTIAXIS
#include "gather/Dialect/Gather/Transforms/Passes.h.inc"
} // namespace mlir::gather

using namespace mlir;

namespace {
struct GatherToMultiaxisPass
    : gather::impl::GatherToMultiaxisBase<GatherToMultiaxisPass> {
  void runOnOperation() override {
    RewritePatternSet patterns(&getContext());
    gather::populateGatherToMultiaxisPatterns(patterns);
    // Only the rewrites: no folding, so that the output shows the
    // specification's mapping as is.
    GreedyRewriteConfig config;
    config.enableFolding(false);
    config.setRegionSimplificationLevel(GreedySimplifyRegionLevel::Disabled);
    if (failed(
            applyPatternsGreedily(getOperation(), std::move(patterns), config)))
      signalPassFailure();
  }
};
} // namespace
