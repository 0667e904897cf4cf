//===- HoistStaticAllocas.cpp - stack buffers out of loops ----------------===//
//
// Part of the gather project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "gather/CodeGen/Passes.h"

#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Interfaces/LoopLikeInterface.h"

namespace mlir::gather {
#define GEN_PASS_DEF_GATHERHOISTSTATICALLOCAS
#include "gather/CodeGen/Passes.h.inc"
} // namespace mlir::gather

using namespace mlir;

/// The region whose frame `alloca` is moved to: that of the nearest
/// enclosing allocation scope other than a memref.alloca_scope (those in
/// between are inlined later, or free nothing the move keeps) and other
/// than a loop: scf.for is an allocation scope, but convert-scf-to-cf frees
/// nothing at the end of an iteration, so an alloca in its body grows the
/// stack every iteration.
static Region *frameRegion(memref::AllocaOp alloca) {
  for (Operation *op = alloca->getParentOp(); op; op = op->getParentOp())
    if (op->hasTrait<OpTrait::AutomaticAllocationScope>() &&
        !isa<memref::AllocaScopeOp, LoopLikeOpInterface>(op) &&
        op->getNumRegions() == 1)
      return &op->getRegion(0);
  return nullptr;
}

namespace {
struct GatherHoistStaticAllocasPass
    : gather::impl::GatherHoistStaticAllocasBase<GatherHoistStaticAllocasPass> {
  void runOnOperation() override {
    SmallVector<memref::AllocaOp> allocas;
    getOperation()->walk([&](memref::AllocaOp alloca) {
      if (alloca.getType().hasStaticShape() &&
          alloca.getDynamicSizes().empty() &&
          alloca.getSymbolOperands().empty())
        allocas.push_back(alloca);
    });
    for (memref::AllocaOp alloca : allocas) {
      Region *frame = frameRegion(alloca);
      if (!frame || frame->empty() || alloca->getParentRegion() == frame)
        continue;
      alloca->moveBefore(&frame->front(), frame->front().begin());
    }
  }
};
} // namespace
