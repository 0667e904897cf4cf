//===- SerialLeavingLoops.cpp - loops that may leave the call, serial -----===//
//
// Part of the gather project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// A failed assert leaves the call with a longjmp, which an OpenMP worker
// cannot do: the loops whose bodies may do it run on the calling thread.
//
//===----------------------------------------------------------------------===//

#include "gather/CodeGen/Passes.h"
#include "gather/CodeGen/SerialLoops.h"
#include "gather/Dialect/Gather/IR/GatherDialect.h"

#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/SymbolTable.h"
#include "mlir/Interfaces/CallInterfaces.h"
#include "mlir/Interfaces/FunctionInterfaces.h"

namespace mlir::gather {
#define GEN_PASS_DEF_GATHERSERIALLEAVINGLOOPS
#include "gather/CodeGen/Passes.h.inc"
} // namespace mlir::gather

using namespace mlir;

namespace {
struct GatherSerialLeavingLoops
    : gather::impl::GatherSerialLeavingLoopsBase<GatherSerialLeavingLoops> {
  void runOnOperation() override;
};
} // namespace

/// The function a call of the module calls, or null (an indirect call, a
/// function outside the module).
static Operation *calleeOf(CallOpInterface call,
                           SymbolTableCollection &tables) {
  return dyn_cast_if_present<FunctionOpInterface>(
      call.resolveCallableInTable(&tables));
}

/// The module's functions that may leave their call: those marked, and
/// those that call one, found backwards from the marked ones.
static DenseSet<Operation *>
findLeavingFunctions(ModuleOp module, SymbolTableCollection &tables) {
  DenseSet<Operation *> leaving;
  // Without the dialect no function can carry the mark.
  auto *dialect =
      module.getContext()->getLoadedDialect<gather::GatherDialect>();
  if (!dialect)
    return leaving;
  auto marked = dialect->getLeavesCallAttrHelper();
  SmallVector<Operation *> worklist;
  for (auto function : module.getOps<FunctionOpInterface>())
    if (marked.isAttrPresent(function) && leaving.insert(function).second)
      worklist.push_back(function);
  // Most modules have none (no assert, or all of them skip): no walk.
  if (worklist.empty())
    return leaving;
  DenseMap<Operation *, SmallVector<Operation *>> callers;
  for (auto function : module.getOps<FunctionOpInterface>()) {
    function->walk([&](CallOpInterface call) {
      if (Operation *callee = calleeOf(call, tables))
        callers[callee].push_back(function);
    });
  }
  while (!worklist.empty()) {
    Operation *callee = worklist.pop_back_val();
    for (Operation *caller : callers.lookup(callee))
      if (leaving.insert(caller).second)
        worklist.push_back(caller);
  }
  return leaving;
}

void GatherSerialLeavingLoops::runOnOperation() {
  ModuleOp module = getOperation();
  SymbolTableCollection tables;
  DenseSet<Operation *> leaving = findLeavingFunctions(module, tables);
  if (leaving.empty())
    return;
  // Inner loops first: an outer loop then holds its serial inner ones.
  SmallVector<scf::ParallelOp> loops;
  module.walk([&](scf::ParallelOp op) { loops.push_back(op); });
  IRRewriter rewriter(&getContext());
  for (scf::ParallelOp op : loops) {
    bool leaves = op.getBody()
                      ->walk([&](CallOpInterface call) {
                        return leaving.contains(calleeOf(call, tables))
                                   ? WalkResult::interrupt()
                                   : WalkResult::advance();
                      })
                      .wasInterrupted();
    if (leaves)
      (void)gather::serializeParallelDims(rewriter, op, /*keep=*/0);
  }
}
