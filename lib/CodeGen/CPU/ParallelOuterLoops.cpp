//===- ParallelOuterLoops.cpp - keep only outer loops parallel ------------===//
//
// Part of the gather project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// convert-scf-to-openmp collapses every dimension of an scf.parallel into
// one OpenMP loop, which then recovers each index with a division and a
// remainder per iteration. A gather's inner dimensions are better as plain
// loops: only a prefix with enough iterations to balance the threads stays
// parallel.
//
//===----------------------------------------------------------------------===//

#include "gather/CodeGen/Passes.h"
#include "gather/Utils/TripCount.h"

#include "mlir/Dialect/Arith/Utils/Utils.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/Interfaces/CallInterfaces.h"
#include "mlir/Interfaces/LoopLikeInterface.h"
#include "llvm/Support/MathExtras.h"

#include <limits>

namespace mlir::gather {
#define GEN_PASS_DEF_GATHERPARALLELOUTERLOOPS
#include "gather/CodeGen/Passes.h.inc"
} // namespace mlir::gather

using namespace mlir;

static std::optional<int64_t> staticTripCount(scf::ParallelOp op, unsigned d) {
  return gather::getStaticTripCount(op.getLowerBound()[d],
                                    op.getUpperBound()[d], op.getStep()[d]);
}

static int64_t saturatingMul(int64_t a, int64_t b) {
  int64_t product;
  return llvm::MulOverflow(a, b, product) ? std::numeric_limits<int64_t>::max()
                                          : product;
}

/// How many leading dimensions of `op` stay parallel: until their static
/// trip counts reach `minIterations` (a dynamic one counts as enough).
static unsigned parallelPrefix(scf::ParallelOp op, int64_t minIterations) {
  int64_t product = 1;
  for (unsigned d = 0; d < op.getNumLoops(); ++d) {
    std::optional<int64_t> trips = staticTripCount(op, d);
    if (!trips)
      return d + 1;
    product = saturatingMul(product, *trips);
    if (product >= minIterations)
      return d + 1;
  }
  return op.getNumLoops();
}

/// All iterations of `op`, or nullopt when a trip count is dynamic.
static std::optional<int64_t> staticIterations(scf::ParallelOp op) {
  int64_t iterations = 1;
  for (unsigned d = 0; d < op.getNumLoops(); ++d) {
    std::optional<int64_t> trips = staticTripCount(op, d);
    if (!trips)
      return std::nullopt;
    iterations = saturatingMul(iterations, *trips);
  }
  return iterations;
}

/// Elements the body of `op` stores in all its iterations, or nullopt when
/// that is not known statically. Stores count one, copies and vector writes
/// their static element count, each multiplied by the static trip counts
/// of the loops around it. Saturates at INT64_MAX.
static std::optional<int64_t> staticWork(scf::ParallelOp op) {
  std::optional<int64_t> iterations = staticIterations(op);
  if (!iterations)
    return std::nullopt;
  bool known = true;
  int64_t perIteration = 0;
  op.getBody()->walk([&](Operation *nested) {
    int64_t elements = 0;
    if (isa<memref::StoreOp>(nested)) {
      elements = 1;
    } else if (auto copy = dyn_cast<memref::CopyOp>(nested)) {
      auto type = cast<MemRefType>(copy.getTarget().getType());
      if (!type.hasStaticShape()) {
        known = false;
        return WalkResult::interrupt();
      }
      elements = type.getNumElements();
    } else if (auto write = dyn_cast<vector::TransferWriteOp>(nested)) {
      elements = write.getVectorType().getNumElements();
    } else if (auto store = dyn_cast<vector::StoreOp>(nested)) {
      elements = store.getVectorType().getNumElements();
    } else if (isa<vector::MaskedStoreOp, vector::ScatterOp>(nested)) {
      elements = cast<VectorType>(
                     nested->getOperand(nested->getNumOperands() - 1).getType())
                     .getNumElements();
    } else if (isa<CallOpInterface>(nested) &&
               !nested->getParentOfType<scf::IfOp>()) {
      // An outlined body: its work is unknown here. (A call under an
      // scf.if is the error path.)
      known = false;
      return WalkResult::interrupt();
    } else {
      return WalkResult::advance();
    }
    for (Operation *parent = nested->getParentOp(); parent != op;
         parent = parent->getParentOp()) {
      std::optional<int64_t> trips;
      if (auto loop = dyn_cast<scf::ForOp>(parent))
        trips = gather::getStaticTripCount(
            loop.getLowerBound(), loop.getUpperBound(), loop.getStep());
      else if (auto inner = dyn_cast<scf::ParallelOp>(parent))
        trips = staticIterations(inner);
      else if (!isa<LoopLikeOpInterface>(parent))
        continue;
      if (!trips) {
        known = false;
        return WalkResult::interrupt();
      }
      elements = saturatingMul(elements, *trips);
    }
    int64_t sum;
    perIteration = llvm::AddOverflow(perIteration, elements, sum)
                       ? std::numeric_limits<int64_t>::max()
                       : sum;
    return WalkResult::advance();
  });
  if (!known)
    return std::nullopt;
  return saturatingMul(*iterations, perIteration);
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
      std::optional<int64_t> work = staticWork(op);
      bool small = work && *work < minParallelWork;
      unsigned keep = nested || small ? 0 : parallelPrefix(op, minIterations);
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
