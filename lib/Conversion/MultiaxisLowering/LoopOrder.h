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

/// The innermost output dimension before `blockStart` whose size is not
/// statically 1 (the order one thread runs the loops in), or nullopt.
std::optional<int64_t> innermostLoopDimension(ArrayRef<int64_t> outputShape,
                                              int64_t blockStart);

} // namespace mlir::gather::lowering

#endif // GATHER_LIB_CONVERSION_MULTIAXISLOWERING_LOOPORDER_H
