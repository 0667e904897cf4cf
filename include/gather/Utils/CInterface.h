//===- CInterface.h - MLIR's C interface wrappers by name -------*- C++ -*-===//
//
// Part of the gather project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// The name MLIR's LLVM lowering gives the C interface of a function with
// `llvm.emit_c_interface` (`_mlir_ciface_<f>`, which takes descriptors by
// pointer and calls `<f>`): MLIR exposes no constant for it, so the passes
// and the JIT that treat those wrappers apart name it here once.
//
//===----------------------------------------------------------------------===//

#ifndef GATHER_UTILS_CINTERFACE_H
#define GATHER_UTILS_CINTERFACE_H

#include "llvm/ADT/StringRef.h"

namespace mlir::gather {

inline constexpr llvm::StringLiteral kCInterfacePrefix = "_mlir_ciface_";

/// Whether `name` is the C interface wrapper of another function.
inline bool isCInterfaceWrapper(llvm::StringRef name) {
  return name.starts_with(kCInterfacePrefix);
}

} // namespace mlir::gather

#endif // GATHER_UTILS_CINTERFACE_H
