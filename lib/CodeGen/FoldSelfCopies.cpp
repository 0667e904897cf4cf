//===- FoldSelfCopies.cpp - copies of a buffer region onto itself ---------===//
//
// Part of the gather project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "gather/CodeGen/Passes.h"

#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/IR/OperationSupport.h"

namespace mlir::gather {
#define GEN_PASS_DEF_GATHERFOLDSELFCOPIES
#include "gather/CodeGen/Passes.h.inc"
} // namespace mlir::gather

using namespace mlir;

/// `value` without reshape round trips that change only the layout type:
/// expand_shape(collapse_shape(x)) with x of the same shape is x's memory.
static Value stripReshapeRoundTrips(Value value) {
  while (auto expand = value.getDefiningOp<memref::ExpandShapeOp>()) {
    auto collapse = expand.getSrc().getDefiningOp<memref::CollapseShapeOp>();
    if (!collapse ||
        collapse.getSrcType().getShape() != expand.getResultType().getShape() ||
        collapse.getReassociationIndices() != expand.getReassociationIndices())
      break;
    value = collapse.getSrc();
  }
  return value;
}

/// Same memory: one value, or subviews with the same source, offsets, sizes
/// and strides.
static bool isSameRegion(Value a, Value b) {
  if (a == b)
    return true;
  auto subA = a.getDefiningOp<memref::SubViewOp>();
  auto subB = b.getDefiningOp<memref::SubViewOp>();
  return subA && subB &&
         OperationEquivalence::isEquivalentTo(
             subA, subB, OperationEquivalence::exactValueMatch,
             /*markEquivalent=*/nullptr, OperationEquivalence::IgnoreLocations);
}

namespace {
struct GatherFoldSelfCopiesPass
    : gather::impl::GatherFoldSelfCopiesBase<GatherFoldSelfCopiesPass> {
  void runOnOperation() override {
    SmallVector<memref::CopyOp> selfCopies;
    getOperation()->walk([&](memref::CopyOp copy) {
      if (isSameRegion(stripReshapeRoundTrips(copy.getSource()),
                       stripReshapeRoundTrips(copy.getTarget())))
        selfCopies.push_back(copy);
    });
    for (memref::CopyOp copy : selfCopies)
      copy->erase();
  }
};
} // namespace
