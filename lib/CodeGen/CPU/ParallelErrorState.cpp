//===- ParallelErrorState.cpp - parallel regions report to their caller ---===//
//
// Part of the gather project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// The runtime records errors per calling thread; an OpenMP worker has no
// caller of its own, so each region that can report hands its threads the
// state of the thread that starts it.
//
//===----------------------------------------------------------------------===//

#include "gather/CodeGen/Passes.h"
#include "gather/Dialect/Gather/IR/RuntimeFunctions.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/OpenMP/OpenMPDialect.h"
#include "mlir/IR/SymbolTable.h"
#include "mlir/Interfaces/CallInterfaces.h"

namespace mlir::gather {
#define GEN_PASS_DEF_GATHERPARALLELERRORSTATE
#include "gather/CodeGen/Passes.h.inc"
} // namespace mlir::gather

using namespace mlir;

namespace {
struct GatherParallelErrorState
    : gather::impl::GatherParallelErrorStateBase<GatherParallelErrorState> {
  void runOnOperation() override;
};
} // namespace

void GatherParallelErrorState::runOnOperation() {
  // Only a call can report (the hook, a report function, a function of the
  // program): a region without one is left as it is.
  SmallVector<omp::ParallelOp> regions;
  getOperation().walk([&](omp::ParallelOp op) {
    if (op.getRegion()
            .walk([](CallOpInterface) { return WalkResult::interrupt(); })
            .wasInterrupted())
      regions.push_back(op);
  });
  if (regions.empty())
    return;
  ModuleOp module = getOperation();
  SymbolTable symbols(module);
  func::FuncOp stateOf = gather::lookupOrDeclareRuntimeFunction(
      module, symbols, gather::RuntimeFunction::ErrorStateOf);
  func::FuncOp adopt = gather::lookupOrDeclareRuntimeFunction(
      module, symbols, gather::RuntimeFunction::AdoptErrorState);
  if (!stateOf || !adopt)
    return signalPassFailure();
  for (omp::ParallelOp op : regions) {
    OpBuilder b(op);
    Value state = func::CallOp::create(b, op.getLoc(), stateOf, ValueRange())
                      .getResult(0);
    b.setInsertionPointToStart(&op.getRegion().front());
    Value previous =
        func::CallOp::create(b, op.getLoc(), adopt, state).getResult(0);
    // Restored where each thread leaves the region: a worker keeps no
    // pointer to a caller's state past the call.
    for (Block &block : op.getRegion())
      if (auto end = dyn_cast_if_present<omp::TerminatorOp>(
              block.empty() ? nullptr : &block.back())) {
        b.setInsertionPoint(end);
        func::CallOp::create(b, end.getLoc(), adopt, previous);
      }
  }
}
