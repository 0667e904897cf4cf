//===- UsedValues.h - the values an op reads, its regions included -*- C++
//-*-===//
//
// Part of the gather project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// What the GPU passes that move host code around a kernel ask of an op
// (gather-fuse-device-consumers, gather-gpu-streams): which values from
// outside it does it use.
//
//===----------------------------------------------------------------------===//

#ifndef GATHER_UTILS_USEDVALUES_H
#define GATHER_UTILS_USEDVALUES_H

#include "mlir/IR/Operation.h"
#include "mlir/Transforms/RegionUtils.h"

#include "llvm/ADT/SetVector.h"

namespace mlir::gather {

/// Adds to `values` the operands of `op` and the values defined above its
/// regions that ops nested in them use.
inline void addUsedValues(Operation *op, llvm::SetVector<Value> &values) {
  values.insert(op->operand_begin(), op->operand_end());
  for (Region &region : op->getRegions())
    getUsedValuesDefinedAbove(region, values);
}

/// The operands of `op` and the values from above its regions its nested
/// ops use.
inline llvm::SetVector<Value> usedValues(Operation *op) {
  llvm::SetVector<Value> values;
  addUsedValues(op, values);
  return values;
}

} // namespace mlir::gather

#endif // GATHER_UTILS_USEDVALUES_H
