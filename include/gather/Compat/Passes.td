//===- Passes.td - workarounds of upstream MLIR 22 bugs --*- tablegen -*-===//
//
// Part of the gather project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// Each pass works around a bug or gap of the MLIR release the project
// builds with (22.1), names its upstream issue where one is known and says
// with which LLVM version it can go. The pipelines run them; nothing else
// depends on them.
//
//===----------------------------------------------------------------------===//

#ifndef GATHER_COMPAT_PASSES_TD
#define GATHER_COMPAT_PASSES_TD

include "mlir/Pass/PassBase.td"

def GatherCheckInput : Pass<"gather-check-input"> {
  let summary = "Reject IR that MLIR 22 verifies but its passes crash on";
  let description = [{
    Both gather pipelines run this check first; each finding is an error on
    the op, and the pass fails:

    - `floordiv`, `ceildiv` and `mod` need a positive divisor, but MLIR 22
      accepts `s0 ceildiv 0` (or a negative constant) in any affine map or
      integer set. An `affine.apply` of such a map folds to poison, and
      upstream canonicalizations then crash on the poison (an `scf.forall`
      bound, for one; `test/Fuzz/upstream-forall-zero-divisor-crash.mlir`).
    - The reassociation of a `tensor` or `memref` `expand_shape` or
      `collapse_shape` must list the positions of the expanded shape in
      order. MLIR 22's verifier reads each index as an unsigned 32-bit
      position, so `[[4294967296, 1]]` passes for `[[0, 1]]`, and passes
      that index shapes with the indices crash.
    - A `tensor.dim` or `memref.dim` with a constant index must name a
      dimension of its ranked source. An index outside `[0, rank)` is
      undefined behaviour at run time, and with the GPU dialect loaded the
      canonicalization of a `memref.dim` with a negative constant index
      crashes (llvm/llvm-project#205073, fixed for LLVM 23).
    - Every operand and result must have an element type that LLVM's type
      conversion maps. `tf32` verifies but has no LLVM type: the CPU
      pipeline left its ops unconverted and succeeded, the GPU pipeline
      failed on a `gpu.func` without naming the type.

    Upstream: llvm/llvm-project#64622 (folds that divide by zero) and
    #205073. The reassociation check has no upstream issue found;
    `test/Fuzz/reassociation-index-past-32-bits.mlir` reproduces it. Drop
    each part when its `test/Fuzz/upstream-*-crash.mlir` stops crashing
    (not before LLVM 23).
  }];
}

def GatherExpandShapesToReinterpretCasts
    : Pass<"gather-expand-shapes-to-reinterpret-casts"> {
  let summary = "Lower memref.expand_shape ops with several dynamic sizes in "
                "one group to memref.reinterpret_cast";
  let description = [{
    MLIR 22's `expand-strided-metadata` assumes at most one dynamic size
    per reassociation group of a `memref.expand_shape` and crashes on more
    (llvm/llvm-project#186830, fixed for LLVM 23 by #187844). Such a
    reshape is ordinary in dynamic models: a `[b * s] -> [b, s]` reshape
    of a flattened tensor, bufferized. This pass rewrites exactly those
    ops, before `expand-strided-metadata` runs, into a
    `memref.reinterpret_cast` of the source whose sizes are the op's
    `output_shape` and whose strides are the source stride of the group
    times the sizes to the right of each dimension; other expand_shape ops
    are left to upstream. Static strides and offsets of the result type
    are kept as they are.

    Upstream: llvm/llvm-project#186830, fixed by #187844: unnecessary from
    LLVM 23.

    ```mlir
    %e = memref.expand_shape %a [[0, 1]] output_shape [%m, %n]
        : memref<?xf32> into memref<?x?xf32>
    // becomes
    %base, %offset, %size, %stride = memref.extract_strided_metadata %a
        : memref<?xf32> -> memref<f32>, index, index, index
    %e = memref.reinterpret_cast %a to offset: [0], sizes: [%m, %n],
        strides: [%n, 1] : memref<?xf32> to memref<?x?xf32>
    ```
  }];
  let dependentDialects = ["::mlir::arith::ArithDialect",
                           "::mlir::memref::MemRefDialect"];
}

def GatherConstantGlobals
    : Pass<"gather-constant-globals", "::mlir::ModuleOp"> {
  let summary = "Create the memref.global of every tensor constant, in IR "
                "order, before bufferization";
  let description = [{
    One-shot bufferization with function boundaries gives each tensor
    `arith.constant` a `memref.global`, created when its function is
    bufferized. MLIR 22 orders the functions without calls between them by
    iterating a map keyed by operation pointers, so the globals' order, and
    which of two constants of one type gets the `_0` name, changed from run
    to run: the same input gave different output. This pass creates the
    globals first, walking the module in order, with the alignment
    bufferization uses; bufferization then finds and reuses them. The
    globals end up at the top of the module in the order of their first
    constant. Nothing else changes.

    Upstream: fixed by llvm/llvm-project#184722 (deterministic containers in
    OneShotModuleBufferize), after the 22 branch: unnecessary from LLVM 23.
  }];
  let dependentDialects = ["::mlir::memref::MemRefDialect"];
}

def GatherDropObjectTimes : Pass<"gather-drop-object-times"> {
  let summary = "Remove the compile times recorded in gpu.binary objects";
  let description = [{
    MLIR 22's `gpu-module-to-binary` records how long each kernel module
    took to compile (`LLVMIRToISATimeInMs`, `ISAToBinaryTimeInMs`) in the
    properties of its `#gpu.object`, so compiling one input twice gave two
    different outputs. This pass removes the properties whose names end in
    `TimeInMs` from every object of every `gpu.binary`; the code, the
    target and the other properties stay. The GPU pipeline runs it after
    `gpu-module-to-binary`.

    Upstream: the times are recorded by design (llvm/llvm-project#126178);
    no option leaves them out as of LLVM 22. Keep until one does.
  }];
}

def GatherInlineAllocaScopes : Pass<"gather-inline-alloca-scopes"> {
  let summary = "Inline memref.alloca_scope ops that hold no stack allocation";
  let description = [{
    `convert-scf-to-openmp` wraps every parallel loop body in a
    `memref.alloca_scope`. Upstream's canonicalization inlines such a scope
    only when nothing in it may allocate on the stack, and counts every call
    as a possible allocation; a body that calls the gather error hook (a
    tile of a fused loop nest) keeps its scope, which becomes invalid once
    the loops inside turn into branches. This pass inlines every scope whose
    region holds no `memref.alloca` (outside nested allocation scopes):
    calls do not allocate in the caller's frame.

    Upstream: no issue found; `memref.alloca_scope`'s canonicalization in
    LLVM 22 treats every call as a possible stack allocation. Keep until it
    asks the callee (`test/Transforms/inline-alloca-scopes.mlir` shows the
    case).
  }];
  let dependentDialects = ["::mlir::memref::MemRefDialect"];
}

def GatherCanonicalize : Pass<"gather-canonicalize"> {
  let summary = "Canonicalize, with the tensor.expand_shape refinement that "
                "keeps MLIR 22's canonicalization from crashing";
  let description = [{
    `--canonicalize` plus one pattern in the same driver (benefit 2, ahead of
    upstream's): a `tensor.expand_shape` whose `output_shape` operand folded
    to a constant keeps that result dimension dynamic, and MLIR 22's
    `ConvertToStaticExpandShape` then reads past the operand list and
    segfaults on an expand_shape of a `tensor.cast`
    (`test/Fuzz/upstream-expand-shape-crash.mlir`). The gather rewrites and
    lowerings make such reshapes of casts, and the crash can only be headed
    off in the driver that runs the crashing pattern, so the pipelines
    canonicalize with this pass; `populateRefineExpandShapePatterns` gives
    the pattern to a compiler's own canonicalization.

    Upstream: the mismatch of iree-org/iree#23427, proposed fix
    llvm/llvm-project#180705; needed while Debian's MLIR crashes on
    `upstream-expand-shape-crash.mlir` (LLVM 22).
  }];
  let options = [
    Option<"regionSimplification", "region-simplification", "bool", "true",
           "Merge blocks and erase unreachable ones, as --canonicalize does">,
    Option<"topDown", "top-down", "bool", "true",
           "Seed the worklist in general top-down order, as --canonicalize "
           "does">
  ];
}

#endif // GATHER_COMPAT_PASSES_TD
