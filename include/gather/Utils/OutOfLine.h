//===- OutOfLine.h - functions LLVM must not inline ------------*- C++ -*-===//
//
// Part of the gather project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// The passes that make functions for compile time (split pieces, outlined
// gathers, shared report functions) need them to stay functions through
// LLVM: its inliner would copy a small one back into every caller and
// compile it once per call again. func.func's `passthrough` becomes the
// LLVM function's attributes.
//
//===----------------------------------------------------------------------===//

#ifndef GATHER_UTILS_OUTOFLINE_H
#define GATHER_UTILS_OUTOFLINE_H

#include "mlir/Dialect/Func/IR/FuncOps.h"

namespace mlir::gather {

/// Marks `function` noinline for LLVM, and cold where only a failing check
/// reaches it.
inline void keepOutOfLine(func::FuncOp function, bool cold = false) {
  Builder b(function.getContext());
  SmallVector<Attribute, 2> attributes = {b.getStringAttr("noinline")};
  if (cold)
    attributes.push_back(b.getStringAttr("cold"));
  function->setAttr("passthrough", b.getArrayAttr(attributes));
}

} // namespace mlir::gather

#endif // GATHER_UTILS_OUTOFLINE_H
