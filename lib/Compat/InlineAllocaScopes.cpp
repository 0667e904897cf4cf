//===- InlineAllocaScopes.cpp - drop alloca scopes without allocas --------===//
//
// Part of the gather project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "gather/Compat/Passes.h"

#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/IR/PatternMatch.h"

namespace mlir::gather {
#define GEN_PASS_DEF_GATHERINLINEALLOCASCOPES
#include "gather/Compat/Passes.h.inc"
} // namespace mlir::gather

using namespace mlir;

/// Whether `scope` allocates on the stack itself (allocations of nested
/// allocation scopes are theirs).
static bool allocatesOnStack(memref::AllocaScopeOp scope) {
  return scope
      ->walk<WalkOrder::PreOrder>([&](Operation *op) {
        if (op == scope.getOperation())
          return WalkResult::advance();
        if (isa<memref::AllocaOp>(op))
          return WalkResult::interrupt();
        if (op->hasTrait<OpTrait::AutomaticAllocationScope>())
          return WalkResult::skip();
        return WalkResult::advance();
      })
      .wasInterrupted();
}

namespace {
struct GatherInlineAllocaScopesPass
    : gather::impl::GatherInlineAllocaScopesBase<GatherInlineAllocaScopesPass> {
  void runOnOperation() override {
    SmallVector<memref::AllocaScopeOp> scopes;
    getOperation()->walk([&](memref::AllocaScopeOp scope) {
      if (scope.getBodyRegion().hasOneBlock() && !allocatesOnStack(scope))
        scopes.push_back(scope);
    });
    IRRewriter rewriter(&getContext());
    for (memref::AllocaScopeOp scope : scopes) {
      Block *body = &scope.getBodyRegion().front();
      Operation *terminator = body->getTerminator();
      ValueRange results = terminator->getOperands();
      SmallVector<Value> replacements(results.begin(), results.end());
      rewriter.inlineBlockBefore(body, scope);
      rewriter.replaceOp(scope, replacements);
      rewriter.eraseOp(terminator);
    }
  }
};
} // namespace
