//===- MapToGPU.h - scf.parallel to one gpu.launch --------------*- C++ -*-===//
//
// Part of the gather project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// Private to the GatherToGPU library: shared by gather-map-to-gpu and the
// device index check of convert-gather-to-gpu.
//
//===----------------------------------------------------------------------===//

#ifndef GATHER_LIB_CONVERSION_GATHERTOGPU_MAPTOGPU_H
#define GATHER_LIB_CONVERSION_GATHERTOGPU_MAPTOGPU_H

#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/PatternMatch.h"

namespace mlir::gather {

/// Replaces an scf.parallel without reductions by a 1-D gpu.launch over its
/// linearized iteration space, innermost dimension fastest (consecutive
/// threads take consecutive innermost coordinates), guarded against an
/// empty space. Every change goes through `rewriter`.
LogicalResult mapParallelLoopToGPU(RewriterBase &rewriter, scf::ParallelOp loop,
                                   int64_t threadsPerBlock);

} // namespace mlir::gather

#endif // GATHER_LIB_CONVERSION_GATHERTOGPU_MAPTOGPU_H
