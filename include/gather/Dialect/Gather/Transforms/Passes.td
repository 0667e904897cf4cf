//===- Passes.td - gather dialect passes -------------------*- tablegen -*-===//

#ifndef GATHER_DIALECT_GATHER_TRANSFORMS_PASSES_TD
#define GATHER_DIALECT_GATHER_TRANSFORMS_PASSES_TD

include "mlir/Pass/PassBase.td"

def GatherRefineResultTypes : Pass<"gather-refine-result-types"> {
  let summary = "Give every gather op the most static result type its operands imply";
  let description = [{
    Frontends often write gather results with dynamic sizes (`tensor<?x?xf32>`)
    although the operand shapes determine them. This pass replaces each
    gather op's result type by the most static type that agrees with both the
    written type and the type inferred from the operands, and inserts a
    `tensor.cast` back to the written type for the existing users.
  }];
  let dependentDialects = ["::mlir::tensor::TensorDialect"];
}

#endif // GATHER_DIALECT_GATHER_TRANSFORMS_PASSES_TD
