//===- RuntimeChecks.h - the rules only the run time decides ----*- C++ -*-===//
//
// Part of the gather project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// The conditions on dynamic sizes that the static types cannot prove, and
// the check ops (gather.check_shape, gather.check_indices) that report a
// broken rule. Used by the lowerings and by tiling; the error hook calls are
// made later from the check ops (convert-gather-checks-to-runtime).
//
//===----------------------------------------------------------------------===//

#ifndef GATHER_DIALECT_GATHER_UTILS_RUNTIMECHECKS_H
#define GATHER_DIALECT_GATHER_UTILS_RUNTIMECHECKS_H

#include "gather/Dialect/Gather/IR/RuntimeErrorKind.h"

#include "mlir/IR/Builders.h"

namespace mlir::gather {

/// One condition on dynamic sizes that only the run time can decide.
struct RuntimeShapeCheck {
  /// i1 "holds".
  Value holds;
  RuntimeErrorKind kind;
  /// The dimension concerned (of the output for InitSizeMismatch, of the
  /// operands otherwise) and the two sizes compared (index values).
  int64_t dim;
  Value lhs, rhs;
};

/// Every run-time shape condition of a gather op (any of the four, on
/// tensors or buffers): dynamic broadcasts that must be compatible, a
/// dynamic last multiaxis indices dimension that must hold whole
/// coordinates, gather.elements indices sizes that must not exceed the data
/// sizes, and dynamic init sizes that must equal the output sizes. Empty
/// when the static types prove them all.
SmallVector<RuntimeShapeCheck>
buildRuntimeShapeChecks(OpBuilder &b, Location loc, Operation *gatherOp);

/// The conjunction of the checks (null when there are none).
Value allShapeChecksHold(OpBuilder &b, Location loc,
                         ArrayRef<RuntimeShapeCheck> checks);

/// One gather.check_shape per check, in order, naming the op as written:
/// the first that fails is reported.
void buildShapeCheckReports(OpBuilder &b, Location loc, Operation *gatherOp,
                            ArrayRef<RuntimeShapeCheck> checks);

/// Builds `body` where the run-time shape checks of `gatherOp` hold: as is
/// when the static types prove them, else in an scf.if whose other branch
/// reports the first failing check. For code without results (buffers).
void buildUnderShapeChecks(OpBuilder &b, Location loc, Operation *gatherOp,
                           function_ref<void(OpBuilder &, Location)> body);

/// Makes `indices` (a tensor in device memory) readable on the host: a
/// host buffer with their values, built on the failing path only.
using IndicesToHostFn = Value (*)(OpBuilder &, Location, Value indices);

/// A gather.check_indices of `gatherOp`'s indices (any GatherOpInterface
/// op, tensors or buffers), naming the op, the dimensions and the position
/// as written (its gather.origin). `assumeInvalid`: the loops found an
/// invalid value already (report even if the scan finds none); otherwise the
/// check itself decides. With `indicesToHost` (indices in device memory) it
/// reads the host copy that makes.
void buildIndexCheck(OpBuilder &b, Location loc, Operation *gatherOp,
                     bool assumeInvalid,
                     IndicesToHostFn indicesToHost = nullptr);

/// Whether `gatherOp`'s index values are checked at run time: under
/// `error`, where it gathers along some dimension.
bool checksIndicesAtRunTime(Operation *gatherOp);

/// Under `error`, every index value must be valid also when the output is
/// empty and no element reads it (docs/GatherDialect.md): a
/// gather.check_indices taken only when the output may be empty and is.
void buildEmptyOutputIndexCheck(OpBuilder &b, Location loc,
                                Operation *gatherOp);

/// Where the output may be empty and is: the run-time shape checks of
/// `gatherOp` reported, then (under `error`, the shapes holding) its index
/// check. For loops that run the gather's checks inside (tiles of a fused
/// consumer), which run not at all for an empty output.
void buildEmptyOutputChecks(OpBuilder &b, Location loc, Operation *gatherOp);

} // namespace mlir::gather

#endif // GATHER_DIALECT_GATHER_UTILS_RUNTIMECHECKS_H
