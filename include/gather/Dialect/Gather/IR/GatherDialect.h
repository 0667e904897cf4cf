//===- GatherDialect.h - gather dialect -------------------------*- C++ -*-===//
//
// Part of the gather project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#ifndef GATHER_DIALECT_GATHER_IR_GATHERDIALECT_H
#define GATHER_DIALECT_GATHER_IR_GATHERDIALECT_H

#include "mlir/IR/Attributes.h"
#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/Dialect.h"
#include "mlir/IR/Operation.h"

#include "gather/Dialect/Gather/IR/GatherEnums.h.inc"

// Before the dialect, whose discardable attribute helpers use them.
#define GET_ATTRDEF_CLASSES
#include "gather/Dialect/Gather/IR/GatherAttrs.h.inc"

#include "gather/Dialect/Gather/IR/GatherOpsDialect.h.inc"

#endif // GATHER_DIALECT_GATHER_IR_GATHERDIALECT_H
