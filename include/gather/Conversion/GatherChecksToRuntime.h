//===- GatherChecksToRuntime.h - check ops to error hook calls --*- C++ -*-===//
//
// Part of the gather project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// The late half of the run-time checks: gather.check_shape and
// gather.check_indices, which the lowerings leave in the functions, become
// calls of the run-time error hook (RuntimeErrorKind.h, lib/Runtime) with
// the site strings and the shared scan functions they need, created at
// module level; optionally, the program's cf.asserts too. The only part of the
// project that writes outside the ops it rewrites.
//
//===----------------------------------------------------------------------===//

#ifndef GATHER_CONVERSION_GATHERCHECKSTORUNTIME_H
#define GATHER_CONVERSION_GATHERCHECKSTORUNTIME_H

#include "mlir/Pass/Pass.h"

#include <string>

namespace mlir {
class RewritePatternSet;
class SymbolTableCollection;

namespace gather {

#define GEN_PASS_DECL_CONVERTGATHERCHECKSTORUNTIME
#include "gather/Conversion/Passes.h.inc"

/// Patterns that rewrite the check ops into hook calls. They create the
/// hook's declaration, the site strings and the shared report functions in
/// the module around the check, looked up through `symbolTables` (which
/// must outlive the patterns): apply them on a module.
void populateGatherChecksToRuntimePatterns(RewritePatternSet &patterns,
                                           SymbolTableCollection &symbolTables);

/// A pattern that rewrites `cf.assert` into a call of the hook with the
/// assert's message and location (RuntimeErrorKind::AssertionFailed, which
/// ends the call or the program with that message), the same way; one
/// directly in a linalg op's body skips the rest of the body where it
/// fails, and a barrier call after the op ends the call.
void populateAssertsToRuntimePatterns(RewritePatternSet &patterns,
                                      SymbolTableCollection &symbolTables);

} // namespace gather
} // namespace mlir

#endif // GATHER_CONVERSION_GATHERCHECKSTORUNTIME_H
