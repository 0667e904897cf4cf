//===- GpuStreams.cpp - one stream per call, one synchronization ----------===//
//
// Part of the gather project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// gpu-to-llvm lowers async GPU ops onto the stream of their first
// dependency, so ops that all depend on one token run on one stream in the
// order the host submits them: program order. The host then only has to
// wait where it reads what the device wrote (a copy into host memory),
// which after bufferization and gather-map-to-gpu is the only way host
// code sees device results.
//
//===----------------------------------------------------------------------===//

#include "gather/Conversion/GatherToGPU.h"
#include "gather/Dialect/Gather/IR/GatherOps.h"
#include "gather/Utils/UsedValues.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/Interfaces/ViewLikeInterface.h"

namespace mlir::gather {
#define GEN_PASS_DEF_GATHERGPUSTREAMS
#include "gather/Conversion/Passes.h.inc"
} // namespace mlir::gather

using namespace mlir;
using namespace mlir::gather;

namespace {

/// The buffer a view is taken of.
Value rootBuffer(Value memref) {
  while (Operation *def = memref.getDefiningOp()) {
    auto view = dyn_cast<ViewLikeOpInterface>(def);
    if (!view)
      break;
    memref = view.getViewSource();
  }
  return memref;
}

/// Memory the host allocated (gather-map-to-gpu left these allocations on
/// the host; device buffers come from gpu.alloc or the arguments).
bool isHostBuffer(Value memref) {
  Operation *def = rootBuffer(memref).getDefiningOp();
  return def &&
         isa<memref::AllocaOp, memref::AllocOp, memref::GetGlobalOp>(def);
}

bool isGpuOp(Operation *op) {
  return isa<gpu::AsyncOpInterface>(op) && !isa<gpu::WaitOp>(op);
}

bool isCopyToHost(Operation *op) {
  auto copy = dyn_cast<gpu::MemcpyOp>(op);
  return copy && isHostBuffer(copy.getDst());
}

/// Replaces `op` by its async form, after `dependency`; returns it.
Operation *makeAsync(OpBuilder &b, Operation *op, Value dependency) {
  auto asyncOp = cast<gpu::AsyncOpInterface>(op);
  asyncOp.addAsyncDependency(dependency);
  if (asyncOp.getAsyncToken())
    return op;
  SmallVector<Type> types(op->getResultTypes());
  types.push_back(b.getType<gpu::AsyncTokenType>());
  Operation *async = Operation::create(
      op->getLoc(), op->getName(), types, op->getOperands(),
      op->getDiscardableAttrDictionary(), op->getPropertiesStorage(),
      op->getSuccessors(), op->getNumRegions());
  IRMapping mapping;
  for (auto [from, to] : llvm::zip(op->getRegions(), async->getRegions()))
    from.cloneInto(&to, mapping);
  b.setInsertionPoint(op);
  b.insert(async);
  op->replaceAllUsesWith(async->getResults().drop_back());
  op->erase();
  return async;
}

/// Moves the copies of the device error flags and their checks to the end
/// of `block`: the copies before the trailing deallocations (which free
/// the flags), the checks after them, in program order. A check stays
/// where later code could change what it reads (a buffer other than host
/// memory and the function's arguments), uses the flag or its copy, or
/// makes a call (which may report another error first).
void deferFlagChecks(Block &block) {
  Operation *terminator = block.getTerminator();
  Operation *tail = terminator;
  while (tail->getPrevNode() && isa<gpu::DeallocOp>(tail->getPrevNode()))
    tail = tail->getPrevNode();
  auto flagCopy = block.getParentOp()
                      ->getContext()
                      ->getLoadedDialect<GatherDialect>()
                      ->getErrorFlagAttrHelper();
  SmallVector<gpu::MemcpyOp> copies;
  for (Operation &op : block) {
    if (&op == tail)
      break;
    if (auto copy = dyn_cast<gpu::MemcpyOp>(&op);
        copy && flagCopy.isAttrPresent(copy))
      copies.push_back(copy);
  }
  // Each copy's check: the ops after it that use what it copied.
  size_t count = copies.size();
  SmallVector<llvm::SetVector<Operation *>> checks(count);
  SmallVector<bool> safe(count, true);
  DenseMap<Operation *, size_t> checkOf;
  for (size_t i = 0; i < count; ++i) {
    Value host = copies[i].getDst(), flag = copies[i].getSrc();
    DenseSet<Value> produced = {host};
    for (Operation *op = copies[i]->getNextNode(); op != tail;
         op = op->getNextNode()) {
      llvm::SetVector<Value> used = usedValues(op);
      if (llvm::any_of(used, [&](Value v) { return produced.contains(v); })) {
        checks[i].insert(op);
        checkOf[op] = i;
        produced.insert(op->result_begin(), op->result_end());
      } else if (used.contains(flag)) {
        safe[i] = false;
      }
    }
    for (Operation *op = tail; op != terminator->getNextNode();
         op = op->getNextNode())
      for (Value v : usedValues(op))
        if (produced.contains(v))
          safe[i] = false;
    for (Operation *check : checks[i])
      for (Value v : usedValues(check)) {
        if (!isa<MemRefType>(v.getType()) || isHostBuffer(v))
          continue;
        auto argument = dyn_cast<BlockArgument>(rootBuffer(v));
        if (!argument || argument.getOwner() != &block)
          safe[i] = false;
      }
  }
  // A report in between that stays where it is (a later gather's shape
  // check, a check that cannot move, a call) would come before this
  // check's: the first error reported stays the first in program order,
  // as on the CPU. Later checks are decided first.
  auto calls = [](Operation *op) {
    return op->walk([](CallOpInterface) { return WalkResult::interrupt(); })
        .wasInterrupted();
  };
  for (size_t i = count; i-- > 0;) {
    if (!safe[i])
      continue;
    for (Operation *op = copies[i]->getNextNode(); op != tail && safe[i];
         op = op->getNextNode()) {
      if (checks[i].contains(op) || !calls(op))
        continue;
      auto other = checkOf.find(op);
      if (other == checkOf.end() || !safe[other->second])
        safe[i] = false;
    }
  }
  for (size_t i = 0; i < count; ++i) {
    if (!safe[i])
      continue;
    copies[i]->moveBefore(tail);
    for (Operation *check : checks[i])
      check->moveBefore(terminator);
  }
}

struct GatherGpuStreamsPass
    : gather::impl::GatherGpuStreamsBase<GatherGpuStreamsPass> {
  void runOnOperation() override {
    func::FuncOp function = getOperation();
    if (function.isExternal() || !function
                                      .walk([](Operation *op) {
                                        return isGpuOp(op)
                                                   ? WalkResult::interrupt()
                                                   : WalkResult::advance();
                                      })
                                      .wasInterrupted())
      return;
    if (!function.getBody().hasOneBlock()) {
      function.emitOpError("with GPU operations must have one block before "
                           "gather-gpu-streams (structured control flow)");
      return signalPassFailure();
    }
    Block &block = function.getBody().front();
    deferFlagChecks(block);

    OpBuilder b(&getContext());
    Type tokenType = b.getType<gpu::AsyncTokenType>();
    // The function's stream while it is open, and the host buffers that
    // copies on it wrote since it was last synchronized.
    Value stream;
    DenseSet<Value> unsynced;
    auto open = [&](Operation *before) {
      if (stream)
        return;
      b.setInsertionPoint(before);
      stream = gpu::WaitOp::create(b, before->getLoc(), tokenType, ValueRange{})
                   .getAsyncToken();
    };
    auto close = [&](Operation *before) {
      if (!stream)
        return;
      b.setInsertionPoint(before);
      gpu::WaitOp::create(b, before->getLoc(), Type(), ValueRange{stream});
      stream = Value();
      unsynced.clear();
    };
    auto readsUnsynced = [&](Operation *op) {
      return llvm::any_of(usedValues(op), [&](Value v) {
        return isa<MemRefType>(v.getType()) && unsynced.contains(rootBuffer(v));
      });
    };
    for (Operation &op : llvm::make_early_inc_range(block)) {
      if (op.hasTrait<OpTrait::IsTerminator>() || isa<CallOpInterface>(op)) {
        // A callee (a split function's piece) runs streams of its own.
        close(&op);
        continue;
      }
      if (isGpuOp(&op)) {
        open(&op);
        Operation *async = makeAsync(b, &op, stream);
        if (isCopyToHost(async))
          unsynced.insert(rootBuffer(cast<gpu::MemcpyOp>(async).getDst()));
        continue;
      }
      if (!unsynced.empty() && readsUnsynced(&op))
        close(&op);
      SmallVector<Operation *> nested;
      op.walk([&](Operation *inner) {
        if (inner != &op && isGpuOp(inner))
          nested.push_back(inner);
      });
      if (nested.empty())
        continue;
      // Copies into host memory alone (a report's copy of the indices after
      // the synchronization) need no stream of the function's.
      if (!llvm::all_of(nested, isCopyToHost))
        open(&op);
      for (Operation *inner : nested) {
        if (!isCopyToHost(inner)) {
          makeAsync(b, inner, stream);
          continue;
        }
        // The host reads the copy in this branch: a stream of its own that
        // waits for the function's (if open), and a wait for it alone.
        b.setInsertionPoint(inner);
        Value fork =
            gpu::WaitOp::create(b, inner->getLoc(), tokenType,
                                stream ? ValueRange{stream} : ValueRange{})
                .getAsyncToken();
        Operation *async = makeAsync(b, inner, fork);
        b.setInsertionPointAfter(async);
        gpu::WaitOp::create(b, async->getLoc(), Type(), ValueRange{fork});
      }
    }
  }
};

} // namespace
