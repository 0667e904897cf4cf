//===- RolledLoops.cpp - loops LLVM should not unroll ---------------------===//
//
// Part of the gather project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "gather/CodeGen/Passes.h"
#include "gather/Dialect/Gather/IR/GatherDialect.h"

#include "mlir/Dialect/LLVMIR/LLVMAttrs.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/SCF/IR/SCF.h"

namespace mlir::gather {
#define GEN_PASS_DEF_GATHERROLLEDLOOPS
#include "gather/CodeGen/Passes.h.inc"
} // namespace mlir::gather

using namespace mlir;

namespace {
struct GatherRolledLoopsPass
    : gather::impl::GatherRolledLoopsBase<GatherRolledLoopsPass> {
  void runOnOperation() override {
    MLIRContext *context = &getContext();
    auto *dialect = context->getLoadedDialect<gather::GatherDialect>();
    // No gather op was ever lowered in this context: nothing is marked.
    if (!dialect)
      return;
    auto rolled = dialect->getRolledLoopAttrHelper();
    auto noUnroll = LLVM::LoopUnrollAttr::get(
        context, /*disable=*/BoolAttr::get(context, true), {}, {}, {}, {}, {},
        {});
    auto annotation =
        LLVM::LoopAnnotationAttr::get(context, {}, {}, {}, noUnroll, {}, {}, {},
                                      {}, {}, {}, {}, {}, {}, {}, {});
    SmallVector<scf::ForOp> marked;
    getOperation()->walk([&](scf::ForOp loop) {
      if (rolled.isAttrPresent(loop))
        marked.push_back(loop);
    });
    for (scf::ForOp loop : marked) {
      rolled.removeAttr(loop);
      // The name of llvm.br's loop metadata: convert-scf-to-cf copies the
      // loop's LLVM attributes to its back edge under the same name.
      loop->setAttr("loop_annotation", annotation);
      // A loop around a rolled one (the serial tile loop of a small gather)
      // would be unrolled with a copy of the rolled loop per iteration: one
      // more copy of a loop of 16 or more block copies buys nothing.
      for (auto outer = loop->getParentOfType<scf::ForOp>(); outer;
           outer = outer->getParentOfType<scf::ForOp>())
        outer->setAttr("loop_annotation", annotation);
    }
  }
};
} // namespace
