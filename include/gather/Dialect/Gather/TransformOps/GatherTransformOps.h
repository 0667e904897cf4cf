//===- GatherTransformOps.h - transform ops of the gather dialect -*- C++
//-*-===//
//
// Part of the gather project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#ifndef GATHER_DIALECT_GATHER_TRANSFORMOPS_GATHERTRANSFORMOPS_H
#define GATHER_DIALECT_GATHER_TRANSFORMOPS_GATHERTRANSFORMOPS_H

#include "mlir/Dialect/Transform/IR/TransformTypes.h"
#include "mlir/Dialect/Transform/Interfaces/TransformInterfaces.h"
#include "mlir/IR/OpImplementation.h"
#include "mlir/IR/PatternMatch.h"

namespace mlir {
class DialectRegistry;

namespace gather {
/// Registers the `transform.apply_patterns.gather.*` ops.
void registerTransformDialectExtension(DialectRegistry &registry);
} // namespace gather
} // namespace mlir

#define GET_OP_CLASSES
#include "gather/Dialect/Gather/TransformOps/GatherTransformOps.h.inc"

#endif // GATHER_DIALECT_GATHER_TRANSFORMOPS_GATHERTRANSFORMOPS_H
