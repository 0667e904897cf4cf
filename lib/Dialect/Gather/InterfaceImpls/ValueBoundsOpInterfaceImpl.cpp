//===- ValueBoundsOpInterfaceImpl.cpp - result sizes of gather ops --------===//
//
// Part of the gather project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// A result dimension equals the init's (destination-passing style) and,
// where the shape rules give it from one operand alone, that operand's
// dimension: a source dimension the output follows, or an indices dimension
// (divided by the coordinate size for the folded multiaxis dimension). A
// dimension that is the broadcast of two dynamic sizes gets only the init's.
//
//===----------------------------------------------------------------------===//

#include "gather/Dialect/Gather/InterfaceImpls/InterfaceImpls.h"

#include "gather/Dialect/Gather/IR/GatherDialect.h"
#include "gather/Dialect/Gather/IR/GatherOps.h"

#include "mlir/Interfaces/ValueBoundsOpInterface.h"

using namespace mlir;
using namespace mlir::gather;

namespace {

template <typename OpTy>
struct GatherValueBoundsModel
    : public ValueBoundsOpInterface::ExternalModel<GatherValueBoundsModel<OpTy>,
                                                   OpTy> {
  void populateBoundsForShapedValueDim(Operation *op, Value value, int64_t dim,
                                       ValueBoundsConstraintSet &cstr) const {
    auto gatherOp = cast<OpTy>(op);
    cstr.bound(value)[dim] == cstr.getExpr(gatherOp.getInit(), dim);

    FailureOr<GatherShape> shape = gatherOp.analyzeShapes();
    if (failed(shape))
      return;
    const OutputDimSource &src = shape->dimSources[dim];
    Value source = gatherOp.getSource(), indices = gatherOp.getIndices();
    auto sizeOf = [](Value v, unsigned d) {
      return cast<ShapedType>(v.getType()).getDimSize(d);
    };
    // The side that gives the size: the only one, or the one that is not a
    // static broadcast 1 when the other one is.
    bool fromSource = false, fromIndices = false;
    if (src.dataDim && src.indicesDim) {
      fromSource = getLogicalIndicesSize(sizeOf(indices, *src.indicesDim),
                                         src.indicesDivisor) == 1;
      fromIndices = sizeOf(source, *src.dataDim) == 1;
    } else {
      fromSource = src.dataDim.has_value();
      fromIndices = src.indicesDim.has_value();
    }
    if (fromSource)
      cstr.bound(value)[dim] == cstr.getExpr(source, *src.dataDim);
    if (fromIndices)
      cstr.bound(value)[dim] ==
          cstr.getExpr(indices, *src.indicesDim).floorDiv(src.indicesDivisor);
  }
};

} // namespace

void mlir::gather::registerValueBoundsOpInterfaceExternalModels(
    DialectRegistry &registry) {
  registry.addExtension(+[](MLIRContext *ctx, GatherDialect *) {
    MultiaxisOp::attachInterface<GatherValueBoundsModel<MultiaxisOp>>(*ctx);
    BlockOp::attachInterface<GatherValueBoundsModel<BlockOp>>(*ctx);
    ElementsOp::attachInterface<GatherValueBoundsModel<ElementsOp>>(*ctx);
    NdOp::attachInterface<GatherValueBoundsModel<NdOp>>(*ctx);
  });
}
