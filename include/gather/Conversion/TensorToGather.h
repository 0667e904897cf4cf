//===- TensorToGather.h - tensor.gather to gather.multiaxis ----*- C++ -*-===//
//
// Part of the gather project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#ifndef GATHER_CONVERSION_TENSORTOGATHER_H
#define GATHER_CONVERSION_TENSORTOGATHER_H

#include "gather/Dialect/Gather/IR/GatherDialect.h"

#include "mlir/Pass/Pass.h"

namespace mlir {
class RewritePatternSet;

namespace gather {

#define GEN_PASS_DECL_CONVERTTENSORGATHERTOGATHER
#include "gather/Conversion/Passes.h.inc"

struct TensorToGatherOptions {
  /// tensor.gather defines nothing for out-of-range indices: the policy the
  /// converted op applies (negative indices never wrap).
  OutOfBoundsMode outOfBounds = OutOfBoundsMode::error;
};

/// Converts upstream tensor.gather into gather.multiaxis (+ reshapes).
void populateTensorToGatherPatterns(RewritePatternSet &patterns,
                                    const TensorToGatherOptions &options = {});

} // namespace gather
} // namespace mlir

#endif // GATHER_CONVERSION_TENSORTOGATHER_H
