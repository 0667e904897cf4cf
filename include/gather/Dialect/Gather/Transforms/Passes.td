//===- Passes.td - gather dialect passes -------------------*- tablegen -*-===//
//
// Part of the gather project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

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

def GatherFuseConsumers : Pass<"gather-fuse-consumers", "::mlir::func::FuncOp"> {
  let summary = "Fuse elementwise and reduction consumers of gather ops into "
                "tiled loops";
  let description = [{
    A gather followed by elementwise work (an embedding lookup with a bias
    add and an activation, as TOSA and torch graphs write it) otherwise runs
    as separate loop nests with a full intermediate tensor in memory. This
    pass first fuses chains of elementwise `linalg.generic` ops
    (upstream's elementwise fusion), then, for each gather on tensors whose
    only user is such an op reading it with an identity map, tiles that
    consumer into an `scf.forall` over its outer dimensions (tiles of about
    `tile-elements` elements, the innermost dimension whole) and fuses the
    gather into each tile through its TilingInterface. The gather then
    writes straight into the consumer's destination tile, which the consumer
    updates in place: no intermediate buffer is left.

    A consumer that reduces the gathered tensor (read with an identity map)
    over some of its dimensions, such as the sum of an embedding bag's rows
    (`linalg.reduce` or a `linalg.generic` with reduction loops), is tiled
    along its parallel loops but the innermost (tiles whose gathered block
    holds about `reduction-tile-elements` elements, then as many tiles as
    the next multiple of 16, of equal sizes, so that OpenMP's static
    schedule deals 1 to 16 threads equal shares; computed at run time
    where sizes are dynamic). The tile's reduction runs as vector
    steps (one per outer position, the innermost dimension whole: the
    scalar loops that would otherwise remain were not vectorized by LLVM),
    and the gather is fused into each step: it gathers one row into a
    buffer of its own (at most `kReductionStepBufferBytes`, Passes.h,
    which the CPU pipeline keeps on the stack), which the step adds into
    the output row. What a step reads and writes of the output is carried
    through the loops that do not move along it (an embedding bag's sum
    stays in registers while its rows are added). Where that fusion fails
    (a tile behind a run-time shape check: dynamic sizes), the tile's
    gather writes a tile-sized tensor of its own that the steps read. A
    reduction with no parallel loop to tile but its innermost (one bag's
    sum in a loop over bags, as convert-linalg-to-gather raises embedding
    bags with offsets) runs in the same steps, untiled; one that reduces
    along its innermost loop (a total) stays unfused.
    Before, the whole intermediate went through memory (an embedding bag
    of 2048 bags of 32 rows of 128 floats: 32 MB written and read again);
    through a tile's buffer it took 1.35x as long as with the steps
    (bench/README.md).

    Producers of the gather's operands are not fused (an index producer
    would be recomputed in every tile that reads it; the tile reads the
    gathered source dimensions whole).
  }];
  let options = [
    Option<"tileElements", "tile-elements", "int64_t", "16384",
           "Elements per tile to aim for">,
    Option<"reductionTileElements", "reduction-tile-elements", "int64_t",
           "65536",
           "Gathered elements per tile of a reduction consumer to aim for">
  ];
  let dependentDialects = [
    "::mlir::affine::AffineDialect",
    "::mlir::linalg::LinalgDialect",
    "::mlir::scf::SCFDialect",
    "::mlir::tensor::TensorDialect",
    "::mlir::vector::VectorDialect",
  ];
}

def GatherOutlineDuplicates : Pass<"gather-outline-duplicates",
                                   "::mlir::ModuleOp"> {
  let summary = "Outline gather ops written more than once into one function each";
  let description = [{
    A model that repeats a layer writes the same gather many times. Lowered
    where they are written, the copies are compiled again by every later
    pass and by LLVM. This pass moves each group of two or more identical
    gathers on tensors (same kind, attributes, operand and result types,
    and the same file in their locations) into one private function,
    `@__gather_<kind>`, and calls it where each was written.

    The function's last two arguments (i64) are the line and column of the
    call's gather, marked by `gather.site_arguments`: run-time errors still
    name the gather as written.

    Gathers stay where they are if an operand is a constant (its indices
    are checked at compile time), if an operand is not a whole tensor (a
    slice, or a result computed into one: the pipelines bufferize function
    boundaries with identity layouts, which would copy it), or if the
    result is inserted into a larger tensor or a destination, where it is
    computed in place.

    ```mlir
    %1 = gather.block %x[%i] axis = 0 into %e0 : ...
    %2 = gather.block %1[%i] axis = 0 into %e1 : ...
    // becomes
    %1 = call @__gather_block(%x, %i, %e0, %c1, %c5) : ...
    %2 = call @__gather_block(%1, %i, %e1, %c2, %c5) : ...
    ```
  }];
  let dependentDialects = ["::mlir::arith::ArithDialect",
                           "::mlir::func::FuncDialect"];
}

#endif // GATHER_DIALECT_GATHER_TRANSFORMS_PASSES_TD
