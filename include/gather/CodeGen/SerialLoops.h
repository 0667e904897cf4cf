//===- SerialLoops.h - parallel loops made serial ---------------*- C++ -*-===//
//
// Part of the gather project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#ifndef GATHER_CODEGEN_SERIALLOOPS_H
#define GATHER_CODEGEN_SERIALLOOPS_H

#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/PatternMatch.h"

namespace mlir::gather {

/// Makes dimensions [keep, n) of `op` nested scf.for loops, in the body of
/// an scf.parallel of the first `keep` (none where `keep` is 0), and erases
/// `op`. With `keep` 0 its reductions become the loops' iteration
/// arguments, combined in iteration order; with `keep` above 0 a loop with
/// reductions is a failure, and `op` stays as it is.
LogicalResult serializeParallelDims(RewriterBase &rewriter, scf::ParallelOp op,
                                    unsigned keep);

} // namespace mlir::gather

#endif // GATHER_CODEGEN_SERIALLOOPS_H
