//===- GatherShapes.h - shape rules shared by all gather ops ----*- C++ -*-===//
//
// Part of the gather project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// The one place where the rank and shape rules of the gather ops live. The
// verifiers, type inference, shape reification and the lowerings all use it,
// so that a rule cannot be checked one way and computed another.
//
//===----------------------------------------------------------------------===//

#ifndef GATHER_DIALECT_GATHER_IR_GATHERSHAPES_H
#define GATHER_DIALECT_GATHER_IR_GATHERSHAPES_H

#include "gather/Dialect/Gather/IR/IndexPolicy.h"

#include "mlir/Dialect/Utils/ReshapeOpsUtils.h"
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

//===----------------------------------------------------------------------===//
// The two rules every op shares, static and at run time
//===----------------------------------------------------------------------===//

/// The logical size of an indices dimension that holds `valuesPerCoordinate`
/// index values per coordinate (multiaxis folds the coordinates into the
/// last indices dimension): `size / valuesPerCoordinate`, kDynamic stays.
int64_t getLogicalIndicesSize(int64_t size, int64_t valuesPerCoordinate);

/// The logical indices shape of a multiaxis indices shape: the last
/// dimension divided by the coordinate size.
SmallVector<int64_t> getLogicalIndicesShape(ArrayRef<int64_t> indicesShape,
                                            int64_t coordinateSize);

/// The size of dimension `dim` of a ranked tensor or memref at run time:
/// tensor.dim or memref.dim (a constant where static).
Value buildDimSize(OpBuilder &builder, Location loc, Value shaped, int64_t dim);

/// A new tensor.empty of `type`, a refinement of `like`'s type (the same
/// rank, some sizes made static): its dynamic sizes are `like`'s. The one
/// way a destination without contents gets the sizes a gather knows
/// statically (canonicalization and the lowering both refine with it).
Value buildRefinedEmpty(OpBuilder &builder, Location loc, Value like,
                        RankedTensorType type);

/// The one rule for which source dimension an index value addresses: the
/// value at position `lastPosition` of the last indices dimension addresses
/// getGatheredDims()[c] with c = lastPosition mod the number of gathered
/// dimensions (multiaxis: axes[p % k]; nd: batch_dims + p; block and
/// elements: the axis). Used by the verifier, the lowerings and the error
/// reports.
inline int64_t getAddressedComponent(int64_t lastPosition,
                                     int64_t numGatheredDims) {
  return numGatheredDims <= 1 ? 0 : lastPosition % numGatheredDims;
}

/// The same at run time: `perComponent(c)` of the component that position
/// `lastPosition` (index) addresses, selected among the `numGatheredDims`.
Value buildSelectAddressed(OpBuilder &builder, Location loc, Value lastPosition,
                           int64_t numGatheredDims,
                           llvm::function_ref<Value(int64_t)> perComponent);

/// One element of a ranked tensor or memref: tensor.extract or memref.load.
Value buildElementRead(OpBuilder &builder, Location loc, Value shaped,
                       ValueRange position);

/// The logical size of indices dimension `dim` at run time (a constant where
/// static).
Value buildLogicalIndicesSize(OpBuilder &builder, Location loc, Value indices,
                              int64_t dim, int64_t valuesPerCoordinate);

/// Bidirectional broadcasting of one dimension: sizes `a` and `b` are
/// compatible when equal or one of them is 1; the result is the other one.
/// Static sizes that are dynamic are taken as compatible.
bool areBroadcastCompatible(int64_t a, int64_t b);

/// Broadcast of two static-or-dynamic sizes that are known compatible.
int64_t broadcastDimSize(int64_t a, int64_t b);

/// Which side decides a broadcast dimension when the static sizes tell (the
/// other side is 1, or this side is not 1); nullopt when only the run time
/// can tell.
enum class BroadcastSide { First, Second };
std::optional<BroadcastSide> getStaticBroadcastSide(int64_t a, int64_t b);

/// The same rules at run time, on `index` values: the i1 "a and b are
/// compatible" and the broadcast size (b where a is 1, else a).
Value buildBroadcastCompatible(OpBuilder &builder, Location loc, Value a,
                               Value b);
Value buildBroadcastSize(OpBuilder &builder, Location loc, Value a, Value b);

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
                                           const GatherShape &shape, Value data,
                                           Value indices);

//===----------------------------------------------------------------------===//
// Mapping the ONNX-style ops onto gather.multiaxis (the Gather Multiaxis
// proposal)
//===----------------------------------------------------------------------===//

