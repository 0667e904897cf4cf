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

def GatherToMultiaxis : Pass<"gather-to-multiaxis"> {
  let summary = "Rewrite gather.block, gather.elements and gather.nd into gather.multiaxis";
  let description = [{
    Applies only the rewrites that map the ONNX-style gathers onto
    `gather.multiaxis` by reshaping (the Gather Multiaxis proposal's
    gatherBlocks, gatherSingleAxisElements and gatherNdBlocks), without the
    rest of canonicalization:

    - `gather.block`: data `[lead, s, trail]` becomes `[lead, s, 1 x q, trail]`,
      indices `[idx]` become `[1 x (axis + 1), idx, 1 x trail]`, `axes =
      [axis]`, and the unit dimension of the output at `axis` is collapsed.
    - `gather.elements`: `axes = [axis]`; where an off-axis indices dimension
      may be smaller than the data's, the data is first cut to the indices
      size with `tensor.extract_slice`.
    - `gather.nd`: data and indices are aligned on `max(b + k, q - 1)`
      leading dimensions, the `k` coordinates folded into the last indices
      dimension, `axes = [b, b + k)`, and the unit dimensions of the output
      collapsed.

    Reshapes are `tensor.expand_shape` / `tensor.collapse_shape` (no copies),
    in their dynamic forms where sizes are `?`. Index policies carry over.
  }];
  let dependentDialects = ["::mlir::tensor::TensorDialect"];
}

#endif // GATHER_DIALECT_GATHER_TRANSFORMS_PASSES_TD
