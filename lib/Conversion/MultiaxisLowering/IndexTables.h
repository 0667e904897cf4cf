//===- IndexTables.h - indices resolved once where many iterations reuse them
//-*- C++ -*-===//
//
// Part of the gather project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#ifndef GATHER_LIB_CONVERSION_MULTIAXISLOWERING_INDEXTABLES_H
#define GATHER_LIB_CONVERSION_MULTIAXISLOWERING_INDEXTABLES_H

#include "LoweringState.h"

namespace mlir::gather::lowering {

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

/// An entry of either table (an index, or a vector of them) as a `fill`
/// read takes it: the entry, or 0 where it marks a miss (-1), and whether
/// it is a hit (i1 of the entry's shape).
std::pair<Value, Value> readFillTableEntry(OpBuilder &b, Location loc,
                                           Value entry);

} // namespace mlir::gather::lowering

#endif // GATHER_LIB_CONVERSION_MULTIAXISLOWERING_INDEXTABLES_H
