//===- Semantics.h - what a gather computes, as IR --------------*- C++ -*-===//
//
// Part of the gather project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// The scalar semantics of the gather ops, built as IR: the one coordinate
// map (every op read through its Gather Multiaxis form), the multiaxis rule
// from an output coordinate to an input coordinate, and the index policy's
// step after a read. The interface models (tiling's scalar implementation)
// and every lowering build from these; nothing here depends on a lowering.
//
//===----------------------------------------------------------------------===//

#ifndef GATHER_DIALECT_GATHER_UTILS_SEMANTICS_H
#define GATHER_DIALECT_GATHER_UTILS_SEMANTICS_H

#include "gather/Dialect/Gather/IR/GatherOps.h"
#include "gather/Dialect/Gather/IR/IndexPolicy.h"

#include "mlir/IR/Builders.h"

#include <optional>

namespace mlir::gather {

/// What the multiaxis rule needs of a gather.multiaxis (or of the multiaxis
/// form of another gather), computed once before the loops: per dimension
/// the input size, the logical indices size (the last dimension divided by
/// the coordinate size) and whether each side is pinned to coordinate 0
/// (size 1: a broadcast), statically or as an i1 value.
struct MultiaxisIndexing {
  /// The policy the reads apply (a lowering that checked the indices before
  /// its loops applies `unchecked` in them).
  IndexPolicy policy;
  int64_t rank = 0;
  int64_t coordinateSize = 1;
  SmallVector<int64_t> axes;
  SmallVector<Value> inputSize, logicalIndicesSize;
  SmallVector<std::optional<bool>> inputUnitStatic, indicesUnitStatic;
  SmallVector<Value> inputUnit, indicesUnit;
};

/// Builds the indexing of a multiaxis gather with these static shapes;
/// `inputDim(d)` and `indicesDim(d)` give the run-time size of a dynamic
/// dimension (of the indices: the physical size, coordinates included).
MultiaxisIndexing
buildMultiaxisIndexing(OpBuilder &b, Location loc, IndexPolicy policy,
                       ArrayRef<int64_t> axes, ArrayRef<int64_t> inputShape,
                       ArrayRef<int64_t> indicesShape,
                       function_ref<Value(int64_t)> inputDim,
                       function_ref<Value(int64_t)> indicesDim);

/// The same for a gather.multiaxis op on tensors or buffers.
MultiaxisIndexing buildMultiaxisIndexing(OpBuilder &b, Location loc,
                                         MultiaxisOp op);

/// The coordinate along a dimension that may be broadcast: 0 where the size
/// is 1, else the output coordinate.
Value broadcastCoord(OpBuilder &b, Location loc, Value outCoord,
                     std::optional<bool> unitStatic, Value unitFlag);

/// Component `c` of the coordinate that output coordinate `coords` reads:
/// its position in the indices (broadcast dimensions pinned to 0, the last
/// one `base * k + c`).
SmallVector<Value> buildIndicesPosition(OpBuilder &b, Location loc,
                                        const MultiaxisIndexing &indexing,
                                        ValueRange coords, int64_t component);

/// Reads component `component` of a coordinate at indices position
/// `position` and applies the policy (buildResolvedIndex).
using ResolveComponentFn = function_ref<ResolvedIndexValue(
    OpBuilder &, Location, ArrayRef<Value> position, int64_t component)>;

/// Where the input is read for one output coordinate.
struct InputCoords {
  SmallVector<Value> coords;
  /// i1 "every index was valid" under `fill` and `error`; null otherwise.
  Value valid;
};

/// The multiaxis rule: the input coordinate that output coordinate `coords`
/// reads. Non-axis dimensions follow the output (0 where the input
/// broadcasts); axis `axes[c]` takes component c of the coordinate, which
/// `resolve` reads and resolves.
InputCoords buildInputCoords(OpBuilder &b, Location loc,
                             const MultiaxisIndexing &indexing,
                             ValueRange coords, ResolveComponentFn resolve);

/// The index policy's step after a read through an index that
/// buildResolvedIndex made safe: where `valid` (an i1 or vector of i1, null
/// when the policy has nothing to check) is false, `fill` gives
/// `fillValue(valid, value)` (default: a select of zero), and `error` hands
/// the invalid case to `raise` (a flag the loops set, or a report) and
/// keeps the value. The one place that says what each policy does then.
Value applyReadPolicy(
    OpBuilder &b, Location loc, IndexPolicy policy, Value valid, Value value,
    function_ref<void(OpBuilder &, Location, Value invalid)> raise,
    function_ref<Value(OpBuilder &, Location, Value valid, Value value)>
        fillValue = nullptr);

/// The first half of applyReadPolicy, for a validity that several reads
/// share (a block copied in chunks): under `error` hands the invalid case to
/// `raise` now; returns the validity that `fill` selects by (null under
/// every other policy).
Value raiseInvalidReads(
    OpBuilder &b, Location loc, IndexPolicy policy, Value valid,
    function_ref<void(OpBuilder &, Location, Value invalid)> raise);

/// The element of a gather op (any of the four, on tensors or buffers of any
/// layout) at output coordinate `coords`, with the op's index policy, read
/// through the op's Gather Multiaxis form without reshaping the operands.
/// An invalid index is read through coordinate 0 (`fill` yields zero,
/// `error` sets `invalid`); an empty gathered dimension is not read (zero).
/// Assumes the run-time shape checks hold.
struct GatherElementValue {
  Value value;
  /// i1 "an index was invalid" under `out_of_bounds = error`, else null.
  Value invalid;
};
GatherElementValue buildGatherElement(OpBuilder &b, Location loc,
                                      Operation *gatherOp, ValueRange coords);

/// Stores the element at `coords` of buffer-form `gatherOp` into its init
/// buffer; an invalid index under `error` is reported (gather.check_indices).
void buildGatherElementStore(OpBuilder &b, Location loc, Operation *gatherOp,
                             ValueRange coords);

} // namespace mlir::gather

#endif // GATHER_DIALECT_GATHER_UTILS_SEMANTICS_H
