//===- BlockCopy.h - trailing blocks copied whole ---------------*- C++ -*-===//
//
// Part of the gather project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#ifndef GATHER_LIB_CONVERSION_MULTIAXISLOWERING_BLOCKCOPY_H
#define GATHER_LIB_CONVERSION_MULTIAXISLOWERING_BLOCKCOPY_H

#include "LoweringState.h"

namespace mlir::gather::lowering {

/// First output dimension of the trailing block that is copied from the
/// input whole (`rank` when there is none).
int64_t contiguousBlockStart(const LoweringState &s,
                             ArrayRef<int64_t> outputShape);

/// How the trailing block is copied, decided before any IR is built.
struct BlockCopyPlan {
  enum class Copy {
    /// One slice per block (a memcpy after bufferization).
    Slice,
    /// Rows of a cache line or more with vector loads and stores.
    VectorRows,
    /// Small blocks in tiles along the innermost loop dimension, their
    /// index tuples read and resolved as vectors.
    Tiles,
  };
  Copy copy = Copy::Slice;
  /// The first output dimension of the block.
  int64_t blockStart = 0;
  /// Copy::Tiles: the loop dimension tiled; every tile full (a static
  /// extent that is a multiple of the tile, no run-time broadcast); the
  /// loop over a tile's blocks kept rolled (gather.rolled_loop).
  int64_t tileDim = 0;
  bool alwaysFullTiles = false;
  bool rolledLaneLoop = false;
  /// Copy::Tiles: a full tile's blocks copied a vector register at a time
  /// (rows of a cache line or more), not as slices.
  bool tileRowsInRegisters = false;
  /// Copy::VectorRows with rows of dynamic length: at run time, rows within
  /// the byte bounds of static ones in registers (whole registers, then
  /// one masked), other blocks as one slice.
  bool dynamicRows = false;
  /// Copy::Tiles: blocks per tile (CpuTarget::tileBlocks).
  int64_t tileBlocks = 16;
  /// Prefetch allowed (planBlockPrefetch decides whether it pays).
  bool prefetch = false;
  /// Copy::VectorRows, or Copy::Tiles with tileRowsInRegisters: the output
  /// size from which the rows are written with non-temporal stores (the
  /// loop marked gather.streaming_stores, decided at run time where the
  /// size or the alignment is not static); 0: never.
  int64_t streamingStoreMinBytes = 0;
  /// Copy::VectorRows: the rows stream from memory (streamingInputMinBytes),
  /// so that blocks up to CpuTarget::vectorCopyMaxBytes(true) take them.
  bool streamedFromMemory = false;
};

/// The plan for the block of `s` from `blockStart` on (after the
/// coordinate table, if any, is made): `prefetch` and `vectorRows` are what
/// the strategy allows; the sizes come from `s.target`.
BlockCopyPlan planBlockCopy(const LoweringState &s, RankedTensorType outputType,
                            int64_t blockStart, bool prefetch, bool vectorRows);

/// An scf.forall over the output dimensions before the block (or its tiles
/// along one); each iteration copies one block (or tile) as `plan` says.
Value buildBlockCopy(OpBuilder &b, Location loc, const LoweringState &s,
                     Value init, const BlockCopyPlan &plan);

} // namespace mlir::gather::lowering

#endif // GATHER_LIB_CONVERSION_MULTIAXISLOWERING_BLOCKCOPY_H
