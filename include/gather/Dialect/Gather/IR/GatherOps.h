//===- GatherOps.h - gather dialect operations ------------------*- C++ -*-===//

#ifndef GATHER_DIALECT_GATHER_IR_GATHEROPS_H
#define GATHER_DIALECT_GATHER_IR_GATHEROPS_H

#include "gather/Dialect/Gather/IR/GatherDialect.h"
#include "gather/Dialect/Gather/IR/GatherShapes.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/OpDefinition.h"
#include "mlir/IR/OpImplementation.h"
#include "mlir/Interfaces/InferTypeOpInterface.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"

#define GET_OP_CLASSES
#include "gather/Dialect/Gather/IR/GatherOps.h.inc"

namespace mlir {
class RewritePatternSet;
namespace gather {

/// Rewrites gather.block, gather.elements and gather.nd into
/// gather.multiaxis with tensor reshapes around it (seed 003's mappings).
void populateGatherToMultiaxisPatterns(RewritePatternSet &patterns);

/// Tightens gather result types to the inferred shapes.
void populateRefineResultTypePatterns(RewritePatternSet &patterns);

/// How `op` maps onto gather.multiaxis (identity for gather.multiaxis).
MultiaxisForm getMultiaxisForm(Operation *op);

} // namespace gather
} // namespace mlir

#endif // GATHER_DIALECT_GATHER_IR_GATHEROPS_H
