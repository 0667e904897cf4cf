//===- RuntimeAllocator.cpp - compiled code allocates through the runtime -===//
//
// Part of the gather project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// A failed assert leaves its call with a longjmp, past the frees of what
// the call allocated: the runtime's allocator lists those blocks and frees
// them then. The JIT binds malloc and free to it; code compiled ahead of
// time calls it by name.
//
//===----------------------------------------------------------------------===//

#include "gather/CodeGen/Passes.h"
#include "gather/Dialect/Gather/IR/RuntimeFunctions.h"

#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/IR/SymbolTable.h"

namespace mlir::gather {
#define GEN_PASS_DEF_GATHERRUNTIMEALLOCATOR
#include "gather/CodeGen/Passes.h.inc"
} // namespace mlir::gather

using namespace mlir;

namespace {
struct GatherRuntimeAllocator
    : gather::impl::GatherRuntimeAllocatorBase<GatherRuntimeAllocator> {
  void runOnOperation() override;
};
} // namespace

void GatherRuntimeAllocator::runOnOperation() {
  ModuleOp module = getOperation();
  SymbolTable symbols(module);
  for (auto [name, function] :
       {std::pair{"malloc", gather::RuntimeFunction::Malloc},
        std::pair{"free", gather::RuntimeFunction::Free}}) {
    auto libc = symbols.lookup<LLVM::LLVMFuncOp>(name);
    // None, or the module's own.
    if (!libc || !libc.isExternal())
      continue;
    LLVM::LLVMFuncOp runtime =
        gather::lookupOrDeclareRuntimeLLVMFunction(module, symbols, function);
    if (!runtime)
      return signalPassFailure();
    if (libc.getFunctionType() != runtime.getFunctionType()) {
      libc.emitError("'") << name
                          << "' is not the C library's: its type is not "
                          << runtime.getFunctionType();
      return signalPassFailure();
    }
    if (failed(SymbolTable::replaceAllSymbolUses(libc, runtime.getSymNameAttr(),
                                                 module))) {
      libc.emitError("'") << name << "' has uses that cannot be renamed";
      return signalPassFailure();
    }
    symbols.erase(libc);
  }
}
