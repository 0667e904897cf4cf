//===- RuntimeErrorKind.h - run-time errors of compiled gathers -*- C++ -*-===//
//
// Part of the gather project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
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
#include <string>

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

/// Name of the function compiled code calls after a loop whose body holds a
/// skipping assert (an AssertionFailed with a second detail 1):
/// `void __gather_runtime_assert_barrier()`. If such an assert failed in the
/// loop and errors are recorded, it returns to the caller's return point
/// (outside any parallel region; inside one it returns, and the barrier
/// after the region does it), or else ends the process.
inline constexpr const char *kAssertBarrier = "__gather_runtime_assert_barrier";

/// Names of the functions that give an OpenMP parallel region the error
/// state of the call that starts it: `ptr __gather_runtime_error_state()`
/// before the region, and `ptr __gather_runtime_adopt_error_state(ptr)` in
/// each thread of the region, at its start with that state and at its end
/// with what the first call returned. A worker thread's reports then go to
/// the caller's errors, not to a state shared with other calls.
inline constexpr const char *kErrorStateOf = "__gather_runtime_error_state";
inline constexpr const char *kAdoptErrorState =
    "__gather_runtime_adopt_error_state";

/// Name of the function the report of a failed index check calls before it
/// scans the indices for the invalid value: `i32
/// __gather_runtime_error_recorded()`, nonzero where the call it reports to
/// has recorded an error already (which a second report would not
/// replace). The scan is skipped there: a gather fused into each step of
/// its consumer's loops reports from every step that read an invalid
/// index, each scan as long as the way to the first invalid value.
inline constexpr const char *kErrorRecorded = "__gather_runtime_error_recorded";

/// Names of the run-time library's allocation functions
/// (`ptr gather_runtime_malloc(i64)`, `void gather_runtime_free(ptr)`):
/// while a call has a return point, they list the blocks it allocates, so
/// that a failed assert that leaves it frees them. The JIT binds the
/// module's malloc and free to them; the CPU pipeline's
/// `runtime-allocator` calls them in code compiled ahead of time.
inline constexpr const char *kRuntimeMalloc = "gather_runtime_malloc";
inline constexpr const char *kRuntimeFree = "gather_runtime_free";

/// Each kind with the details its call passes (i64 each).
enum class RuntimeErrorKind : int64_t {
  /// An index value outside its dimension under `out_of_bounds = error`.
  /// Details: value, source dimension, its size, 1 if negative values wrap
  /// (else 0), the indices rank r, then the r coordinates of the value in
  /// the indices (of the op as written, also after the rewrite to
  /// multiaxis). No details when the scan on the failing path finds no
  /// invalid value (a flag raised without one).
  IndexOutOfBounds = 1,
  /// A non-gathered dimension whose dynamic sizes are not
  /// broadcast-compatible. Details: data dimension, its size, the size of
  /// the indices dimension that it pairs with.
  ShapeMismatch = 2,
  /// A gather.elements indices dimension larger than the data dimension
  /// off the gather axis. Details: dimension, indices size, data size.
  IndicesLargerThanData = 3,
  /// A destination (`init`) whose dynamic size differs from the output size
  /// that the operands give. Details: dimension, init size, output size.
  InitSizeMismatch = 4,
  /// A dynamic last indices dimension of gather.multiaxis that does not
  /// hold whole coordinates. Details: indices dimension, its size, the
  /// coordinate size (number of axes).
  IndicesNotWholeCoordinates = 5,
  /// Code compiled for vector registers of at least some length (an SVE
  /// CPU described with a width, vscale_range; RISC-V V's zvl<N>b) called
  /// on a CPU whose registers are shorter. Details: the bits the code
  /// needs, the CPU's.
  VectorLengthTooShort = 6,
  /// A `cf.assert` of the program that does not hold (the CPU pipeline
  /// lowers them to the hook). Details: the address of the assert's
  /// NUL-terminated message, and optionally 1 where the code skips what the
  /// assert guards when the hook returns (an assert in a loop body, which
  /// then yields zeros; a barrier follows the loop). The program cannot go
  /// on past it: the hook returns to the caller's return point
  /// (gather_runtime_set_assert_return), or, for a skipping assert in a
  /// parallel region, records it and returns (kAssertBarrier), or ends the
  /// process after the message.
  AssertionFailed = 7,
};

