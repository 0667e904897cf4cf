//===- SplitFunctions.cpp - long function bodies into a chain of calls ----===//
//
// Part of the gather project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// Upstream passes that are superlinear in the size of one function (buffer
// deallocation, scf-to-cf block splitting, bufferization analysis, LLVM)
// make a model with thousands of gathers in one function compile for
// minutes. Cutting the body into pieces of bounded size, each its own
// function, makes the pipeline linear in the number of pieces.
//
//===----------------------------------------------------------------------===//

#include "gather/CodeGen/Passes.h"
#include "gather/Utils/OutOfLine.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/IR/Matchers.h"
#include "mlir/IR/SymbolTable.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "llvm/ADT/SetVector.h"
#include "llvm/ADT/SmallPtrSet.h"

namespace mlir::gather {
#define GEN_PASS_DEF_GATHERSPLITFUNCTIONS
#include "gather/CodeGen/Passes.h.inc"
} // namespace mlir::gather

using namespace mlir;

/// Operations in `op` and its regions.
static int64_t countOps(Operation *op) {
  int64_t count = 0;
  op->walk([&](Operation *) { ++count; });
  return count;
}

/// Tensor results of `op`: each becomes a buffer, and a function's buffers
/// are compared pairwise by the deallocation.
static int64_t countTensorResults(Operation *op) {
  return llvm::count_if(op->getResultTypes(),
                        [](Type type) { return isa<TensorType>(type); });
}

/// A constant without regions: cloned into each piece that uses it rather
/// than passed in.
static bool isCloneableConstant(Operation *op) {
  return op && op->getNumRegions() == 0 &&
         op->hasTrait<OpTrait::ConstantLike>();
}

/// Whether `op` allocates on the stack of its function: such memory must not
/// outlive the piece that makes it.
static bool allocatesOnStack(Operation *op) {
  auto effects = dyn_cast<MemoryEffectOpInterface>(op);
  if (!effects)
    return false;
  SmallVector<MemoryEffects::EffectInstance> instances;
  effects.getEffects(instances);
  return llvm::any_of(instances, [](const MemoryEffects::EffectInstance &e) {
    return isa<MemoryEffects::Allocate>(e.getEffect()) &&
           e.getResource() ==
               SideEffects::AutomaticAllocationScopeResource::get();
  });
}

namespace {
struct Piece {
  SmallVector<Operation *> ops;
  llvm::SmallPtrSet<Operation *, 16> members;
};
} // namespace

/// The top-level operation of `body` that contains `op` (or `op` itself).
static Operation *topLevelAncestor(Block &body, Operation *op) {
  return body.findAncestorOpInBlock(*op);
}

/// Outlines `piece` of function `func` into a new private function inserted
/// after `insertAfter`, calls it where the piece was, and returns it.
static func::FuncOp outlinePiece(func::FuncOp func, const Piece &piece,
                                 int index, Operation *insertAfter,
                                 SymbolTable &symbolTable) {
  Block &body = func.getBody().front();
  auto isInside = [&](Operation *op) {
    Operation *top = topLevelAncestor(body, op);
    return top && piece.members.contains(top);
  };
  // Values the piece reads from outside: function arguments, results of
  // earlier pieces or of top-level ops kept in place (constants are cloned).
  llvm::SetVector<Value> inputs;
  llvm::SetVector<Operation *> constants;
  for (Operation *op : piece.ops) {
    op->walk([&](Operation *nested) {
      for (Value operand : nested->getOperands()) {
        Operation *def = operand.getDefiningOp();
        if (def && isInside(def))
          continue;
        if (!def) {
          // A block argument: of the function (outside) or of a region
          // inside the piece.
          Operation *owner = operand.getParentBlock()->getParentOp();
          if (owner != func.getOperation() && isInside(owner))
            continue;
        }
        if (isCloneableConstant(def) && def->getBlock() == &body)
          constants.insert(def);
        else
          inputs.insert(operand);
      }
    });
  }
  // Values later code reads from the piece.
  llvm::SetVector<Value> outputs;
  for (Operation *op : piece.ops)
    for (Value result : op->getResults())
      for (Operation *user : result.getUsers())
        if (!isInside(user)) {
          outputs.insert(result);
          break;
        }

  MLIRContext *context = func.getContext();
  OpBuilder builder(context);
  builder.setInsertionPointAfter(insertAfter);
  SmallVector<Type> inputTypes, outputTypes;
  for (Value v : inputs)
    inputTypes.push_back(v.getType());
  for (Value v : outputs)
    outputTypes.push_back(v.getType());
  std::string name = (func.getName() + "_part" + Twine(index)).str();
  auto callee =
      func::FuncOp::create(builder, func.getLoc(), name,
                           builder.getFunctionType(inputTypes, outputTypes));
  callee.setPrivate();
  // Kept separate through LLVM, whose optimizations are superlinear too.
  gather::keepOutOfLine(callee);
  symbolTable.insert(callee);
  Block *entry = callee.addEntryBlock();

  // The call, where the piece starts.
  builder.setInsertionPoint(piece.ops.front());
  auto call = func::CallOp::create(builder, func.getLoc(), callee,
                                   inputs.getArrayRef());

  // Move the piece, then rewire: inputs to arguments, constants to clones,
  // outputs to the call's results.
  builder.setInsertionPointToStart(entry);
  IRMapping constantClones;
  for (Operation *constant : constants)
    builder.clone(*constant, constantClones);
  for (Operation *op : piece.ops)
    op->moveBefore(entry, entry->end());
  // Rewired through the piece's own operands: replacing through the uses
  // of a value that every piece reads (a constant, an argument) would visit
  // all of them once per piece, quadratic in the function's size.
  llvm::DenseMap<Value, Value> replacements;
  for (auto [index, input] : llvm::enumerate(inputs))
    replacements[input] = entry->getArgument(index);
  for (Operation *constant : constants)
    for (auto [from, to] :
         llvm::zip(constant->getResults(),
                   constantClones.lookup(constant)->getResults()))
      replacements[from] = to;
  for (Operation *op : piece.ops)
    op->walk([&](Operation *nested) {
      for (OpOperand &operand : nested->getOpOperands())
        if (Value to = replacements.lookup(operand.get()))
          operand.set(to);
    });
  builder.setInsertionPointToEnd(entry);
  func::ReturnOp::create(builder, func.getLoc(), outputs.getArrayRef());
  for (auto [index, output] : llvm::enumerate(outputs)) {
    Value from = output;
    from.replaceUsesWithIf(call.getResult(index), [&](OpOperand &use) {
      return !callee->isProperAncestor(use.getOwner());
    });
  }
  return callee;
}

