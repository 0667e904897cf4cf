//===- GatherShapes.h - shape rules shared by all gather ops ----*- C++ -*-===//
//
// The one place where the rank and shape rules of the gather ops live. The
// verifiers, type inference, shape reification and the lowerings all use it,
// so that a rule cannot be checked one way and computed another.
//
//===----------------------------------------------------------------------===//

#ifndef GATHER_DIALECT_GATHER_IR_GATHERSHAPES_H
#define GATHER_DIALECT_GATHER_IR_GATHERSHAPES_H

#include "mlir/IR/Builders.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/OpDefinition.h"
#include "mlir/Support/LLVM.h"
#include "llvm/ADT/STLFunctionalExtras.h"
#include <optional>

namespace mlir::gather {

/// Produces a diagnostic to stream the broken rule into. A null function
/// means "check silently".
using EmitErrorFn = llvm::function_ref<InFlightDiagnostic()>;

/// Where one output dimension's size comes from. With both a data and an
/// indices dimension the size is their broadcast (equal, or one of them 1).
struct OutputDimSource {
  std::optional<unsigned> dataDim;
  std::optional<unsigned> indicesDim;
  /// The indices dimension holds this many index values per coordinate
  /// (multiaxis folds the coordinates into the last dimension).
  int64_t indicesDivisor = 1;
};

/// Result of checking a gather's operand shapes.
struct GatherShape {
  /// Static output shape, ShapedType::kDynamic where unknown.
  SmallVector<int64_t> outputShape;
  SmallVector<OutputDimSource> dimSources;
};

/// Broadcast of two static-or-dynamic sizes that are known compatible.
int64_t broadcastDimSize(int64_t a, int64_t b);

/// Checks `gather.multiaxis` (operand names: input, indices).
FailureOr<GatherShape> analyzeMultiaxisShapes(ArrayRef<int64_t> inputShape,
                                              ArrayRef<int64_t> indicesShape,
                                              ArrayRef<int64_t> axes,
                                              EmitErrorFn emitError);

/// Checks `gather.block` (ONNX Gather).
FailureOr<GatherShape> analyzeBlockShapes(ArrayRef<int64_t> dataShape,
                                          ArrayRef<int64_t> indicesShape,
                                          int64_t axis, EmitErrorFn emitError);

/// Checks `gather.elements` (ONNX GatherElements).
FailureOr<GatherShape> analyzeElementsShapes(ArrayRef<int64_t> dataShape,
                                             ArrayRef<int64_t> indicesShape,
                                             int64_t axis,
                                             EmitErrorFn emitError);

/// Checks `gather.nd` (ONNX GatherND).
FailureOr<GatherShape> analyzeNdShapes(ArrayRef<int64_t> dataShape,
                                       ArrayRef<int64_t> indicesShape,
                                       int64_t batchDims,
                                       EmitErrorFn emitError);

/// Output sizes as values: constants where static, otherwise computed from
/// `tensor.dim` of the operands following `shape.dimSources`.
SmallVector<OpFoldResult> reifyOutputShape(OpBuilder &builder, Location loc,
                                           const GatherShape &shape,
                                           Value data, Value indices);

} // namespace mlir::gather

#endif // GATHER_DIALECT_GATHER_IR_GATHERSHAPES_H
