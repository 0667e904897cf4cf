//===- RuntimeErrors.h - the run-time error ABI in emitted code -*- C++ -*-===//
//
// The one place that emits calls to the run-time error hook: its
// declaration, the constant site strings ("op at file:line:col") and the
// call. The kinds are RuntimeErrorKind (gather/Dialect/Gather/IR); the hook
// is implemented in lib/Runtime.
//
//===----------------------------------------------------------------------===//

#ifndef GATHER_CONVERSION_MULTIAXISLOWERING_RUNTIMEERRORS_H
#define GATHER_CONVERSION_MULTIAXISLOWERING_RUNTIMEERRORS_H

#include "gather/Dialect/Gather/IR/RuntimeErrorKind.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/SymbolTable.h"

#include <string>

namespace mlir::gather {

/// Where a run-time error points: the op the user wrote (the original
/// ONNX-style op, recorded in a NameLoc by the rewrite to multiaxis) and its
/// file location, if any.
struct GatherSite {
  /// "gather.block at file.mlir", or "gather.block" without a file.
  std::string text;
  unsigned line = 0, column = 0;
};
GatherSite describeGatherSite(Operation *op);

/// Emits `__gather_runtime_error(site, line, column, kind, count, details)`
/// at the builder's insertion point, naming `op`'s site. `details` are i64
/// values whose meaning depends on `kind`. The hook's declaration and the
/// site string (one per op kind and file) are created in the enclosing
/// module when missing, looked up through `symbolTables` when given.
void emitRuntimeErrorCall(OpBuilder &b, Location loc, Operation *op, Value kind,
                          ValueRange details = {},
                          SymbolTableCollection *symbolTables = nullptr);

/// The same with a kind known at compile time.
void emitRuntimeErrorCall(OpBuilder &b, Location loc, Operation *op,
                          RuntimeErrorKind kind, ValueRange details = {},
                          SymbolTableCollection *symbolTables = nullptr);

/// Makes `indices` (a tensor in device memory) readable on the host: a
/// host buffer with their values, built on the failing path only.
using IndicesToHostFn = Value (*)(OpBuilder &, Location, Value indices);

/// Reports an invalid index of `gatherOp` (any GatherOpInterface op) under
/// `out_of_bounds = error`, on the failing path only: a serial scan of the
/// indices finds the first invalid value, and the call passes its value,
/// position, source dimension and size (RuntimeErrorKind). After the
/// rewrite to multiaxis, the position and the dimension are mapped back
/// through the unit-dimension reshapes to the op as written. With
/// `indicesToHost` (indices in device memory) the scan reads the host copy
/// it returns. The scan and the hook call are a private `noinline` function
/// of the module (`__gather_index_report_<hash>`), one per indices type,
/// policy and argument split, which every gather with them calls with its
/// indices as a buffer of any layout (`bufferization.to_buffer` of a
/// tensor), its sizes, the dimensions to name and its site.
///
/// With `onlyIfInvalid` the scan decides whether there is an error at all
/// (`__gather_index_check_<hash>` returns when every index is valid): the
/// check of indices that no loop reads (an empty output or axis), on the
/// path where the loops did not run.
void emitIndexOutOfBoundsReport(OpBuilder &b, Location loc, Operation *gatherOp,
                                IndicesToHostFn indicesToHost = nullptr,
                                SymbolTableCollection *symbolTables = nullptr,
                                bool onlyIfInvalid = false);

} // namespace mlir::gather

#endif // GATHER_CONVERSION_MULTIAXISLOWERING_RUNTIMEERRORS_H
