//===- GatherToLinalg.h - gather ops to linalg, scf and vector -*- C++ -*-===//
//
// Part of the gather project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// The CPU lowering: gather ops on tensors to linalg.generic, scf.forall
// block copies and vector rows on tensors, ready for one-shot-bufferize.
//
//===----------------------------------------------------------------------===//

#ifndef GATHER_CONVERSION_GATHERTOLINALG_H
#define GATHER_CONVERSION_GATHERTOLINALG_H

#include "gather/Target/CpuTarget.h"
#include "mlir/Pass/Pass.h"

namespace mlir {
class RewritePatternSet;

namespace gather {

#define GEN_PASS_DECL_CONVERTGATHERTOLINALG
#include "gather/Conversion/Passes.h.inc"

struct GatherToLinalgOptions {
  /// Copy trailing blocks taken whole from the input with one slice each.
  bool blockCopy = true;
  /// Vectorize element gathers along the innermost dimension (and resolve
  /// reused indices into tables); otherwise one scalar linalg.generic.
  bool vectorize = true;
  /// Software prefetch of what later iterations read (large inputs).
  bool prefetch = true;
  /// The machine the forms are planned for; the JIT takes the host's
  /// (hostCpuTarget).
  CpuTarget target;
  /// A remark on each gather naming the form it is lowered to.
  bool reportForms = false;
};

/// Patterns that lower gather.block, gather.elements, gather.nd and
/// gather.multiaxis (rewritten into multiaxis form first) to linalg, scf
/// and vector ops on tensors, with the index policy and the run-time checks
/// (gather.check_shape and gather.check_indices ops, for
/// populateGatherChecksToRuntimePatterns later). They create nothing outside
/// the ops they rewrite: apply them on any op, e.g. with
/// applyGatherLoweringPatterns.
void populateGatherToLinalgPatterns(RewritePatternSet &patterns,
                                    const GatherToLinalgOptions &options = {});

} // namespace gather
} // namespace mlir

#endif // GATHER_CONVERSION_GATHERTOLINALG_H
