//===- GatherToSCF.h - gather ops to plain scf.for loops -------*- C++ -*-===//
//
// Part of the gather project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// The reference lowering: the shared semantics with scf.for loops that
// tensor.insert each output element.
//
//===----------------------------------------------------------------------===//

#ifndef GATHER_CONVERSION_GATHERTOSCF_H
#define GATHER_CONVERSION_GATHERTOSCF_H

#include "mlir/Pass/Pass.h"

namespace mlir {
class RewritePatternSet;

namespace gather {

#define GEN_PASS_DECL_CONVERTGATHERTOSCF
#include "gather/Conversion/Passes.h.inc"

/// Patterns that lower every gather op to scf.for loops on tensors (the
/// checks as in populateGatherToLinalgPatterns; apply on any op).
void populateGatherToSCFPatterns(RewritePatternSet &patterns);

} // namespace gather
} // namespace mlir

#endif // GATHER_CONVERSION_GATHERTOSCF_H
