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
#include "gather/CodeGen/SerialLoops.h"
#include "gather/Target/CpuTarget.h"
#include "gather/Utils/ElementBytes.h"
#include "gather/Utils/TripCount.h"

#include "mlir/Dialect/Arith/Utils/Utils.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
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

/// Bytes of memory an element of `type` is stored in, for the work
/// estimate; 0 when not known.
static int64_t elementStoredBytes(Type type) {
  if (int64_t bytes = gather::packedElementBytes(type))
    return bytes;
  if (type.isIndex())
    return 8;
  if (type.isIntOrFloat())
    return llvm::divideCeil(type.getIntOrFloatBitWidth(), 8);
  return 0;
}

static int64_t saturatingAdd(int64_t a, int64_t b) {
  int64_t sum;
  return llvm::AddOverflow(a, b, sum) ? std::numeric_limits<int64_t>::max()
                                      : sum;
}

static std::optional<int64_t> blockStoredBytes(Block &block, bool inBranch);

/// Bytes `op` stores, or nullopt when that is not known statically: stores
/// their element, copies and vector writes their static elements, loops
/// their body times their static trip count, an scf.if the larger of its
/// branches (one of them runs: the two versions of a loop, or an error
/// path). A call is an outlined body of unknown work, except in a branch
/// (the error path's report).
static std::optional<int64_t> storedBytes(Operation &op, bool inBranch) {
  auto bytesOf = [](int64_t elements,
                    Type elementType) -> std::optional<int64_t> {
    int64_t bytes = elementStoredBytes(elementType);
    if (!bytes)
      return std::nullopt;
    return saturatingMul(elements, bytes);
  };
  if (auto store = dyn_cast<memref::StoreOp>(op))
    return bytesOf(1, store.getValueToStore().getType());
  if (auto copy = dyn_cast<memref::CopyOp>(op)) {
    auto type = cast<MemRefType>(copy.getTarget().getType());
    if (!type.hasStaticShape())
      return std::nullopt;
    return bytesOf(type.getNumElements(), type.getElementType());
  }
  VectorType written;
  if (auto write = dyn_cast<vector::TransferWriteOp>(op))
    written = write.getVectorType();
  else if (auto store = dyn_cast<vector::StoreOp>(op))
    written = store.getVectorType();
  else if (auto masked = dyn_cast<vector::MaskedStoreOp>(op))
    written = masked.getVectorType();
  else if (auto scatter = dyn_cast<vector::ScatterOp>(op))
    written = scatter.getVectorType();
  if (written)
    return bytesOf(written.getNumElements(), written.getElementType());
  if (isa<CallOpInterface>(op))
    return inBranch ? std::optional<int64_t>(0) : std::nullopt;
  if (auto branch = dyn_cast<scf::IfOp>(op)) {
    std::optional<int64_t> then =
        blockStoredBytes(*branch.thenBlock(), /*inBranch=*/true);
    std::optional<int64_t> otherwise =
        branch.elseBlock()
            ? blockStoredBytes(*branch.elseBlock(), /*inBranch=*/true)
            : std::optional<int64_t>(0);
    if (!then || !otherwise)
      return std::nullopt;
    return std::max(*then, *otherwise);
  }
  std::optional<int64_t> trips;
  if (auto loop = dyn_cast<scf::ForOp>(op))
    trips = gather::getStaticTripCount(loop.getLowerBound(),
                                       loop.getUpperBound(), loop.getStep());
  else if (auto loop = dyn_cast<scf::ParallelOp>(op))
    trips = staticIterations(loop);
  else if (!isa<LoopLikeOpInterface>(op))
    trips = 1;
  int64_t sum = 0;
  for (Region &region : op.getRegions())
    for (Block &block : region) {
      std::optional<int64_t> bytes = blockStoredBytes(block, inBranch);
      if (!bytes)
        return std::nullopt;
      sum = saturatingAdd(sum, *bytes);
    }
  if (sum == 0)
    return 0;
  if (!trips)
    return std::nullopt; // another loop, of unknown trip count
  return saturatingMul(sum, *trips);
}

static std::optional<int64_t> blockStoredBytes(Block &block, bool inBranch) {
  int64_t sum = 0;
  for (Operation &op : block) {
    std::optional<int64_t> bytes = storedBytes(op, inBranch);
    if (!bytes)
      return std::nullopt;
    sum = saturatingAdd(sum, *bytes);
  }
  return sum;
}

/// Bytes `op` stores in all its iterations, or nullopt when that is not
/// known statically. Saturates at INT64_MAX.
static std::optional<int64_t> staticStoredBytes(scf::ParallelOp op) {
  std::optional<int64_t> iterations = staticIterations(op);
  if (!iterations)
    return std::nullopt;
  std::optional<int64_t> body =
      blockStoredBytes(*op.getBody(), /*inBranch=*/false);
  if (!body)
    return std::nullopt;
  return saturatingMul(*iterations, *body);
}

namespace {
struct GatherParallelOuterLoopsPass
    : gather::impl::GatherParallelOuterLoopsBase<GatherParallelOuterLoopsPass> {
  using Base::Base;

  void runOnOperation() override {
    int64_t iterationsWanted = minIterations;
    int64_t bytesWanted = minParallelBytes;
    if (iterationsWanted <= 0 || bytesWanted < 0) {
      FailureOr<gather::CpuTarget> target = gather::resolveCpuTarget(
          getOperation(), targetCpu, /*vectorBits=*/0, onHost);
      if (failed(target))
        return signalPassFailure();
      if (iterationsWanted <= 0)
        iterationsWanted = target->parallelIterations();
      if (bytesWanted < 0)
        bytesWanted = target->parallelMinBytes();
    }
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
      std::optional<int64_t> bytes = staticStoredBytes(op);
      bool small = bytes && *bytes < bytesWanted;
      unsigned keep =
          nested || small ? 0 : parallelPrefix(op, iterationsWanted);
      (void)gather::serializeParallelDims(rewriter, op, keep);
    }
  }
};
} // namespace
