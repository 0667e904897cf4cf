//===- LoweringPlan.h - how one gather.multiaxis is lowered -----*- C++ -*-===//
//
// Part of the gather project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// The decisions of one lowering, made from the op's types and the strategy
// before any of the strategy's IR is built; LowerMultiaxis.cpp emits what
// the plan says.
//
//===----------------------------------------------------------------------===//

#ifndef GATHER_LIB_CONVERSION_MULTIAXISLOWERING_LOWERINGPLAN_H
#define GATHER_LIB_CONVERSION_MULTIAXISLOWERING_LOWERINGPLAN_H

#include "LoweringState.h"

#include "mlir/Dialect/SCF/IR/SCF.h"

namespace mlir::gather::lowering {

struct LoweringPlan {
  /// How the index values are checked under `out_of_bounds = error`: not at
  /// all (another policy, or constant indices the verifier proved in
  /// bounds), in the gather's own loops (a flag they raise, decided after
  /// them: one pass over the indices), or by a reduction before the loops
  /// (strategies whose loops cannot raise a flag).
  enum class IndexCheck { None, InLoops, BeforeLoops };
  IndexCheck indexCheck = IndexCheck::None;
  /// Where the flag of checks in the loops lives: on the heap when the
  /// gather is itself in a loop (a tile of a fused nest), where a stack
  /// slot would need an alloca scope that cannot hold the loops once they
  /// become branches; else on the stack (or where the strategy puts it).
  bool flagOnHeap = false;

  /// What computes the output.
  enum class Form {
    /// The strategy's own element loops (MultiaxisLoweringStrategy).
    ElementLoops,
    /// A trailing block of the output copied whole per coordinate.
    BlockCopy,
    /// Element gathers vectorized along the innermost dimension.
    VectorRows,
  };
  Form form = Form::ElementLoops;
  /// Form::BlockCopy: the first output dimension of the block.
  int64_t blockStart = 0;
  /// Form::VectorRows: the rows read the offsets of coordinate tuples that
  /// many rows reuse from a table resolved before the loops.
  bool offsetTable = false;
  /// Form::ElementLoops and Form::BlockCopy: the indices that many
  /// iterations reuse resolved into a table of coordinates before the loops.
  bool coordinateTable = false;
};

/// The bytes of `type`'s dimensions from `start` on (a block of the input
/// from its first block dimension, the whole tensor from 0), or nullopt
/// where one of them is dynamic or the elements are not whole bytes. The
/// product saturates: with a zero dimension elsewhere the verifier lets the
/// other sizes be anything.
std::optional<uint64_t> staticTrailingBytes(RankedTensorType type,
                                            int64_t start = 0);

/// The bytes of the op's input where its shape is static and its elements
/// whole bytes (staticTrailingBytes), else nullopt.
std::optional<uint64_t> staticInputBytes(const LoweringState &s);

/// The output size from which the rows that a vector form writes a
/// register at a time (block rows, vector rows) are written with
/// non-temporal stores, or 0 where they never are: rows of whole cache
/// lines (a line partly written past the caches and partly through them is
/// written twice; a dynamic row length is checked at run time), into an
/// output that may reach the target's streamingStoreMinBytes (a dynamic
/// size is compared at run time). docs/Lowering.md, "Streaming stores",
/// has the measurement.
int64_t streamingStoreMinBytes(const LoweringState &s,
                               RankedTensorType outputType);

/// Marks the loop over the rows `loop` gather.streaming_stores = `minBytes`
/// (for gather-streaming-stores), and where the rows of `outputType` have
/// a dynamic length gather.streaming_row_bytes = the target's cache line;
/// nothing where `minBytes` is 0.
void markStreamingStores(scf::ForallOp loop, int64_t minBytes,
                         const LoweringState &s, RankedTensorType outputType);

/// The plan for the op of `s` with output type `outputType` (the most
/// static type the operands and the destination give).
LoweringPlan planLowering(const LoweringState &s, RankedTensorType outputType,
                          const MultiaxisLoweringStrategy &strategy);

} // namespace mlir::gather::lowering

#endif // GATHER_LIB_CONVERSION_MULTIAXISLOWERING_LOWERINGPLAN_H
