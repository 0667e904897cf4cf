//===- IndexChecks.h - the index checks of the lowering ---------*- C++ -*-===//
//
// Part of the gather project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#ifndef GATHER_LIB_CONVERSION_MULTIAXISLOWERING_INDEXCHECKS_H
#define GATHER_LIB_CONVERSION_MULTIAXISLOWERING_INDEXCHECKS_H

#include "LoweringState.h"

namespace mlir::gather::lowering {

/// Whether the index values need a run-time check: `error`, some axis, and
/// not constant indices the verifier proved in bounds.
bool needsIndexCheck(MultiaxisOp op);

/// i1 "every index value is in bounds" (for an op that needsIndexCheck).
Value buildIndicesAllValid(OpBuilder &b, Location loc, const LoweringState &s,
                           AllOfBuilder buildAllOf);

/// i1 "no axis is empty" under `clamp` and `fill`, which have no element to
/// read otherwise (null when nothing to check).
Value buildNonEmptyAxesCheck(OpBuilder &b, Location loc,
                             const LoweringState &s);

} // namespace mlir::gather::lowering

#endif // GATHER_LIB_CONVERSION_MULTIAXISLOWERING_INDEXCHECKS_H
