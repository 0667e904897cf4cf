//===- ProcessSymbols.h - the process's symbols for JIT code ----*- C++ -*-===//
//
// Part of the gather project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#ifndef GATHER_RUNNER_PROCESSSYMBOLS_H
#define GATHER_RUNNER_PROCESSSYMBOLS_H

#include "llvm/ADT/DenseSet.h"
#include "llvm/ExecutionEngine/Orc/Core.h"

#include <mutex>

namespace mlir::gather {

/// The address the JIT's code gets for the process symbol `name` (no global
/// prefix): the process's global scope, where compileForJit loads libomp
/// and the C runner utils. Null when the process has none.
void *processSymbolAddress(llvm::StringRef name);

/// The process's symbols (libomp's, the C runner utils', libc's) for the
/// JIT's code, each defined once. ORC filters a lookup's candidates before
/// it takes the generator, so a lookup that waited for another's run of
/// it can still hold names that run defined (two compile threads linking
/// partitions that both call `__kmpc_barrier`). LLVM's
/// DynamicLibrarySearchGenerator defines them again, and the JIT failed
/// with "duplicate definition of symbol '__kmpc_barrier'" (once, in CI).
/// This generator skips the names it has defined, under a lock.
class ProcessSymbols : public llvm::orc::DefinitionGenerator {
public:
  /// `globalPrefix`: the data layout's (0: none).
  explicit ProcessSymbols(char globalPrefix) : globalPrefix(globalPrefix) {}

  llvm::Error tryToGenerate(llvm::orc::LookupState &, llvm::orc::LookupKind,
                            llvm::orc::JITDylib &library,
                            llvm::orc::JITDylibLookupFlags,
                            const llvm::orc::SymbolLookupSet &names) override;

private:
  char globalPrefix;
  std::mutex mutex;
  llvm::DenseSet<llvm::orc::SymbolStringPtr> defined;
};

} // namespace mlir::gather

#endif // GATHER_RUNNER_PROCESSSYMBOLS_H
