//===- VectorRows.h - element gathers vectorized along the innermost dimension
//-*- C++ -*-===//
//
// Part of the gather project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#ifndef GATHER_LIB_CONVERSION_MULTIAXISLOWERING_VECTORROWS_H
#define GATHER_LIB_CONVERSION_MULTIAXISLOWERING_VECTORROWS_H

#include "LoweringState.h"

namespace mlir::gather::lowering {

/// Whether the element gather of `s` can be vectorized along its innermost
/// output dimension.
bool canVectorizeInnermost(const LoweringState &s, Type elementType);

/// What the vector rows of one gather do, decided before any IR is built.
struct VectorRowsPlan {
  /// Elements per vector step.
  int64_t lanes = 0;
  /// The index values change along the row (else every lane reads one).
  bool indicesVary = false;
  /// Only the innermost input coordinate varies per lane: the elements are
  /// one vector.gather from the input row, else from the flat input with
  /// linear offsets.
  bool onlyInnermostVaries = false;
  /// The rows read the offsets of the tuples from a table resolved before
  /// the loops: one scalar load per element.
  bool offsetTable = false;
  /// The order of the loops over the output rows (outerLoopOrder).
  SmallVector<int64_t> order;
  /// Each row prefetches the next input row (planRowPrefetch decides
  /// whether it pays).
  bool prefetchNextRow = false;
  /// Each step prefetches the index values it will read in the next row
  /// (planIndexRowPrefetch decides whether it pays).
  bool prefetchIndexRows = false;
  /// With the offset table: each element prefetches the one at its offset
  /// some iterations ahead (planTablePrefetch decides whether it pays).
  bool prefetchTable = false;
  /// With the offset table: each pixel reads each line of its slice
  /// kOffsetTablePrefetchMaxReadsPerLine times or more (known where the
  /// offset table is broadcast over the pixels and the slice is static).
  bool manyReadsPerLine = false;
  /// With the offset table: the loop over output dimension `tileDim` runs
  /// in tiles of `tileRows` iterations, the loops inside it (the index
  /// rows) each walking the whole tile; tileRows 0: no tiles. Along a
  /// dynamic size the last tile may be partial (`partialTiles`).
  int64_t tileDim = 0;
  int64_t tileRows = 0;
  bool partialTiles = false;
  /// Under a check in the loops, the lanes with an invalid index are
  /// collected along the row and raise the flag once after it.
  bool reports = false;
  /// Lanes with an invalid index are masked off the gather (`fill`, and a
  /// check in the loops).
  bool masksInvalid = false;
  /// Each row's full steps run in chunks of this many elements, the
  /// chunk's offsets resolved (and checked) into a buffer first, then its
  /// elements gathered in a loop of their own; 0: each step does both.
  int64_t offsetChunk = 0;
  /// The output size from which the rows are written with non-temporal
  /// stores (streamingStoreMinBytes); 0: never.
  int64_t streamingStoreMinBytes = 0;
  /// With the offset table: the rows' elements, still one scalar load
  /// each, are collected a vector register of this many at a time and
  /// written as one, so that the rows can stream; 0: one scalar store per
  /// element.
  int64_t offsetRowLanes = 0;
  /// With the offset table: each register of offsetRowLanes elements is
  /// one vector.gather at the offsets read from the table as one vector
  /// (rows that do not stream, on targets with gatherOffsetRows).
  bool gatherOffsetRows = false;
  /// With the offset table: rows that neither stream nor gather collect
  /// registers of offsetRowLanes scalar loads (on targets with
  /// collectOffsetRows).
  bool collectOffsetRows = false;
};

/// The plan for `s` (with its error flag, if any, already made): `offsetTable`
/// and `prefetch` are what the caller allows.
VectorRowsPlan planVectorRows(const LoweringState &s,
                              RankedTensorType outputType, bool offsetTable,
                              bool prefetch);

/// One output row per scf.forall iteration (loops in plan.order), V lanes
/// at a time; with the offset table, one scalar load per element.
Value buildVectorRows(OpBuilder &b, Location loc, const LoweringState &s,
                      Value init, const VectorRowsPlan &plan);

} // namespace mlir::gather::lowering

#endif // GATHER_LIB_CONVERSION_MULTIAXISLOWERING_VECTORROWS_H
