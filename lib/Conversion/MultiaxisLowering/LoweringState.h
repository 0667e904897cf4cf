//===- LoweringState.h - shared state of one multiaxis lowering -*- C++ -*-===//
//
// Part of the gather project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// Private to the MultiaxisLowering library: what every strategy reads
// (sizes, broadcast flags, the policy), the scalar element built on it
// (ElementComputation.cpp) and small IR helpers. Each strategy has its own
// header beside this one.
//
//===----------------------------------------------------------------------===//

#ifndef GATHER_LIB_CONVERSION_MULTIAXISLOWERING_LOWERINGSTATE_H
#define GATHER_LIB_CONVERSION_MULTIAXISLOWERING_LOWERINGSTATE_H

#include "gather/Conversion/MultiaxisLowering/MultiaxisLowering.h"

#include "mlir/Dialect/Tensor/IR/Tensor.h"

#include <optional>

namespace mlir::gather::lowering {

/// Everything the loop body needs, computed once before the loops: the
/// multiaxis indexing (sizes, broadcast flags, the policy the loops apply:
/// the op's, or `unchecked` where the indices were checked before the loops
/// or proven in bounds) and what this lowering adds.
struct LoweringState : MultiaxisIndexing {
  mutable MultiaxisOp op;
  /// How the loops report an invalid index they read (through index 0)
  /// under `out_of_bounds = error` checked in the loops.
  enum class LoopReport {
    /// No check in the loops (another policy, or checked before them).
    None,
    /// The loops set errorFlag to 1; it is read back after them.
    Flag,
    /// Where the loops copy one block (the gather of one index that
    /// gather-fuse-consumers puts in each step of a reduction): reported
    /// where the loops find it, before the block is read, with no flag.
    /// The block's loads then sit next to the step's adds instead of
    /// before the report's branch, around which a 128-float row and the 16
    /// sums did not fit AVX2's 16 registers.
    InPlace,
  };
  LoopReport loopReport = LoopReport::None;
  /// With LoopReport::Flag: a rank-0 integer memref (host or device).
  Value errorFlag;
  /// Whether the loops check the index values they read (and report).
  bool checksInLoops() const { return loopReport != LoopReport::None; }
  /// When set: the indices already resolved by the policy (tensor of index,
  /// the indices' shape; -1 marks an out-of-bounds value under `fill`).
  Value resolved;
  /// The machine the forms are planned for (the strategy's).
  CpuTarget target;
  /// Upper bounds of dynamic input sizes that these loops run under (a
  /// version of the loops for small sizes, chosen at run time), per input
  /// dimension; ShapedType::kDynamic (or empty): none. The plans read them
  /// where the type has no size.
  SmallVector<int64_t> inputSizeBounds;
};

//===----------------------------------------------------------------------===//
// ElementComputation.cpp: the scalar semantics
//===----------------------------------------------------------------------===//

Value constIndex(OpBuilder &b, Location loc, int64_t v);
/// `tensor` collapsed to one dimension (free on the contiguous buffers
/// gathers read; bufferization copies a strided view).
Value collapseToOneDimension(OpBuilder &b, Location loc, Value tensor);
/// The row-major strides of a tensor of sizes `sizes` (index values).
SmallVector<Value> rowMajorStrides(OpBuilder &b, Location loc,
                                   ArrayRef<Value> sizes);
/// Whether every tensor.extract_slice that `tensor` is, through reshapes
/// and casts, satisfies `allowed` (what a strided view can be read as).
bool slicesAllowed(Value tensor,
                   function_ref<bool(tensor::ExtractSliceOp)> allowed);
/// Whether the slice keeps the rank and a unit stride along the innermost
/// dimension: its rows stay contiguous (what vector loads along them need).
bool keepsUnitStrideRows(tensor::ExtractSliceOp slice);

/// `!value` for an i1 or a vector of i1.
Value notValue(OpBuilder &b, Location loc, Value value);
/// `lhs && rhs` where either may be absent (null).
Value andValues(OpBuilder &b, Location loc, Value lhs, Value rhs);
Value toIndex(OpBuilder &b, Location loc, Value value);
/// `length` rounded down to a multiple of `step` (an index constant), as
/// the product (length / step) * step, which gather-streaming-stores reads
/// as a multiple of the step: where the whole registers of a row of a
/// dynamic length end.
Value wholeStepsEnd(OpBuilder &b, Location loc, Value length, Value step);
/// A run-time version: the value `specialized` builds where `condition`
/// holds, else the one `general` builds (one scf.if yielding it). The
/// lowering's versions (small dynamic axes, indices that broadcast at run
/// time, block rows of a dynamic length that fit registers) all take this
/// form.
Value buildVersions(OpBuilder &b, Location loc, Value condition,
                    function_ref<Value(OpBuilder &, Location)> specialized,
                    function_ref<Value(OpBuilder &, Location)> general);

LoweringState prepareLowering(OpBuilder &b, Location loc, MultiaxisOp op);

/// The input coordinate for the output coordinate `coords` (the multiaxis
/// rule of Semantics.h, reading the resolved table where there is one).
InputCoords computeInputCoords(OpBuilder &b, Location loc,
                               const LoweringState &s, ValueRange coords);

/// The output element at `coords` (zero for a `fill` miss; an invalid index
/// under `error` is reported).
Value computeElement(OpBuilder &b, Location loc, const LoweringState &s,
                     ValueRange coords);

/// Whether the policy in the loops zeroes the element of an invalid index
/// (`fill`); otherwise an invalid index is reported (`error`).
inline bool fillsInvalid(const LoweringState &s) {
  return s.policy.outOfBounds == OutOfBoundsMode::fill;
}

/// Under a check in the loops, where an index was found invalid: sets the
/// error flag (LoopReport::Flag) or reports it here (LoopReport::InPlace).
void reportInvalidIndex(OpBuilder &b, Location loc, const LoweringState &s);

/// Under a check in the loops: reportInvalidIndex when `anyInvalid` (i1)
/// is true (the `raise` of applyReadPolicy).
void reportIfAnyInvalid(OpBuilder &b, Location loc, const LoweringState &s,
                        Value anyInvalid);

/// The size of the input dimension that the index value at last-dimension
/// position `lastPos` addresses: axes[lastPos % k].
Value addressedSize(OpBuilder &b, Location loc, const LoweringState &s,
                    Value lastPos);

} // namespace mlir::gather::lowering

#endif // GATHER_LIB_CONVERSION_MULTIAXISLOWERING_LOWERINGSTATE_H
