//===- Prefetch.h - software prefetch of what later iterations read -*- C++
//-*-===//
//
// Part of the gather project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#ifndef GATHER_LIB_CONVERSION_MULTIAXISLOWERING_PREFETCH_H
#define GATHER_LIB_CONVERSION_MULTIAXISLOWERING_PREFETCH_H

#include "LoweringState.h"

#include <optional>

namespace mlir::gather::lowering {

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
  /// memref.prefetch's locality: 3 (every level) or 2 (the L2;
  /// CpuTarget::prefetchBlocksL2).
  int64_t locality = 3;
  /// Where the op copies one block, its one index value an element of its
  /// whole indices (a gather fused into each step of its consumer's loops,
  /// gather-fuse-consumers): the whole indices, their sizes and the
  /// element's position. `loopDim` is then a dimension of the whole
  /// indices: the prefetch reads the index `distance` elements further
  /// along it (carried into the next outer dimension), which the
  /// consumer's later steps read.
  Value wholeIndices;
  SmallVector<OpFoldResult> wholeSizes;
  SmallVector<OpFoldResult> wholePosition;
};

/// A plan where prefetching pays (an input larger than the caches keep, or
/// of dynamic size), else nullopt. Creates the buffer (and, for a dynamic
/// block, the sizes of the plan) at `b`'s insertion point.
std::optional<BlockPrefetch> planBlockPrefetch(OpBuilder &b, Location loc,
                                               const LoweringState &s,
                                               Value init, int64_t blockStart);

/// `plan` reading `input` instead of the op's input: the same input
/// reshaped (the blocks' dimensions kept), whose buffer is made here.
BlockPrefetch prefetchReading(OpBuilder &b, Location loc,
                              const BlockPrefetch &plan, Value input);

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
/// input row. `maxStep`, where known, bounds `step`: lines it keeps in the
/// row are not clamped.
void emitRowPrefetch(OpBuilder &b, Location loc, const LoweringState &s,
                     const RowPrefetch &plan, ArrayRef<Value> inputPos,
                     Value rowIv, Value step, std::optional<int64_t> maxStep);

/// How a loop prefetches index values ahead of their reads: each step
/// (a vector step of rows, or a tile of block copies) prefetches the lines
/// of as many index values as it reads, where a later step will read them.
struct IndexPrefetch {
  /// The indices (or the indices collapsed to one dimension), as a
  /// read-only buffer.
  Value buffer;
  /// Lines a step's index values take, and index values per line.
  int64_t linesPerStep = 0;
  int64_t lineElements = 1;
  /// memref.prefetch's locality: 3 into every cache level, 2 from the L2
  /// on (CpuTarget::prefetchIndexStreams).
  int64_t locality = 3;
};

/// A plan for steps of `positions` output positions, each reading
/// s.coordinateSize consecutive values of `indices` (the op's indices, or
/// a view of them), where the op's indices are larger than the caches keep
/// (or of dynamic size), else nullopt (also for an index type without a
/// byte size). Tiles of block copies use it as it is: each tile's block
/// prefetch reads the index values `distance` blocks ahead
/// (BlockPrefetch), and a tile prefetches the lines that read will take
/// `distance` blocks later still (emitIndexStreamPrefetch).
std::optional<IndexPrefetch> planIndexPrefetch(OpBuilder &b, Location loc,
                                               const LoweringState &s,
                                               Value indices,
                                               int64_t positions);

/// For vector rows that read their index values contiguously along the
/// indices' row, `lanes` positions a step: planIndexPrefetch's plan, except
/// where one indices row is broadcast over the output's rows.
std::optional<IndexPrefetch> planIndexRowPrefetch(OpBuilder &b, Location loc,
                                                  const LoweringState &s,
                                                  int64_t lanes);

/// In the vector step at output position `step` of the row whose indices
/// position is `indicesPos` (`rowIv`: the output's coordinate along the
/// dimension before the innermost): the prefetch of the lines that the
/// same step will read in the next indices row (`maxStep`: as for
/// emitRowPrefetch).
void emitIndexRowPrefetch(OpBuilder &b, Location loc, const LoweringState &s,
                          const IndexPrefetch &plan, ArrayRef<Value> indicesPos,
                          Value rowIv, Value step,
                          std::optional<int64_t> maxStep);

/// The prefetch of the lines of the tile whose index values start at
/// `first` in the flat indices (a whole tile's, in bounds).
void emitIndexStreamPrefetch(OpBuilder &b, Location loc,
                             const IndexPrefetch &plan, Value first);

/// How the rows that take their elements' offsets from an offset table
/// prefetch what a later iteration reads: the same offsets from the input
/// position `distance` iterations ahead along output dimension `loopDim`
/// (the innermost loop of more than one iteration that moves along the
/// input; the loops inside it reuse its input position).
struct TablePrefetch {
  /// The input collapsed to one dimension, as a read-only buffer.
  Value buffer;
  int64_t loopDim = 0;
  /// The row base's step `distance` iterations ahead (elements).
  int64_t aheadElements = 0;
  /// The largest row base: with any row base up to it, a valid element's
  /// offset stays in the input.
  int64_t maxRowBase = 0;
};

/// A plan where prefetching pays (a static input larger than the caches
/// keep, an input dimension the loops in `order` move along), else
/// nullopt. `flatInput`: the input collapsed to one dimension.
std::optional<TablePrefetch> planTablePrefetch(OpBuilder &b, Location loc,
                                               const LoweringState &s,
                                               Value flatInput,
                                               ArrayRef<int64_t> order,
                                               RankedTensorType outputType);

/// Once per row: the row base the prefetches read at, `rowBase` ahead,
/// clamped to the largest one.
Value emitTablePrefetchBase(OpBuilder &b, Location loc,
                            const TablePrefetch &plan, Value rowBase);

/// The prefetch of the flat input's element at `offset`.
void emitTablePrefetch(OpBuilder &b, Location loc, const TablePrefetch &plan,
                       Value offset);

} // namespace mlir::gather::lowering

#endif // GATHER_LIB_CONVERSION_MULTIAXISLOWERING_PREFETCH_H
