//===- DropArgumentResults.cpp - private results that are arguments -------===//
//
// Part of the gather project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// A function that computes into a buffer argument returns that buffer after
// bufferization (the gathers that gather-outline-duplicates moves into
// functions). The caller cannot tell that the returned buffer is its own
// argument, and the buffer deallocation then checks at run time which
// buffers alias (a call of dealloc_helper per function). Upstream's
// drop-equivalent-buffer-results does this for public functions too, which
// would change the signature a caller outside the module calls: this pass
// takes only private functions, all of whose uses are calls in the module.
//
//===----------------------------------------------------------------------===//

#include "gather/CodeGen/Passes.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/SymbolTable.h"
#include "llvm/ADT/BitVector.h"
#include "llvm/ADT/DenseSet.h"

namespace mlir::gather {
#define GEN_PASS_DEF_GATHERDROPARGUMENTRESULTS
#include "gather/CodeGen/Passes.h.inc"
} // namespace mlir::gather

using namespace mlir;

namespace {
/// The calls of each function of a module, and the functions whose symbol
/// has another use: one walk of the module for all functions.
struct CallSites {
  llvm::DenseMap<StringAttr, SmallVector<func::CallOp>> calls;
  llvm::DenseSet<StringAttr> otherUses;
  /// False where an operation of unknown semantics may hold symbols.
  bool known = false;

  explicit CallSites(ModuleOp module) {
    std::optional<SymbolTable::UseRange> uses =
        SymbolTable::getSymbolUses(&module.getBodyRegion());
    if (!uses)
      return;
    known = true;
    for (const SymbolTable::SymbolUse &use : *uses) {
      StringAttr root = use.getSymbolRef().getRootReference();
      auto call = dyn_cast<func::CallOp>(use.getUser());
      if (call && call.getCalleeAttr() == use.getSymbolRef())
        calls[root].push_back(call);
      else
        otherUses.insert(root);
    }
  }
};
} // namespace

/// Drops the results of `function` that return one of its memref arguments
/// (possibly through a memref.cast), and gives the callers their operand.
static void dropArgumentResults(func::FuncOp function, CallSites &sites) {
  if (function.isPublic() || function.isExternal() ||
      !function.getBody().hasOneBlock())
    return;
  auto ret =
      dyn_cast<func::ReturnOp>(function.getBody().front().getTerminator());
  if (!ret)
    return;
  // Result index -> argument index.
  DenseMap<unsigned, unsigned> argumentOf;
  for (auto [i, value] : llvm::enumerate(ret.getOperands())) {
    Value source = value;
    while (auto cast = source.getDefiningOp<memref::CastOp>())
      source = cast.getSource();
    auto argument = dyn_cast<BlockArgument>(source);
    if (isa<BaseMemRefType>(value.getType()) && argument &&
        argument.getOwner() == &function.getBody().front())
      argumentOf[i] = argument.getArgNumber();
  }
  if (argumentOf.empty())
    return;
  if (!sites.known || sites.otherUses.contains(function.getSymNameAttr()))
    return;
  SmallVector<func::CallOp> &calls = sites.calls[function.getSymNameAttr()];

  llvm::BitVector erased(function.getNumResults());
  SmallVector<Value> kept;
  for (auto [i, value] : llvm::enumerate(ret.getOperands())) {
    if (argumentOf.count(i))
      erased.set(i);
    else
      kept.push_back(value);
  }
  if (failed(function.eraseResults(erased)))
    return;
  ret.getOperandsMutable().assign(kept);

  for (func::CallOp &call : calls) {
    OpBuilder b(call);
    auto replacement =
        func::CallOp::create(b, call.getLoc(), function, call.getOperands());
    replacement->setDiscardableAttrs(call->getDiscardableAttrDictionary());
    unsigned next = 0;
    for (auto [i, result] : llvm::enumerate(call.getResults())) {
      Value value = argumentOf.count(i) ? call.getOperand(argumentOf[i])
                                        : replacement.getResult(next++);
      if (value.getType() != result.getType())
        value =
            memref::CastOp::create(b, call.getLoc(), result.getType(), value);
      result.replaceAllUsesWith(value);
    }
    call->erase();
    call = replacement;
  }
}

namespace {
struct GatherDropArgumentResultsPass
    : gather::impl::GatherDropArgumentResultsBase<
          GatherDropArgumentResultsPass> {
  void runOnOperation() override {
    ModuleOp module = getOperation();
    CallSites sites(module);
    for (auto function : module.getOps<func::FuncOp>())
      dropArgumentResults(function, sites);
  }
};
} // namespace
