//===- LoweringState.h - shared state of one multiaxis lowering -*- C++ -*-===//
//
// Private to the MultiaxisLowering library: what every strategy reads
// (sizes, broadcast flags, the policy) and the pieces each file provides.
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
  /// Under `out_of_bounds = error` checked in the loops: a rank-0 integer
  /// memref (host or device) the loops set to 1 when they read an invalid
  /// index (through index 0).
  Value errorFlag;
  /// When set: the indices already resolved by the policy (tensor of index,
  /// the indices' shape; -1 marks an out-of-bounds value under `fill`).
  Value resolved;
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

/// Under a check in the loops: sets the error flag when `anyInvalid` (i1)
/// is true (the `raise` of applyReadPolicy).
void reportIfAnyInvalid(OpBuilder &b, Location loc, const LoweringState &s,
                        Value anyInvalid);

/// The size of the input dimension that the index value at last-dimension
/// position `lastPos` addresses: axes[lastPos % k].
Value addressedSize(OpBuilder &b, Location loc, const LoweringState &s,
                    Value lastPos);

//===----------------------------------------------------------------------===//
// IndexTables.cpp: indices resolved once where many iterations reuse them
//===----------------------------------------------------------------------===//

/// Resolving pays when the loop reads each index value many times
/// (broadcast dimensions); `loopShape` is the iteration space.
bool shouldResolveIndices(const LoweringState &s, ArrayRef<int64_t> loopShape);

/// The index policy applied to every index value once: a tensor of input
/// coordinates with the indices' shape (-1 marks a `fill` miss).
Value buildCoordinateTable(OpBuilder &b, Location loc, const LoweringState &s);

/// Every coordinate tuple resolved once and combined into the linear offset
/// of its axis coordinates in the row-major input (`inputStrides`): a tensor
/// with the logical indices shape (-1 marks a `fill` miss).
Value buildAxisOffsetTable(OpBuilder &b, Location loc, const LoweringState &s,
                           ArrayRef<Value> inputStrides);

//===----------------------------------------------------------------------===//
// BlockCopy.cpp: trailing blocks copied whole
//===----------------------------------------------------------------------===//

/// First output dimension of the trailing block that is copied from the
/// input whole (`rank` when there is none).
int64_t contiguousBlockStart(const LoweringState &s,
                             ArrayRef<int64_t> outputShape);

/// The innermost output dimension before `blockStart` whose size is not
/// statically 1 (the order one thread runs the loops in), or nullopt.
std::optional<int64_t> innermostLoopDimension(ArrayRef<int64_t> outputShape,
                                              int64_t blockStart);

/// An scf.forall over the output dimensions before `blockStart`; each
/// iteration copies one block: with one slice, or with `vectorRows` its
/// rows of a cache line or more with vector loads and stores.
Value buildBlockCopy(OpBuilder &b, Location loc, const LoweringState &s,
                     Value init, int64_t blockStart, bool prefetch,
                     bool vectorRows);

//===----------------------------------------------------------------------===//
// Prefetch.cpp: software prefetch of what later iterations read
//===----------------------------------------------------------------------===//

/// How a block copy prefetches the block of a later iteration.
struct BlockPrefetch {
  /// The input as a buffer (bufferization.to_buffer, read-only).
  Value buffer;
  /// Iterations ahead along loop dimension `loopDim` (the innermost one
  /// with more than one iteration); computed at run time (an index value)
  /// where the block's size is dynamic.
  int64_t distance = 1;
  Value dynamicDistance;
  int64_t loopDim = 0;
  /// Offsets along the block's innermost dimension, one per line.
  SmallVector<int64_t> rowOffsets;
  /// With a dynamic block size instead of rowOffsets: the number of lines
  /// of the first row to prefetch, `lineElements` apart, then the row's
  /// last element (`rowLength` - 1).
  Value dynamicRowLines, rowLength;
  int64_t lineElements = 1;
};

/// A plan where prefetching pays (an input larger than the caches keep, or
/// of dynamic size), else nullopt. Creates the buffer (and, for a dynamic
/// block, the sizes of the plan) at `b`'s insertion point.
std::optional<BlockPrefetch> planBlockPrefetch(OpBuilder &b, Location loc,
                                               const LoweringState &s,
                                               Value init, int64_t blockStart);

/// In the loop body (induction variables `ivs` over `upperBounds`): the
/// prefetch of the block that iteration ivs + distance copies.
void emitBlockPrefetch(OpBuilder &b, Location loc, const LoweringState &s,
                       const BlockPrefetch &plan, ValueRange ivs,
                       ArrayRef<OpFoldResult> upperBounds, int64_t blockStart);

/// The prefetch of the block at input coordinates `inputCoords` (in the
/// input; the block dimensions' coordinates are replaced).
void emitBlockPrefetchAt(OpBuilder &b, Location loc, const BlockPrefetch &plan,
                         ArrayRef<Value> inputCoords);

/// How the vector rows of a gather along the innermost input dimension
/// prefetch the next input row.
struct RowPrefetch {
  Value buffer;
  /// Input row and output row lengths (elements, index values: constants
  /// where static), and elements per line.
  Value inputRow, rowLength;
  int64_t lineElements = 1;
  /// Lines prefetched per vector step: a constant (unrolled), or with
  /// dynamic sizes a value computed before the loops (0 for sparse rows).
  int64_t linesPerStep = 0;
  Value dynamicLinesPerStep;
  /// With dynamic sizes: the spacing of the step's prefetches and the
  /// share's last line (elements).
  Value dynamicLineStride, dynamicLastLine;
};

/// A plan where the rows are dense (at least one read per cache line of the
/// input row, static row sizes) and the input is larger than the caches
/// keep (or of dynamic size), else nullopt.
std::optional<RowPrefetch> planRowPrefetch(OpBuilder &b, Location loc,
                                           const LoweringState &s, Value init,
                                           int64_t lanes);

/// In the vector step at output position `step` of the row whose input
/// position is `inputPos` (`rowIv`: its coordinate along the dimension
/// before the innermost): the prefetch of this step's share of the next
/// input row.
void emitRowPrefetch(OpBuilder &b, Location loc, const LoweringState &s,
                     const RowPrefetch &plan, ArrayRef<Value> inputPos,
                     Value rowIv, Value step);

//===----------------------------------------------------------------------===//
// LoopOrder.cpp: the order of the loops over the output's outer dimensions
//===----------------------------------------------------------------------===//

/// The loops over output dimensions [0, numLoops), outermost first: the
/// dimensions the input spans before those along which only the index
/// values change, where all that the inner ones read for one position of
/// the outer ones fits the L1 cache (so that it is read from memory once);
/// else the output's order.
SmallVector<int64_t> outerLoopOrder(const LoweringState &s, int64_t numLoops,
                                    Type elementType);

//===----------------------------------------------------------------------===//
// VectorRows.cpp: element gathers vectorized along the innermost dimension
//===----------------------------------------------------------------------===//

bool canVectorizeInnermost(const LoweringState &s, Type elementType);

/// One output row per scf.forall iteration (loops in outerLoopOrder), V
/// lanes at a time; with the offset table, one scalar load per element.
Value buildVectorRows(OpBuilder &b, Location loc, const LoweringState &s,
                      Value init, bool useOffsetTable, bool prefetch);

//===----------------------------------------------------------------------===//
// RuntimeChecks.cpp: what only the run time can decide
//===----------------------------------------------------------------------===//

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

#endif // GATHER_LIB_CONVERSION_MULTIAXISLOWERING_LOWERINGSTATE_H
