//===- Idioms.h - shared matchers of convert-linalg-to-gather ---*- C++ -*-===//
//
// Part of the gather project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// What the raise of gather-like generics (LinalgToGather.cpp) and of
// embedding bags (SegmentSums.cpp) both read in a generic's body.
//
//===----------------------------------------------------------------------===//

#ifndef GATHER_LIB_CONVERSION_LINALGTOGATHER_IDIOMS_H
#define GATHER_LIB_CONVERSION_LINALGTOGATHER_IDIOMS_H

#include "mlir/Dialect/Arith/IR/Arith.h"

#include <optional>

namespace mlir::gather::linalg_to_gather {

/// `value` through the integer casts that keep it (index_cast, extsi and
/// their unsigned forms); `isUnsigned` is set for a zero-extension.
Value lookThroughCasts(Value value, bool *isUnsigned = nullptr);

/// The constant `value` is, through those casts.
std::optional<int64_t> constantOf(Value value);

/// Whether `value` is the size of dimension `dim` of `table` plus `delta`:
/// a constant, or `tensor.dim` (minus 1 for delta -1), through casts.
bool isSizePlus(Value value, Value table, int64_t dim, int64_t delta);

/// The predicate of the same test with the operands swapped.
arith::CmpIPredicate swappedPredicate(arith::CmpIPredicate predicate);

} // namespace mlir::gather::linalg_to_gather

#endif // GATHER_LIB_CONVERSION_LINALGTOGATHER_IDIOMS_H
