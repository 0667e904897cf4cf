//===- TosaToGather.h - tosa.gather to gather.multiaxis --------*- C++ -*-===//
//
// Part of the gather project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#ifndef GATHER_CONVERSION_TOSATOGATHER_H
#define GATHER_CONVERSION_TOSATOGATHER_H

#include "mlir/Pass/Pass.h"

namespace mlir {
class RewritePatternSet;

namespace gather {

#define GEN_PASS_DECL_CONVERTTOSAGATHERTOGATHER
#include "gather/Conversion/Passes.h.inc"

/// Converts tosa.gather ([N, K, C] values, [N, W] indices) into
/// gather.multiaxis with TOSA's requirement 0 <= index < K as an error.
void populateTosaToGatherPatterns(RewritePatternSet &patterns);

} // namespace gather
} // namespace mlir

#endif // GATHER_CONVERSION_TOSATOGATHER_H
