//===- ProcessSymbols.cpp - the process's symbols for JIT code ------------===//
//
// Part of the gather project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "gather/Runner/ProcessSymbols.h"

#include "llvm/ExecutionEngine/Orc/AbsoluteSymbols.h"
#include "llvm/Support/DynamicLibrary.h"

using namespace mlir::gather;

void *mlir::gather::processSymbolAddress(llvm::StringRef name) {
  // dlsym on the executable's handle: the global scope, in load order, as
  // the loader resolves a symbol of the executable.
  static llvm::sys::DynamicLibrary process =
      llvm::sys::DynamicLibrary::getPermanentLibrary(nullptr);
  return process.getAddressOfSymbol(name.str().c_str());
}

llvm::Error
ProcessSymbols::tryToGenerate(llvm::orc::LookupState &, llvm::orc::LookupKind,
                              llvm::orc::JITDylib &library,
                              llvm::orc::JITDylibLookupFlags,
                              const llvm::orc::SymbolLookupSet &names) {
  std::lock_guard<std::mutex> lock(mutex);
  llvm::orc::SymbolMap found;
  for (const auto &[name, flags] : names) {
    if (defined.count(name))
      continue;
    llvm::StringRef symbol = *name;
    if (globalPrefix &&
        !symbol.consume_front(llvm::StringRef(&globalPrefix, 1)))
      continue;
    if (void *address = processSymbolAddress(symbol))
      found[name] = {llvm::orc::ExecutorAddr::fromPtr(address),
                     llvm::JITSymbolFlags::Exported};
  }
  if (found.empty())
    return llvm::Error::success();
  for (const auto &entry : found)
    defined.insert(entry.first);
  return library.define(llvm::orc::absoluteSymbols(std::move(found)));
}