namespace {
struct GatherSplitFunctionsPass
    : gather::impl::GatherSplitFunctionsBase<GatherSplitFunctionsPass> {
  using Base::Base;

  void runOnOperation() override {
    ModuleOp module = getOperation();
    if (maxOps < 1 || maxTensors < 1) {
      module.emitError("gather-split-functions: max-ops and max-tensors "
                       "must be positive, got ")
          << static_cast<int64_t>(maxOps) << " and "
          << static_cast<int64_t>(maxTensors);
      return signalPassFailure();
    }
    SymbolTable symbolTable(module);
    SmallVector<func::FuncOp> funcs(module.getOps<func::FuncOp>());
    // A body cut into many pieces is a long list of calls whose results
    // are tensors too: cut it again until it is within the bounds.
    for (func::FuncOp func : funcs)
      while (splitOnce(func, symbolTable)) {
      }
  }

  /// Cuts the body of `func` into pieces within the bounds, if it is not
  /// within them and a piece holds two ops or more. Returns whether it did.
  bool splitOnce(func::FuncOp func, SymbolTable &symbolTable) {
    if (func.isExternal() || !func.getBody().hasOneBlock())
      return false;
    Block &body = func.getBody().front();
    // Where each top-level op's stack allocations are last used: no cut
    // may fall before that.
    llvm::DenseMap<Operation *, int64_t> position;
    for (auto [index, op] : llvm::enumerate(body.without_terminator()))
      position[&op] = index;
    // Pieces of consecutive top-level ops; constants stay in place.
    SmallVector<Piece> pieces(1);
    int64_t size = 0, total = 0, openUntil = -1;
    int64_t tensors = 0, totalTensors = 0, members = 0;
    for (Operation &op : body.without_terminator()) {
      if (isCloneableConstant(&op))
        continue;
      int64_t count = countOps(&op);
      int64_t made = countTensorResults(&op);
      total += count;
      totalTensors += made;
      int64_t here = position[&op];
      if (!pieces.back().ops.empty() &&
          (size + count > maxOps || tensors + made > maxTensors) &&
          here > openUntil) {
        pieces.emplace_back();
        size = 0;
        tensors = 0;
      }
      if (allocatesOnStack(&op))
        for (Operation *user : op.getUsers())
          if (Operation *top = topLevelAncestor(body, user))
            if (top != body.getTerminator())
              openUntil = std::max(openUntil, position[top]);
      pieces.back().ops.push_back(&op);
      pieces.back().members.insert(&op);
      size += count;
      tensors += made;
      ++members;
    }
    // Pieces of one op each would only wrap every op in a call, again and
    // again.
    if ((total <= maxOps && totalTensors <= maxTensors) || pieces.size() < 2 ||
        static_cast<int64_t>(pieces.size()) == members)
      return false;
    Operation *last = func;
    for (auto [index, piece] : llvm::enumerate(pieces))
      last = outlinePiece(func, piece, index, last, symbolTable);
    // Constants every piece cloned.
    for (Operation &op : llvm::make_early_inc_range(body))
      if (isCloneableConstant(&op) && op.use_empty())
        op.erase();
    return true;
  }
};
} // namespace