/// The keyword of a kind in the IR (`gather.check_shape`), or null for a
/// value that is no kind.
inline const char *getRuntimeErrorKindKeyword(int64_t kind) {
  switch (static_cast<RuntimeErrorKind>(kind)) {
  case RuntimeErrorKind::IndexOutOfBounds:
    return "index_out_of_bounds";
  case RuntimeErrorKind::ShapeMismatch:
    return "shape_mismatch";
  case RuntimeErrorKind::IndicesLargerThanData:
    return "indices_larger_than_data";
  case RuntimeErrorKind::InitSizeMismatch:
    return "init_size_mismatch";
  case RuntimeErrorKind::IndicesNotWholeCoordinates:
    return "indices_not_whole_coordinates";
  case RuntimeErrorKind::VectorLengthTooShort:
    return "vector_length_too_short";
  case RuntimeErrorKind::AssertionFailed:
    return "assertion_failed";
  }
  return nullptr;
}

/// The kinds a shape check reports (all but IndexOutOfBounds).
inline bool isShapeErrorKind(int64_t kind) {
  return kind >= static_cast<int64_t>(RuntimeErrorKind::ShapeMismatch) &&
         kind <=
             static_cast<int64_t>(RuntimeErrorKind::IndicesNotWholeCoordinates);
}

/// The message text of a kind (without the site or details).
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
  case RuntimeErrorKind::IndicesNotWholeCoordinates:
    return "the last indices dimension does not hold whole coordinates";
  case RuntimeErrorKind::VectorLengthTooShort:
    return "this CPU's vector registers are shorter than the code needs";
  case RuntimeErrorKind::AssertionFailed:
    return "assertion failed";
  }
  return "run-time check failed";
}

/// The message of a failed run-time check (without the site): the kind's
/// text with its details, e.g. "index 5000 at indices[0, 3] is out of range
/// [-1000, 999] for dimension 0 (size 1000)". Falls back to the plain text
/// when the details are missing.
inline std::string formatRuntimeError(int64_t kind, int64_t count,
                                      const int64_t *details) {
  auto at = [&](int64_t i) { return std::to_string(details[i]); };
  switch (static_cast<RuntimeErrorKind>(kind)) {
  case RuntimeErrorKind::IndexOutOfBounds: {
    if (count < 5 || count != 5 + details[4])
      break;
    int64_t size = details[2];
    std::string text = "index " + at(0) + " at indices[";
    for (int64_t d = 0; d < details[4]; ++d)
      text += (d ? ", " : "") + at(5 + d);
    text += "] is out of range ";
    if (size == 0)
      text += "(no valid index)";
    else
      text += "[" + std::to_string(details[3] ? -size : 0) + ", " +
              std::to_string(size - 1) + "]";
    return text + " for dimension " + at(1) + " (size " + at(2) + ")";
  }
  case RuntimeErrorKind::ShapeMismatch:
    if (count < 3)
      break;
    return "data dimension " + at(0) + " (size " + at(1) +
           ") is not broadcast-compatible with its indices dimension (size " +
           at(2) + ")";
  case RuntimeErrorKind::IndicesLargerThanData:
    if (count < 3)
      break;
    return "indices dimension " + at(0) + " (size " + at(1) +
           ") is larger than data dimension " + at(0) + " (size " + at(2) + ")";
  case RuntimeErrorKind::InitSizeMismatch:
    if (count < 3)
      break;
    return "init dimension " + at(0) + " has size " + at(1) +
           " but the output's is " + at(2);
  case RuntimeErrorKind::IndicesNotWholeCoordinates:
    if (count < 3)
      break;
    return "indices dimension " + at(0) + " (size " + at(1) +
           ") is not a multiple of the coordinate size " + at(2);
  case RuntimeErrorKind::VectorLengthTooShort:
    if (count < 2)
      break;
    return "the code needs vector registers of at least " + at(0) +
           " bits, this CPU's are " + at(1) + " bits";
  case RuntimeErrorKind::AssertionFailed:
    if (count < 1 || !details[0])
      break;
    return std::string("assertion failed: ") +
           reinterpret_cast<const char *>(details[0]);
  }
  return describeRuntimeErrorKind(kind);
}

} // namespace mlir::gather

#endif // GATHER_DIALECT_GATHER_IR_RUNTIMEERRORKIND_H
