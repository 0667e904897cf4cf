//===- DestinationEntries.h - results into the caller's buffers -*- C++ -*-===//
//
// Part of the gather project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// The entry ABI of compiled functions: gather-destination-entries adds them,
// the C API (gatherProgramRunInto) and Python's out= call them by these
// names.
//
//===----------------------------------------------------------------------===//

#ifndef GATHER_ABI_DESTINATIONENTRIES_H
#define GATHER_ABI_DESTINATIONENTRIES_H

#include "mlir/Pass/Pass.h"
#include "llvm/ADT/StringRef.h"

namespace mlir::gather {

#define GEN_PASS_DECL
#include "gather/ABI/Passes.h.inc"

#define GEN_PASS_REGISTRATION
#include "gather/ABI/Passes.h.inc"

/// The entries gather-destination-entries adds for a function `@f`:
/// `@f__into` (results into caller buffers) and `@f__shape` (their sizes).
inline constexpr llvm::StringLiteral kIntoEntrySuffix = "__into";
inline constexpr llvm::StringLiteral kShapeEntrySuffix = "__shape";

} // namespace mlir::gather

#endif // GATHER_ABI_DESTINATIONENTRIES_H
