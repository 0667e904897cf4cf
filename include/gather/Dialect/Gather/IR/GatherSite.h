//===- GatherSite.h - where a gather's run-time errors point ----*- C++ -*-===//
//
// Part of the gather project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// A run-time error names the gather it comes from: its kind, file, line and
// column. The text (kind and file) is one string per module and kind; the
// line and column are numbers, constants where the gather is written, or
// arguments of a function that several gathers call (gather.site_arguments).
//
//===----------------------------------------------------------------------===//

#ifndef GATHER_DIALECT_GATHER_IR_GATHERSITE_H
#define GATHER_DIALECT_GATHER_IR_GATHERSITE_H

#include "mlir/IR/Location.h"
#include "mlir/IR/Value.h"

#include <optional>
#include <string>
#include <utility>

namespace mlir::gather {

/// Where a run-time error points: "gather.block at file.mlir" (or just the
/// op name without a file location) and the line and column (0 unknown).
struct GatherSite {
  std::string text;
  unsigned line = 0, column = 0;
};
GatherSite describeGatherSite(StringRef opName, Location loc);

/// The line and column (i64) that the run-time errors of `op` name, when
/// the function around it takes them as arguments (gather.site_arguments):
/// its last two.
std::optional<std::pair<Value, Value>> getSiteArguments(Operation *op);

} // namespace mlir::gather

#endif // GATHER_DIALECT_GATHER_IR_GATHERSITE_H