/// A reshape that only inserts or removes unit dimensions, or folds the
/// coordinate dimension into its neighbour: always a tensor.expand_shape or
/// tensor.collapse_shape, never a copy.
struct UnitReshape {
  /// expand_shape (true) or collapse_shape (false).
  bool expand = true;
  /// In the expand/collapse_shape convention: one group of the higher-rank
  /// shape's dimensions per dimension of the lower-rank shape.
  SmallVector<ReassociationIndices> reassociation;
  /// Static shape after the reshape (kDynamic where unknown).
  SmallVector<int64_t> resultShape;
  /// True when the reshape changes nothing.
  bool isIdentity = false;
  /// Per dimension of the lower-rank shape, the one dimension of its group
  /// that is not an inserted unit. Empty where a group merges dimensions
  /// that are not units (GatherND's coordinate fold): then the group's
  /// dimensions are row-major parts of the lower-rank dimension.
  SmallVector<int64_t> positions;
};

/// How an ONNX-style gather becomes reshape(multiaxis(reshape(data),
/// reshape(indices))).
struct MultiaxisForm {
  UnitReshape data, indices, output;
  SmallVector<int64_t> axes;
  /// gather.elements only: data dimensions to slice to the indices size
  /// first (the multiaxis broadcast rule would otherwise read a
  /// smaller-than-data indices dimension of size 1 as a broadcast).
  SmallVector<int64_t> sliceDataDims;
};

/// The proposal's gatherBlocks: data [lead, s, trail], indices
/// [idx] become [lead, s, 1 x q, trail] and [1 x (axis+1), idx, 1 x trail],
/// axes [axis]; the unit dimension the multiaxis output has at `axis` is
/// collapsed away. `axis` is already normalized.
MultiaxisForm getBlockMultiaxisForm(ArrayRef<int64_t> dataShape,
                                    ArrayRef<int64_t> indicesShape,
                                    int64_t axis);

/// The proposal's gatherSingleAxisElements: axes [axis], no reshapes.
MultiaxisForm getElementsMultiaxisForm(ArrayRef<int64_t> dataShape,
                                       ArrayRef<int64_t> indicesShape,
                                       int64_t axis);

/// The proposal's gatherNdBlocks: data [batch, indexed, trail]
/// and indices [lead, k] are aligned on max(b + k, q - 1) leading dimensions,
/// the k coordinates folded into the last indices dimension, axes [b, b+k).
MultiaxisForm getNdMultiaxisForm(ArrayRef<int64_t> dataShape,
                                 ArrayRef<int64_t> indicesShape,
                                 int64_t batchDims);

/// Reassociation groups for dropping (or inserting) unit dimensions: the
/// dimensions of a rank-`highRank` shape not in `keptPositions` (sorted) are
/// units; each joins the group of the kept dimension before it, leading ones
/// the first group.
SmallVector<ReassociationIndices> unitDimGroups(ArrayRef<int64_t> keptPositions,
                                                int64_t highRank);

/// Collapses the static unit dimensions `unitDims` of a ranked tensor away
/// (each joins the next kept dimension, trailing ones the last).
Value collapseUnitDims(OpBuilder &builder, Location loc, Value value,
                       ArrayRef<int64_t> unitDims);

/// The inverse of the unit-dimension collapse `collapse` (the output reshape
/// of a MultiaxisForm) on a destination: expands `init`, of the collapsed
/// shape, to the rank of `highShape` (the multiaxis output shape), taking
/// each group's size from `init` and 1 for the dimensions it inserts.
Value expandDestination(OpBuilder &builder, Location loc, Value init,
                        const UnitReshape &collapse,
                        ArrayRef<int64_t> highShape);

/// Builds the tensor.expand_shape / collapse_shape for `reshape` (returns
/// `value` itself for an identity).
Value buildUnitReshape(OpBuilder &builder, Location loc, Value value,
                       const UnitReshape &reshape);

//===----------------------------------------------------------------------===//
// Evaluation (constant folding)
//===----------------------------------------------------------------------===//

/// Evaluates gather.multiaxis on constant element lists (row-major).
/// `inputStrides` lets the caller pass a leading sub-block of a larger
/// tensor (gather.elements' data slicing). Fails when an index has no
/// defined compile-time result under the policy.
FailureOr<SmallVector<Attribute>>
evaluateMultiaxis(ArrayRef<Attribute> input, ArrayRef<int64_t> inputShape,
                  ArrayRef<int64_t> inputStrides, ArrayRef<int64_t> indices,
                  ArrayRef<int64_t> indicesShape, ArrayRef<int64_t> axes,
                  ArrayRef<int64_t> outputShape, IndexPolicy policy,
                  Attribute zero);

} // namespace mlir::gather

#endif // GATHER_DIALECT_GATHER_IR_GATHERSHAPES_H
