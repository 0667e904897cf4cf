//===- GatherBase.td - gather dialect, policy enums --------*- tablegen -*-===//
//
// Part of the gather project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// The gather dialect: one multiaxis gather and the ONNX-style gathers that map
// onto it.
//
//===----------------------------------------------------------------------===//

#ifndef GATHER_DIALECT_GATHER_IR_GATHERBASE_TD
#define GATHER_DIALECT_GATHER_IR_GATHERBASE_TD

include "mlir/IR/OpBase.td"
include "mlir/IR/AttrTypeBase.td"
include "mlir/IR/EnumAttr.td"

def Gather_Dialect : Dialect {
  let name = "gather";
  let cppNamespace = "::mlir::gather";
  let summary = "One multiaxis gather operator and the framework gathers it subsumes";
  let description = [{
    The `gather` dialect models the gather operators of ML frameworks on ranked
    tensors. `gather.multiaxis` is the general form from the Gather Multiaxis
    proposal: input and indices of equal rank, explicit axes in any order,
    bidirectional broadcasting of the other dimensions, and coordinates folded
    into the last indices dimension. `gather.block` (ONNX Gather, numpy.take),
    `gather.elements` (ONNX GatherElements, torch.gather) and `gather.nd`
    (ONNX GatherND) keep the framework semantics so that importers can emit
    them one to one; canonicalization rewrites them into `gather.multiaxis`.

    Every op carries its out-of-range index policy as two attributes,
    `negative_indices` and `out_of_bounds`, printed only when not the default.
  }];
  let useDefaultAttributePrinterParser = 1;
  let hasConstantMaterializer = 1;
  // Canonicalization creates reshapes, slices, constants and broadcasts.
  let dependentDialects = ["::mlir::tensor::TensorDialect",
                           "::mlir::arith::ArithDialect",
                           "::mlir::linalg::LinalgDialect",
                           "::mlir::scf::SCFDialect"];
  // `gather.rolled_loop` on an scf.for the lowerings build: LLVM should
  // not unroll it. gather-rolled-loops turns it into LLVM loop metadata;
  // a pipeline without that pass drops it and LLVM decides.
  // `gather.origin` on a gather.multiaxis that a rewrite made from another
  // gather (or from a multiaxis of another shape): what its run-time errors
  // name. Dropping it only makes them name the op as it is now.
  // `gather.site_arguments` on a function: its last two arguments (i64) are
  // the line and column that the run-time errors of its gathers name (the
  // function gather-outline-duplicates makes of gathers written at several
  // places). GatherSite.h reads it.
  // `gather.streaming_stores` on an scf.forall that writes rows: its
  // stores into the output may bypass the caches (non-temporal) where the
  // output holds at least this many bytes. gather-streaming-stores does it
  // after bufferization; a pipeline without that pass drops it.
  // `gather.streaming_row_bytes` beside it, where the rows have a dynamic
  // length: the output's outer strides must also be multiples of this many
  // bytes at run time (the cache line: a line written partly past the
  // caches and partly through them is written twice).
  // `gather.error_flag` on the gpu.memcpy that copies a device error flag
  // to the host: gather-gpu-streams copies the flags together at the end of
  // the function and reads them after one synchronization.
  // `gather.leaves_call` on a function: it may not return to its caller (a
  // failed assert leaves the call with a longjmp to the caller's return
  // point, lib/Runtime), which no OpenMP worker may do.
  // gather-serial-leaving-loops keeps the loops that call one, directly or
  // through functions of the module, serial. The plain assert report and
  // the assert barrier's declaration carry it; a program may mark its own.
  let discardableAttrs = (ins "::mlir::UnitAttr":$rolled_loop,
                              "::mlir::gather::OriginAttr":$origin,
                              "::mlir::UnitAttr":$site_arguments,
                              "::mlir::IntegerAttr":$streaming_stores,
                              "::mlir::IntegerAttr":$streaming_row_bytes,
                              "::mlir::UnitAttr":$error_flag,
                              "::mlir::UnitAttr":$leaves_call);
  let hasOperationAttrVerify = 1;
}

//===----------------------------------------------------------------------===//
// Index policies
//===----------------------------------------------------------------------===//

def Gather_NegativeIndexMode : I32EnumAttr<"NegativeIndexMode",
    "how a negative index value is interpreted", [
      I32EnumAttrCase<"wrap", 0>,
      I32EnumAttrCase<"out_of_bounds", 1>
    ]> {
  let cppNamespace = "::mlir::gather";
  let genSpecializedAttr = 0;
}

def Gather_NegativeIndexModeAttr : EnumAttr<Gather_Dialect,
    Gather_NegativeIndexMode, "negative_indices"> {
  let summary = "negative index policy: `wrap` (index + size, ONNX) or `out_of_bounds`";
  let assemblyFormat = "$value";
}

def Gather_OutOfBoundsMode : I32EnumAttr<"OutOfBoundsMode",
    "what happens to an index outside [0, size)", [
      I32EnumAttrCase<"error", 0>,
      I32EnumAttrCase<"clamp", 1>,
      I32EnumAttrCase<"fill", 2>,
      I32EnumAttrCase<"unchecked", 3>
    ]> {
  let cppNamespace = "::mlir::gather";
  let genSpecializedAttr = 0;
}

def Gather_OutOfBoundsModeAttr : EnumAttr<Gather_Dialect,
    Gather_OutOfBoundsMode, "out_of_bounds"> {
  let summary = "out-of-bounds policy: `error`, `clamp`, `fill` (zero) or `unchecked`";
  let assemblyFormat = "$value";
}

//===----------------------------------------------------------------------===//
// Attributes
//===----------------------------------------------------------------------===//

def Gather_OriginAttr : AttrDef<Gather_Dialect, "Origin"> {
  let mnemonic = "origin";
  let summary = "the gather op as written, which a rewritten op's errors name";
  let description = [{
    Recorded by the rewrites that replace a gather by a `gather.multiaxis` of
    other operand shapes (the rewrite of `gather.block`, `gather.elements`
    and `gather.nd` into multiaxis form, and the canonicalizations that take
    unit dimensions out of a multiaxis gather), as the discardable attribute
    `gather.origin`, so that a run-time error names the op, the dimension and
    the index position the user wrote:

    - `name`: the op as written (`"gather.block"`);
    - `dims`: per coordinate component of the op it is attached to, the data
      dimension of the op as written that the component indexes;
    - `indices`: the static shape of the indices as written;
    - `indices_dims`: per dimension of the indices as written, the dimension
      of the op's own indices that holds it (several written dimensions may
      share one, as where GatherND's coordinates fold into the last
      dimension), or -1 for a unit dimension that the rewrite removed.

    The rewrites only insert, remove and merge dimensions, so an index value
    has the same row-major position in both indices.

    ```mlir
    %0 = gather.multiaxis %d[%i] axes = [0] into %init
        {gather.origin = #gather.origin<"gather.block", dims = [0],
                                        indices = [?x3], indices_dims = [1, 2]>}
        : tensor<100x1x1x8xf32>, tensor<1x?x3x1xi64> into tensor<1x?x3x8xf32>
    ```
  }];
  let parameters = (ins StringRefParameter<"the op as written">:$name,
                        ArrayRefParameter<"int64_t">:$dims,
                        ArrayRefParameter<"int64_t">:$indices,
                        ArrayRefParameter<"int64_t">:$indices_dims);
  // Hand-written: empty lists and `?` sizes.
  let hasCustomAssemblyFormat = 1;
  let genVerifyDecl = 1;
}

#endif // GATHER_DIALECT_GATHER_IR_GATHERBASE_TD
