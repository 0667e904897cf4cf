//===- TripCount.h - static trip counts of loops --------------*- C++ -*-===//
//
// Part of the gather project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// One definition of a loop dimension's static trip count for the passes
// that size loops (the parallel-loop pass, the GPU mapping): exact in
// APInt arithmetic, so bounds near the ends of int64 cannot overflow.
//
//===----------------------------------------------------------------------===//

#ifndef GATHER_UTILS_TRIPCOUNT_H
#define GATHER_UTILS_TRIPCOUNT_H

#include "mlir/Dialect/Utils/StaticValueUtils.h"
#include "mlir/IR/Value.h"
#include "llvm/ADT/APSInt.h"

#include <limits>
#include <optional>

namespace mlir::gather {

/// Iterations of `for i = lb; i < ub; i += step` with constant operands
/// (signed bounds, positive step), saturated at INT64_MAX; nullopt when an
/// operand is not constant or the step is not positive.
inline std::optional<int64_t> getStaticTripCount(Value lb, Value ub,
                                                 Value step) {
  std::optional<int64_t> constantStep = getConstantIntValue(step);
  if (!constantStep || *constantStep <= 0)
    return std::nullopt;
  std::optional<APInt> count =
      constantTripCount(lb, ub, step, /*isSigned=*/true,
                        [](Value, Value, bool) -> std::optional<llvm::APSInt> {
                          return std::nullopt;
                        });
  if (!count)
    return std::nullopt;
  return static_cast<int64_t>(count->getLimitedValue(
      static_cast<uint64_t>(std::numeric_limits<int64_t>::max())));
}

} // namespace mlir::gather

#endif // GATHER_UTILS_TRIPCOUNT_H
