//===- Passes.h - code generation steps of the pipelines -------*- C++ -*-===//
//
// Part of the gather project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// The code generation passes after the gather lowerings (Passes.td says
// which target each serves), and the patterns of the pattern-based ones.
//
//===----------------------------------------------------------------------===//

#ifndef GATHER_CODEGEN_PASSES_H
#define GATHER_CODEGEN_PASSES_H

#include "mlir/Pass/Pass.h"

namespace mlir {
class RewritePatternSet;
} // namespace mlir

namespace mlir::gather {

#define GEN_PASS_DECL
#include "gather/CodeGen/Passes.h.inc"

#define GEN_PASS_REGISTRATION
#include "gather/CodeGen/Passes.h.inc"

/// gather-unit-stride-vector-gathers: vector.gather from a memref with a
/// non-unit innermost stride becomes a gather from the flat buffer.
void populateUnitStrideVectorGathersPatterns(RewritePatternSet &patterns);

/// gather-approximate-math: the math functions fused consumers call, as
/// polynomial approximations that vectorize.
void populateApproximateMathPatterns(RewritePatternSet &patterns);

} // namespace mlir::gather

#endif // GATHER_CODEGEN_PASSES_H
