//===- LoopOrder.h - the order of the loops over the output's outer dimensions
//-*- C++ -*-===//
//
// Part of the gather project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#ifndef GATHER_LIB_CONVERSION_MULTIAXISLOWERING_LOOPORDER_H
#define GATHER_LIB_CONVERSION_MULTIAXISLOWERING_LOOPORDER_H

#include "LoweringState.h"

#include <optional>

namespace mlir::gather::lowering {

/// The loops over output dimensions [0, numLoops), outermost first: the
/// dimensions the input spans before those along which only the index
/// values change, where all that the inner ones read for one position of
/// the outer ones fits the L1 cache (so that it is read from memory once);
/// else the output's order.
SmallVector<int64_t> outerLoopOrder(const LoweringState &s, int64_t numLoops,
                                    Type elementType);

/// Bytes of input that the loops over all non-spanning dimensions read for
/// one position of the spanning ones, at most: the axes' extent, the
/// innermost dimension in whole cache lines. nullopt when a size is dynamic
/// (and not bounded: LoweringState::inputSizeBounds) or the product
/// overflows.
std::optional<int64_t> axesFootprintBytes(const LoweringState &s,
                                          Type elementType);

/// Whether the input's axes footprint (axesFootprintBytes, computed from
/// its sizes at run time) is within `budget`: an i1. The same rule, built
/// from the same code.
Value buildAxesFootprintFits(OpBuilder &b, Location loc, const LoweringState &s,
                             Type elementType, int64_t budget);

/// The innermost output dimension before `blockStart` whose size is not
/// statically 1 (the order one thread runs the loops in), or nullopt.
std::optional<int64_t> innermostLoopDimension(ArrayRef<int64_t> outputShape,
                                              int64_t blockStart);

/// The innermost loop of `order` that moves along the input (a non-axis
/// dimension the input does not broadcast, with more than one iteration),
/// the reads one of its iterations makes (the output row's length times
/// the loops inside it) and whether a loop of more than one iteration is
/// inside it. A dynamic size counts as more than 1, and reads of a dynamic
/// row, past a dynamic loop or an overflow saturate at INT64_MAX;
/// nullopt where there is no such loop or an iteration reads nothing.
struct InputLoop {
  int64_t dim = 0;
  int64_t reads = 0;
  bool innerLoops = false;
};
std::optional<InputLoop> innermostInputLoop(const LoweringState &s,
                                            ArrayRef<int64_t> order,
                                            RankedTensorType outputType);

} // namespace mlir::gather::lowering

#endif // GATHER_LIB_CONVERSION_MULTIAXISLOWERING_LOOPORDER_H
