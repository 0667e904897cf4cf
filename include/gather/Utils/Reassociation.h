//===- Reassociation.h - reassociations that mean what they say -*- C++ -*-===//
//
// Part of the gather project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// MLIR 22's reshape verifiers check a reassociation through affine
// dimension expressions, which take an unsigned position: an index of 2^32
// passes for 0. Code that indexes shapes with the indices must check them
// first (found by the fuzzer: [[4294967296, 1]] crashed a rewrite).
//
//===----------------------------------------------------------------------===//

#ifndef GATHER_UTILS_REASSOCIATION_H
#define GATHER_UTILS_REASSOCIATION_H

#include "mlir/Dialect/Utils/ReshapeOpsUtils.h"

#include <optional>

namespace mlir::gather {

/// The first position at which the concatenated `groups` are not
/// 0, 1, ..., `expandedRank` - 1 (their length when they stop short), or
/// nullopt when they are exactly that. No groups at all is the reshape of a
/// rank-0 value to unit dimensions (or back), which names no position.
inline std::optional<int64_t>
findMisplacedReassociationIndex(ArrayRef<ReassociationIndices> groups,
                                int64_t expandedRank) {
  if (groups.empty())
    return std::nullopt;
  int64_t position = 0;
  for (const ReassociationIndices &group : groups)
    for (int64_t index : group) {
      if (index != position)
        return position;
      ++position;
    }
  if (position != expandedRank)
    return position;
  return std::nullopt;
}

} // namespace mlir::gather

#endif // GATHER_UTILS_REASSOCIATION_H
