//===- GatherToTensor.h - gather ops back to tensor.gather -----*- C++ -*-===//
//
// Part of the gather project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#ifndef GATHER_CONVERSION_GATHERTOTENSOR_H
#define GATHER_CONVERSION_GATHERTOTENSOR_H

#include "gather/Dialect/Gather/IR/GatherShapes.h"

#include "mlir/Pass/Pass.h"

namespace mlir {
class RewritePatternSet;

namespace gather {
class MultiaxisOp;

#define GEN_PASS_DECL_CONVERTGATHERTOTENSOR
#include "gather/Conversion/Passes.h.inc"

struct GatherToTensorOptions {
  /// Convert whatever the index policy, assuming every index is in range
  /// and non-negative (tensor.gather defines nothing else).
  bool assumeInBounds = false;
};

/// Whether `op` has a tensor.gather form; otherwise reports why through
/// `emitError` when given (the dimension that pairs input and indices
/// element-wise, axes that do not increase, a policy it would drop).
LogicalResult checkTensorGatherForm(MultiaxisOp op,
                                    const GatherToTensorOptions &options,
                                    EmitErrorFn emitError = nullptr);

/// The rewrites of gather.block, gather.elements and gather.nd into
/// gather.multiaxis and its simplifications, and gather.multiaxis to
/// tensor.gather (+ reshapes, linalg.transpose) where it has that form.
void populateGatherToTensorPatterns(RewritePatternSet &patterns,
                                    const GatherToTensorOptions &options = {});

} // namespace gather
} // namespace mlir

#endif // GATHER_CONVERSION_GATHERTOTENSOR_H
