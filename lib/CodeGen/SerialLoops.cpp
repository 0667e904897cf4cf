//===- SerialLoops.cpp - parallel loops made serial -----------------------===//
//
// Part of the gather project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "gather/CodeGen/SerialLoops.h"

#include "mlir/IR/IRMapping.h"

using namespace mlir;

LogicalResult mlir::gather::serializeParallelDims(RewriterBase &rewriter,
                                                  scf::ParallelOp op,
                                                  unsigned keep) {
  unsigned loops = op.getNumLoops();
  if (keep >= loops)
    return success();
  if (keep > 0 && op.getNumReductions() > 0)
    return failure();
  Location loc = op.getLoc();
  OpBuilder::InsertionGuard guard(rewriter);
  rewriter.setInsertionPoint(op);
  IRMapping mapping;
  // A copy: getInductionVars makes a new vector at each call.
  SmallVector<Value> inductionVars = op.getInductionVars();
  if (keep > 0) {
    auto outer = scf::ParallelOp::create(
        rewriter, loc, op.getLowerBound().take_front(keep),
        op.getUpperBound().take_front(keep), op.getStep().take_front(keep));
    for (unsigned d = 0; d < keep; ++d)
      mapping.map(inductionVars[d], outer.getInductionVars()[d]);
    rewriter.setInsertionPointToStart(outer.getBody());
  }
  auto reduce = cast<scf::ReduceOp>(op.getBody()->getTerminator());
  scf::LoopNest nest = scf::buildLoopNest(
      rewriter, loc, op.getLowerBound().drop_front(keep),
      op.getUpperBound().drop_front(keep), op.getStep().drop_front(keep),
      op.getInitVals(),
      [&](OpBuilder &b, Location, ValueRange ivs,
          ValueRange accumulated) -> scf::ValueVector {
        for (auto [iv, serial] : llvm::zip_equal(
                 ArrayRef<Value>(inductionVars).drop_front(keep), ivs))
          mapping.map(iv, serial);
        for (Operation &nested : op.getBody()->without_terminator())
          b.clone(nested, mapping);
        // Each reduction's block combines the value so far (its first
        // argument) with this iteration's (its second).
        scf::ValueVector results;
        for (auto [region, value, soFar] : llvm::zip_equal(
                 reduce.getReductions(), reduce.getOperands(), accumulated)) {
          Block &combine = region.front();
          mapping.map(combine.getArgument(0), soFar);
          mapping.map(combine.getArgument(1), mapping.lookupOrDefault(value));
          for (Operation &nested : combine.without_terminator())
            b.clone(nested, mapping);
          results.push_back(
              mapping.lookupOrDefault(combine.getTerminator()->getOperand(0)));
        }
        return results;
      });
  rewriter.replaceOp(op, nest.results);
  return success();
}
