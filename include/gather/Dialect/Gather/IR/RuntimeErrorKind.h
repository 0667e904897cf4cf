//===- RuntimeErrorKind.h - run-time errors of compiled gathers -*- C++ -*-===//
//
// The one definition of the run-time error kinds. The lowerings pass a kind
// to the error hook that compiled code calls when a check fails, and
// lib/Runtime turns it into a message. Plain C++ without MLIR, so that the
// runtime library can include it too.
//
//===----------------------------------------------------------------------===//

#ifndef GATHER_DIALECT_GATHER_IR_RUNTIMEERRORKIND_H
#define GATHER_DIALECT_GATHER_IR_RUNTIMEERRORKIND_H

#include <cstdint>

namespace mlir::gather {

/// Name of the hook compiled code calls when a run-time check fails:
/// `void __gather_runtime_error(i64 site, i64 line, i64 column, i64 kind,
///                              i64 count, i64 details)`.
/// `site` is the address of a NUL-terminated "op at file" string (or just
/// "op" without a file location), shared by every op of that kind in that
/// file so that a module holds few of them; `line` and `column` complete
/// the location (0 when unknown). `kind` is a RuntimeErrorKind and
/// `details` the address of `count` i64 values whose meaning depends on the
/// kind.
inline constexpr const char *kRuntimeErrorHook = "__gather_runtime_error";

enum class RuntimeErrorKind : int64_t {
  /// An index value outside its dimension under `out_of_bounds = error`.
  IndexOutOfBounds = 1,
  /// Dynamic operand sizes that do not fit together: a non-axis dimension
  /// that is not broadcast-compatible, or a dynamic last indices dimension
  /// that does not hold whole coordinates.
  ShapeMismatch = 2,
  /// A gather.elements indices dimension larger than the data dimension
  /// off the gather axis.
  IndicesLargerThanData = 3,
  /// A destination (`init`) whose dynamic size differs from the output size
  /// that the operands give.
  InitSizeMismatch = 4,
};

/// The message text of a kind (without the site).
inline const char *describeRuntimeErrorKind(int64_t kind) {
  switch (static_cast<RuntimeErrorKind>(kind)) {
  case RuntimeErrorKind::IndexOutOfBounds:
    return "index out of bounds";
  case RuntimeErrorKind::ShapeMismatch:
    return "operand shapes are not broadcast-compatible at run time";
  case RuntimeErrorKind::IndicesLargerThanData:
    return "an indices dimension is larger than the data dimension";
  case RuntimeErrorKind::InitSizeMismatch:
    return "the init size differs from the output size";
  }
  return "run-time check failed";
}

} // namespace mlir::gather

#endif // GATHER_DIALECT_GATHER_IR_RUNTIMEERRORKIND_H
