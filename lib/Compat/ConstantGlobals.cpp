//===- ConstantGlobals.cpp - globals of tensor constants in IR order ------===//
//
// Part of the gather project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "gather/Compat/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Bufferization/IR/BufferizableOpInterface.h"
#include "mlir/Dialect/Bufferization/Transforms/BufferUtils.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/SymbolTable.h"

namespace mlir::gather {
#define GEN_PASS_DEF_GATHERCONSTANTGLOBALS
#include "gather/Compat/Passes.h.inc"
} // namespace mlir::gather

using namespace mlir;

namespace {
struct GatherConstantGlobalsPass
    : gather::impl::GatherConstantGlobalsBase<GatherConstantGlobalsPass> {
  void runOnOperation() override {
    ModuleOp module = getOperation();
    // The first constant of each value, in IR order (bufferization gives
    // equal values one global).
    SmallVector<arith::ConstantOp> constants;
    DenseSet<Attribute> seen;
    module.walk([&](arith::ConstantOp constant) {
      // Only the constants of this module's functions: a nested module
      // keeps its own globals.
      if (isa<RankedTensorType>(constant.getType()) &&
          constant->getParentOfType<ModuleOp>() == module &&
          seen.insert(constant.getValue()).second)
        constants.push_back(constant);
    });
    // getGlobalFor names the globals in the order it makes them and puts
    // each at the top of the module; moving each after the one before keeps
    // the constants' order.
    uint64_t alignment = bufferization::BufferizationOptions().bufferAlignment;
    SymbolTableCollection symbolTables;
    Operation *previous = nullptr;
    for (arith::ConstantOp constant : constants) {
      FailureOr<memref::GlobalOp> global =
          bufferization::getGlobalFor(constant, symbolTables, alignment);
      if (failed(global))
        return signalPassFailure();
      if (previous)
        (*global)->moveAfter(previous);
      previous = *global;
    }
  }
};
} // namespace
