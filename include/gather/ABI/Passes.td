//===- Passes.td - the entry ABI of compiled functions --*- tablegen -*-===//
//
// Part of the gather project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// How compiled functions are called from outside: the entries that write
// results into the caller's buffers (the C API and Python's out= call
// them; DestinationEntries.h names them).
//
//===----------------------------------------------------------------------===//

#ifndef GATHER_ABI_PASSES_TD
#define GATHER_ABI_PASSES_TD

include "mlir/Pass/PassBase.td"

def GatherDestinationEntries
    : Pass<"gather-destination-entries", "ModuleOp"> {
  let summary = "Add entries that write a function's results into the "
                "caller's buffers";
  let description = [{
    For every public `func.func` whose results are ranked tensors, adds
    `@<name>__into`: the same body with one more argument per result, a
    `memref` of the result's type with the identity layout, into which the
    result is written (`bufferization.materialize_in_destination ...
    restrict writable`); the function returns nothing. The result must be
    computed in that buffer, not copied there: where it comes from a gather
    (any destination-style op but a linalg one) whose destination is a
    `tensor.empty` used by nothing else, the buffer becomes that
    destination (`bufferization.to_tensor ... restrict writable`), which
    the lowering of the gather keeps through its run-time checks. Otherwise
    (a linalg consumer, which fusion gives a new `tensor.empty`) run
    empty-tensor elimination (`eliminate-empty-tensors`) right before
    bufferization, after the rewrites that make new destinations, as
    `gather-cpu-pipeline{destination-entries=true}` does. Either way the
    result is neither allocated nor copied.

    Writing into a buffer of the wrong size is undefined, so where a result
    has dynamic sizes the pass also adds `@<name>__shape`, which takes the
    same arguments and returns those sizes, in order, as a `tensor<Nxindex>`.
    It must be cheap: it is canonicalized (the sizes of a gather's result
    are those of its destination) and kept only if nothing but size
    arithmetic is left; otherwise (sizes that depend on the contents of a
    tensor) neither entry is added for that function. A caller checks its
    buffers against `__shape` before calling `__into`. The buffers must
    not overlap the arguments (`restrict`).

    Where `__into` computes every result in its buffer (each result a
    distinct value of a destination-style op whose destination is a
    `tensor.empty` of its own: a gather, or a linalg op that empty-tensor
    elimination gives the buffer), the function's own body becomes an
    allocation of the buffers (sized by a copy of `__shape`'s body) and a
    call of `__into`, so that the computation is compiled once. Otherwise
    (a result that is an argument, a constant, one value returned twice)
    `__into` would copy, and the function keeps its body.

    A function whose `__into` or `__shape` name is taken is left alone.
  }];
  let dependentDialects = [
    "::mlir::arith::ArithDialect",
    "::mlir::bufferization::BufferizationDialect",
    "::mlir::memref::MemRefDialect",
    "::mlir::tensor::TensorDialect",
  ];
}

#endif // GATHER_ABI_PASSES_TD
