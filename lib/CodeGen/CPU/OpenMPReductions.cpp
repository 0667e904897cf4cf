//===- OpenMPReductions.cpp - reductions convert-scf-to-openmp takes ------===//
//
// Part of the gather project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// convert-scf-to-openmp declares an OpenMP reduction for a few combiner
// forms only and fails the whole pipeline ("unconverted operation found")
// on an scf.parallel with any other: an arith.maxsi combiner, a float
// maximum, a reduction of index values. Integer minimum and maximum become
// the compare and select it takes (the same values); a loop with another
// reduction runs serially, its reductions carried by the loops.
//
//===----------------------------------------------------------------------===//

#include "gather/CodeGen/Passes.h"
#include "gather/CodeGen/SerialLoops.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/TypeUtilities.h"

#include "llvm/ADT/TypeSwitch.h"

namespace mlir::gather {
#define GEN_PASS_DEF_GATHEROPENMPREDUCTIONS
#include "gather/CodeGen/Passes.h.inc"
} // namespace mlir::gather

using namespace mlir;

namespace {
struct GatherOpenMPReductions
    : gather::impl::GatherOpenMPReductionsBase<GatherOpenMPReductions> {
  void runOnOperation() override;
};
} // namespace

/// Whether `first` of the combiner takes the block's two arguments in
/// order, as convert-scf-to-openmp asks.
static bool takesArgumentsInOrder(Block &block, Operation &first) {
  return block.getNumArguments() == 2 &&
         first.getOperands() == ValueRange(block.getArguments());
}

/// Whether convert-scf-to-openmp (LLVM 22) declares a reduction for this
/// combiner: one of its binary operations on the arguments in order, or a
/// compare of them with a less-than or greater-than predicate and a select
/// of them, of an integer or float type (or a vector of one) that LLVM's
/// alloca takes.
static bool isOpenMPReduction(Region &combiner, Type type) {
  Type element = getElementTypeOrSelf(type);
  if (!isa<IntegerType, FloatType>(element) || !combiner.hasOneBlock())
    return false;
  Block &block = combiner.front();
  auto ops = block.without_terminator();
  int64_t count = std::distance(ops.begin(), ops.end());
  if (count == 0 || !isa<scf::ReduceReturnOp>(block.getTerminator()))
    return false;
  Operation &first = *ops.begin();
  if (!takesArgumentsInOrder(block, first) || first.getNumResults() != 1)
    return false;
  Value returned = block.getTerminator()->getOperand(0);
  if (count == 1)
    return isa<arith::AddFOp, arith::AddIOp, arith::OrIOp, arith::XOrIOp,
               arith::AndIOp, arith::MulFOp, arith::MulIOp>(first) &&
           returned == first.getResult(0);
  if (count != 2)
    return false;
  auto select = dyn_cast<arith::SelectOp>(*std::next(ops.begin()));
  if (!select || select.getCondition() != first.getResult(0) ||
      returned != select.getResult())
    return false;
  Value a = block.getArgument(0), b = block.getArgument(1);
  bool selectsArguments =
      (select.getTrueValue() == a && select.getFalseValue() == b) ||
      (select.getTrueValue() == b && select.getFalseValue() == a);
  if (!selectsArguments)
    return false;
  if (auto cmp = dyn_cast<arith::CmpFOp>(first)) {
    using P = arith::CmpFPredicate;
    return llvm::is_contained({P::OLT, P::OLE, P::OGT, P::OGE},
                              cmp.getPredicate());
  }
  if (auto cmp = dyn_cast<arith::CmpIOp>(first)) {
    using P = arith::CmpIPredicate;
    return llvm::is_contained(
        {P::slt, P::sle, P::sgt, P::sge, P::ult, P::ule, P::ugt, P::uge},
        cmp.getPredicate());
  }
  return false;
}

/// An integer minimum or maximum of the arguments (either order) as the
/// compare and select convert-scf-to-openmp takes: the same value.
static void rewriteIntegerMinMax(RewriterBase &rewriter, Region &combiner) {
  if (!combiner.hasOneBlock())
    return;
  Block &block = combiner.front();
  auto ops = block.without_terminator();
  if (block.getNumArguments() != 2 ||
      std::distance(ops.begin(), ops.end()) != 1)
    return;
  Operation &op = *ops.begin();
  std::optional<arith::CmpIPredicate> predicate =
      TypeSwitch<Operation *, std::optional<arith::CmpIPredicate>>(&op)
          .Case([](arith::MaxSIOp) { return arith::CmpIPredicate::sgt; })
          .Case([](arith::MinSIOp) { return arith::CmpIPredicate::slt; })
          .Case([](arith::MaxUIOp) { return arith::CmpIPredicate::ugt; })
          .Case([](arith::MinUIOp) { return arith::CmpIPredicate::ult; })
          .Default([](Operation *) { return std::nullopt; });
  Value a = block.getArgument(0), b = block.getArgument(1);
  bool onArguments = op.getOperands() == ValueRange{a, b} ||
                     op.getOperands() == ValueRange{b, a};
  if (!predicate || !onArguments ||
      block.getTerminator()->getOperand(0) != op.getResult(0))
    return;
  rewriter.setInsertionPoint(&op);
  Value compare =
      arith::CmpIOp::create(rewriter, op.getLoc(), *predicate, a, b);
  rewriter.replaceOpWithNewOp<arith::SelectOp>(&op, compare, a, b);
}

void GatherOpenMPReductions::runOnOperation() {
  // Inner loops first, as the pipeline's other loop passes.
  SmallVector<scf::ParallelOp> loops;
  getOperation()->walk([&](scf::ParallelOp op) {
    if (op.getNumReductions())
      loops.push_back(op);
  });
  IRRewriter rewriter(&getContext());
  for (scf::ParallelOp op : loops) {
    auto reduce = cast<scf::ReduceOp>(op.getBody()->getTerminator());
    bool all = true;
    for (auto [combiner, value] :
         llvm::zip_equal(reduce.getReductions(), reduce.getOperands())) {
      rewriteIntegerMinMax(rewriter, combiner);
      all &= isOpenMPReduction(combiner, value.getType());
    }
    if (!all)
      (void)gather::serializeParallelDims(rewriter, op, /*keep=*/0);
  }
}
