//===- GatherOps.h - gather dialect operations ------------------*- C++ -*-===//
//
// Part of the gather project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#ifndef GATHER_DIALECT_GATHER_IR_GATHEROPS_H
#define GATHER_DIALECT_GATHER_IR_GATHEROPS_H

#include "gather/Dialect/Gather/IR/GatherDialect.h"
#include "gather/Dialect/Gather/IR/GatherShapes.h"
#include "gather/Dialect/Gather/IR/IndexPolicy.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/OpDefinition.h"
#include "mlir/IR/OpImplementation.h"
#include "mlir/Interfaces/DestinationStyleOpInterface.h"
#include "mlir/Interfaces/InferTypeOpInterface.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"

#include "gather/Dialect/Gather/IR/GatherInterfaces.h.inc"

#define GET_OP_CLASSES
#include "gather/Dialect/Gather/IR/GatherOps.h.inc"

namespace mlir {
class RewritePatternSet;
class RewriterBase;
namespace gather {

/// A tensor.empty destination for a gather whose output shape `shape`
/// describes (dynamic sizes reified from `data` and `indices`).
Value createEmptyInit(OpBuilder &builder, Location loc,
                      const GatherShape &shape, Value data, Value indices);

/// The same for each op from its operands and attributes; null when the
/// operands break the op's shape rules. Importers and conversions create the
/// ops with these.
Value createMultiaxisInit(OpBuilder &builder, Location loc, Value input,
                          Value indices, ArrayRef<int64_t> axes);
Value createBlockInit(OpBuilder &builder, Location loc, Value data,
                      Value indices, int64_t axis);
Value createElementsInit(OpBuilder &builder, Location loc, Value data,
                         Value indices, int64_t axis);
Value createNdInit(OpBuilder &builder, Location loc, Value data, Value indices,
                   int64_t batchDims);

/// Rewrites gather.block, gather.elements and gather.nd into
/// gather.multiaxis with tensor reshapes around it (the Gather Multiaxis
/// proposal's mappings).
void populateGatherToMultiaxisPatterns(RewritePatternSet &patterns);

/// Tightens gather result types to the inferred shapes, destinations with
/// contents too (under a run-time check of their sizes; canonicalization
/// refines only tensor.empty destinations).
void populateRefineResultTypePatterns(RewritePatternSet &patterns);

/// Every canonicalization pattern of the four ops (what --canonicalize
/// applies to them, folds aside), for a compiler's own pattern sets.
void populateGatherCanonicalizationPatterns(RewritePatternSet &patterns);

/// What the run-time errors of `gatherOp` (any of the four ops) name: its
/// `gather.origin`, or else the op itself (its name, its gathered dimensions
/// and its indices).
OriginAttr getGatherOrigin(Operation *gatherOp);

/// How `op` maps onto gather.multiaxis (identity for gather.multiaxis).
MultiaxisForm getMultiaxisForm(Operation *op);

/// Dimensions where a gather.elements' indices may be larger than its data
/// at run time (a dynamic size on either side): the op is only defined where
/// they are not, which no static rule can prove. The canonical rewrite to
/// multiaxis leaves such ops alone; the lowerings check the sizes first.
SmallVector<int64_t> getRuntimeBoundedDims(ElementsOp op);

/// Rewrites a gather.block, gather.elements or gather.nd into multiaxis form.
/// For gather.elements with run-time-bounded dimensions the data is sliced
/// to min(data size, indices size), which is always in bounds; the caller
/// must have checked that the indices size is not larger.
LogicalResult rewriteToMultiaxis(RewriterBase &rewriter, Operation *op);

} // namespace gather
} // namespace mlir

#endif // GATHER_DIALECT_GATHER_IR_GATHEROPS_H
