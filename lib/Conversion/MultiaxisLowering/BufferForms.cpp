//===- BufferForms.cpp - gathers on buffers, one element at a time --------===//
//
// Part of the gather project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// A gather already on buffers (bufferized before it was lowered) has no
// rewrite to gather.multiaxis (that needs reshapes that buffers of any
// layout do not have): an scf.parallel over the output stores the scalar
// semantics of the op (Semantics.h) element by element.
//
//===----------------------------------------------------------------------===//

#include "gather/Conversion/MultiaxisLowering/MultiaxisLowering.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"

using namespace mlir;
using namespace mlir::gather;

LogicalResult mlir::gather::lowerBufferGather(RewriterBase &rewriter,
                                              Operation *gatherOp) {
  auto op = dyn_cast<GatherOpInterface>(gatherOp);
  if (!op || !isa<MemRefType>(op.getInit().getType()) ||
      failed(op.analyzeShapes(nullptr)))
    return failure();
  Location loc = gatherOp->getLoc();
  rewriter.setInsertionPoint(gatherOp);
  buildUnderShapeChecks(rewriter, loc, gatherOp, [&](OpBuilder &b, Location l) {
    buildEmptyOutputIndexCheck(b, l, gatherOp);
    Value init = op.getInit();
    int64_t rank = cast<MemRefType>(init.getType()).getRank();
    SmallVector<Value> sizes;
    for (int64_t d = 0; d < rank; ++d)
      sizes.push_back(buildDimSize(b, l, init, d));
    buildParallelOverShape(b, l, sizes,
                           [&](OpBuilder &nb, Location nl, ValueRange ivs) {
                             buildGatherElementStore(nb, nl, gatherOp, ivs);
                           });
  });
  rewriter.eraseOp(gatherOp);
  return success();
}
