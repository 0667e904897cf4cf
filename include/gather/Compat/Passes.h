//===- Passes.h - workarounds of upstream MLIR 22 bugs ---------*- C++ -*-===//
//
// Part of the gather project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// Each pass and pattern set here works around a bug of the MLIR release the
// project builds with; Passes.td names the upstream issue and the version
// that makes it unnecessary.
//
//===----------------------------------------------------------------------===//

#ifndef GATHER_COMPAT_PASSES_H
#define GATHER_COMPAT_PASSES_H

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/OwningOpRef.h"
#include "mlir/Pass/Pass.h"

namespace llvm {
class SourceMgr;
} // namespace llvm

namespace mlir {
class RewritePatternSet;
} // namespace mlir

namespace mlir::gather {

#define GEN_PASS_DECL
#include "gather/Compat/Passes.h.inc"

#define GEN_PASS_REGISTRATION
#include "gather/Compat/Passes.h.inc"

/// Verifies `op` as the parser does after parsing, having first rejected
/// what MLIR 22's verifiers themselves crash on: tensor.concat with a
/// negative dim, which its verifier uses as an index into the shape. Tools
/// that parse input (gather-run, the C API) parse with verifyAfterParse
/// off and call this instead.
LogicalResult verifyParsedInput(Operation *op);

/// Parses the module in `sourceMgr`'s main buffer and verifies it with
/// verifyParsedInput; null (with the diagnostics emitted) on failure. What
/// gather-run and the C API read goes through this.
OwningOpRef<ModuleOp> parseInputModule(llvm::SourceMgr &sourceMgr,
                                       MLIRContext *context);

/// The pattern of gather-expand-shapes-to-reinterpret-casts, for pipelines
/// that run MLIR 22's expand-strided-metadata on reshapes with several
/// dynamic sizes in one group.
void populateExpandShapesToReinterpretCastsPatterns(
    RewritePatternSet &patterns);

/// The tensor.expand_shape type refinement of gather-canonicalize, for a
/// compiler's own canonicalization of IR that gather ops produce (it must
/// run in the same driver as upstream's expand_shape patterns).
void populateRefineExpandShapePatterns(RewritePatternSet &patterns);

} // namespace mlir::gather

#endif // GATHER_COMPAT_PASSES_H
