//===- GatherTransformOps.td - transform ops of the gather dialect -*- tablegen -*-===//
//
// Part of the gather project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// Pattern descriptors for `transform.apply_patterns`: a transform script
// applies the gather pattern sets to the payload it chooses.
//
//===----------------------------------------------------------------------===//

#ifndef GATHER_DIALECT_GATHER_TRANSFORMOPS_GATHERTRANSFORMOPS_TD
#define GATHER_DIALECT_GATHER_TRANSFORMOPS_GATHERTRANSFORMOPS_TD

include "mlir/Dialect/Transform/IR/TransformDialect.td"
include "mlir/Dialect/Transform/Interfaces/TransformInterfaces.td"
include "mlir/IR/OpBase.td"

def ApplyGatherFromLinalgPatternsOp : Op<Transform_Dialect,
    "apply_patterns.gather.from_linalg",
    [DeclareOpInterfaceMethods<PatternDescriptorOpInterface>]> {
  let summary = "raise gather-like linalg.generic ops into gather ops";
  let description = [{
    `populateLinalgToGatherPatterns` (the patterns of
    `--convert-linalg-to-gather`): a generic that reads a table with
    `tensor.extract` at positions from an index operand becomes the gather
    op that expresses it, its index idioms the op's policy. A plain read is
    checked (`out_of_bounds = error`) unless `unchecked_plain_reads`. An
    embedding bag with offsets as torch-mlir writes it becomes a loop over
    the bags of gathers and sums unless `segment_sums` is false (a script
    whose later steps take no gather inside a loop).

    ```mlir
    transform.apply_patterns to %func {
      transform.apply_patterns.gather.from_linalg
    } : !transform.any_op
    ```
  }];
  let arguments = (ins
      DefaultValuedAttr<BoolAttr, "false">:$unchecked_plain_reads,
      DefaultValuedAttr<BoolAttr, "true">:$segment_sums);
  let assemblyFormat = "attr-dict";
}

def ApplyGatherToMultiaxisPatternsOp : Op<Transform_Dialect,
    "apply_patterns.gather.to_multiaxis",
    [DeclareOpInterfaceMethods<PatternDescriptorOpInterface>]> {
  let summary = "rewrite gather.block, elements and nd into gather.multiaxis";
  let description = [{
    The rewrites of the Gather Multiaxis proposal
    (`populateGatherToMultiaxisPatterns`): each ONNX-style op becomes a
    gather.multiaxis between unit-dimension reshapes.

    ```mlir
    transform.apply_patterns to %func {
      transform.apply_patterns.gather.to_multiaxis
    } : !transform.any_op
    ```
  }];
  let assemblyFormat = "attr-dict";
}

def ApplyGatherCanonicalizationPatternsOp : Op<Transform_Dialect,
    "apply_patterns.gather.canonicalization",
    [DeclareOpInterfaceMethods<PatternDescriptorOpInterface>]> {
  let summary = "the canonicalization patterns of the gather ops";
  let description = [{
    `populateGatherCanonicalizationPatterns`: the rewrites into
    gather.multiaxis where they simplify, unit-dimension removal and the
    folds' pattern forms.
  }];
  let assemblyFormat = "attr-dict";
}

def ApplyGatherToLinalgPatternsOp : Op<Transform_Dialect,
    "apply_patterns.gather.lower_to_linalg",
    [DeclareOpInterfaceMethods<PatternDescriptorOpInterface>]> {
  let summary = "lower gather ops on tensors to linalg, tensor and vector";
  let description = [{
    `populateGatherToLinalgPatterns`: the CPU lowering (block copies of whole
    rows, vectorized element gathers, software prefetch, the run-time
    checks), and the scalar
    loop lowering of gather ops already on buffers. The error hook and site
    strings are created in the enclosing module.

    ```mlir
    transform.apply_patterns to %func {
      transform.apply_patterns.gather.lower_to_linalg {vectorize = false}
    } : !transform.any_op
    ```
  }];
  let arguments = (ins DefaultValuedAttr<BoolAttr, "true">:$vectorize,
                       DefaultValuedAttr<BoolAttr, "true">:$block_copy,
                       DefaultValuedAttr<BoolAttr, "true">:$prefetch,
                       DefaultValuedAttr<I64Attr, "512">:$vector_bits);
  let assemblyFormat = "attr-dict";
}

def ApplyGatherToLoopsPatternsOp : Op<Transform_Dialect,
    "apply_patterns.gather.lower_to_loops",
    [DeclareOpInterfaceMethods<PatternDescriptorOpInterface>]> {
  let summary = "lower gather ops on tensors to scf loops";
  let description = [{
    `populateGatherToSCFPatterns`: one scf.for nest per gather, the
    reference lowering.
  }];
  let assemblyFormat = "attr-dict";
}

#endif // GATHER_DIALECT_GATHER_TRANSFORMOPS_GATHERTRANSFORMOPS_TD
