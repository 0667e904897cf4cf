//===- Elementwise.h - consumers a gather's loops can absorb ----*- C++ -*-===//
//
// Part of the gather project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// One definition of the elementwise consumer for both fusions: the CPU's
// (gather-fuse-consumers, into the consumer's tiles) and the GPU's
// (gather-fuse-device-consumers, into the gather's kernel).
//
//===----------------------------------------------------------------------===//

#ifndef GATHER_UTILS_ELEMENTWISE_H
#define GATHER_UTILS_ELEMENTWISE_H

#include "mlir/Dialect/Linalg/IR/Linalg.h"

namespace mlir::gather {

/// All loops parallel and one output written at the loop position: each
/// output element depends only on the inputs at its own position (other
/// inputs may be broadcast, read through their maps).
inline bool isElementwise(linalg::GenericOp op) {
  return op.getNumLoops() == op.getNumParallelLoops() &&
         op.getNumDpsInits() == 1 &&
         op.getMatchingIndexingMap(op.getDpsInitOperand(0)).isIdentity();
}

} // namespace mlir::gather

#endif // GATHER_UTILS_ELEMENTWISE_H
