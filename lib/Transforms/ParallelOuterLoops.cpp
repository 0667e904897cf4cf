//===- ParallelOuterLoops.cpp - keep only outer loops parallel ------------===//
//
// convert-scf-to-openmp collapses every dimension of an scf.parallel into
// one OpenMP loop, which then recovers each index with a division and a
// remainder per iteration. A gather's inner dimensions are better as plain
// loops: only a prefix with enough iterations to balance the threads stays
// parallel.
//
//===----------------------------------------------------------------------===//

#include "gather/Transforms/Passes.h"

#include "mlir/Dialect/Arith/Utils/Utils.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/IR/PatternMatch.h"

namespace mlir::gather {
#define GEN_PASS_DEF_GATHERPARALLELOUTERLOOPS
#include "gather/Transforms/Passes.h.inc"
} // namespace mlir::gather

using namespace mlir;

/// How many leading dimensions of `op` stay parallel: until their static
/// trip counts reach `minIterations` (a dynamic one counts as enough).
static unsigned parallelPrefix(scf::ParallelOp op, int64_t minIterations) {
  int64_t product = 1;
  for (unsigned d = 0; d < op.getNumLoops(); ++d) {
    std::optional<int64_t> lb = getConstantIntValue(op.getLowerBound()[d]);
    std::optional<int64_t> ub = getConstantIntValue(op.getUpperBound()[d]);
    std::optional<int64_t> step = getConstantIntValue(op.getStep()[d]);
    if (!lb || !ub || !step || *step <= 0)
      return d + 1;
    product *= std::max<int64_t>((*ub - *lb + *step - 1) / *step, 0);
    if (product >= minIterations)
      return d + 1;
  }
  return op.getNumLoops();
}

namespace {
struct GatherParallelOuterLoopsPass
    : gather::impl::GatherParallelOuterLoopsBase<GatherParallelOuterLoopsPass> {
  using Base::Base;

  void runOnOperation() override {
    SmallVector<scf::ParallelOp> loops;
    getOperation()->walk([&](scf::ParallelOp op) {
      // Reductions keep their form.
      if (op.getNumReductions() == 0)
        loops.push_back(op);
    });
    IRRewriter rewriter(&getContext());
    // The walk lists inner loops first: an outer loop then clones a body
    // whose loops are already serial.
    for (scf::ParallelOp op : loops) {
      // A parallel loop inside another (a gather lowered inside the tiles
      // of a fused loop) runs serially in each outer iteration: nested
      // OpenMP regions only add a fork per iteration.
      bool nested = op->getParentOfType<scf::ParallelOp>() != nullptr;
      unsigned keep = nested ? 0 : parallelPrefix(op, minIterations);
      if (keep >= op.getNumLoops())
        continue;
      Location loc = op.getLoc();
      rewriter.setInsertionPoint(op);
      IRMapping mapping;
      if (keep > 0) {
        auto outer = scf::ParallelOp::create(
            rewriter, loc, op.getLowerBound().take_front(keep),
            op.getUpperBound().take_front(keep), op.getStep().take_front(keep));
        for (unsigned d = 0; d < keep; ++d)
          mapping.map(op.getInductionVars()[d], outer.getInductionVars()[d]);
        rewriter.setInsertionPointToStart(outer.getBody());
      }
      for (unsigned d = keep; d < op.getNumLoops(); ++d) {
        auto inner = scf::ForOp::create(rewriter, loc, op.getLowerBound()[d],
                                        op.getUpperBound()[d], op.getStep()[d]);
        mapping.map(op.getInductionVars()[d], inner.getInductionVar());
        rewriter.setInsertionPointToStart(inner.getBody());
      }
      for (Operation &nested : op.getBody()->without_terminator())
        rewriter.clone(nested, mapping);
      rewriter.eraseOp(op);
    }
  }
};
} // namespace
