//===- GatherOps.td - gather dialect operations ------------*- tablegen -*-===//
//
// Part of the gather project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#ifndef GATHER_DIALECT_GATHER_IR_GATHEROPS_TD
#define GATHER_DIALECT_GATHER_IR_GATHEROPS_TD

include "gather/Dialect/Gather/IR/GatherBase.td"
include "gather/Dialect/Gather/IR/GatherInterfaces.td"
include "mlir/Interfaces/DestinationStyleOpInterface.td"
include "mlir/Interfaces/InferTypeOpInterface.td"
include "mlir/Interfaces/SideEffectInterfaces.td"
include "mlir/Interfaces/ControlFlowInterfaces.td"
include "mlir/IR/BuiltinAttributes.td"
include "mlir/IR/CommonAttrConstraints.td"
include "mlir/IR/CommonTypeConstraints.td"

def Gather_IndexElementType : AnyTypeOf<[I8, I16, I32, I64, Index],
    "signless integer (i8, i16, i32, i64) or index">;
// What the lowerings can read, select and zero-fill (arith ops): signed,
// unsigned, complex and vector elements are rejected by name.
def Gather_ElementType : AnyTypeOf<[AnySignlessInteger, AnyFloat, Index],
    "signless integer, float or index">;
// Tensors, or buffers once bufferized (the same op, destination-passing).
def Gather_Shaped : AnyTypeOf<[RankedTensorOf<[Gather_ElementType]>,
                               MemRefOf<[Gather_ElementType]>],
    "ranked tensor or memref of signless integer, float or index">;
def Gather_Indices : AnyTypeOf<[RankedTensorOf<[Gather_IndexElementType]>,
                                MemRefOf<[Gather_IndexElementType]>],
    "ranked tensor or memref of signless integer (i8, i16, i32, i64) or "
    "index">;

// Shared by all four ops: destination-passing style (the output is written
// into `init`; on tensors the result is the new value of `init`, on buffers
// there is no result), the policy attributes, shape reification, memory
// effects on buffers, and speculation only under the policies that never
// trap.
class Gather_Op<string mnemonic, list<Trait> traits = []>
    : Op<Gather_Dialect, mnemonic, traits # [
        DeclareOpInterfaceMethods<MemoryEffectsOpInterface>,
        DeclareOpInterfaceMethods<ConditionallySpeculatable>,
        DestinationStyleOpInterface,
        DeclareOpInterfaceMethods<Gather_GatherOpInterface,
            ["getSource", "getGatheredDims"]>,
        InferTypeOpAdaptor,
        DeclareOpInterfaceMethods<ReifyRankedShapedTypeOpInterface,
            ["reifyResultShapes"]>]> {
  code commonDeclarations = [{
    /// Computes the output dimensions from the operand shapes; reports the
    /// broken rule through `emitError` when it is non-null.
    ::mlir::FailureOr<::mlir::gather::GatherShape>
    analyzeShapes(::mlir::gather::EmitErrorFn emitError = nullptr);

    /// The `negative_indices` and `out_of_bounds` attributes together.
    ::mlir::gather::IndexPolicy getIndexPolicy() {
      return {getNegativeIndices(), getOutOfBounds()};
    }

    /// DestinationStyleOpInterface: `init` is the destination.
    ::mlir::MutableOperandRange getDpsInitsMutable() {
      return getInitMutable();
    }

    /// The type of the output: the result's, or the destination buffer's.
    ::mlir::ShapedType getOutputType() {
      return ::llvm::cast<::mlir::ShapedType>(getInit().getType());
    }
  }];
  code dpsDescription = [{

    Destination-passing style. The output is written into `init`, whose
    contents are never read: on tensors the op returns the new value of
    `init` (its type is the init type), on buffers (after bufferization) it
    writes the `init` buffer and has no result. `init` must have the output
    shape the operands imply (a `?` matches any size; on dynamic sizes the
    lowerings check it at run time).
  }];
  code policyDescription = [{

    Index policy. An index value `i` along a dimension of size `s` is valid
    when `0 <= i < s`. With `negative_indices = wrap` (the default, as in
    ONNX) an index in `[-s, 0)` is first replaced by `i + s`; with
    `negative_indices = out_of_bounds` every negative index is out of bounds.
    An out-of-bounds index then follows `out_of_bounds`: `error` (the
    default) stops the program with a runtime error naming the op, `clamp`
    reads the nearest valid element, `fill` produces zero, and `unchecked`
    performs no check at all (undefined behaviour on bad indices, fastest).
    When the indices are a constant, the verifier rejects out-of-range values
    under `error` at compile time.
  }];
  code tileDescription = [{

    Tiles. A tile of a larger gather (what the TilingInterface makes: the
    same op on slices of the operands) carries that gather's indices as
    written in `whole_indices` (not where an op that tiling may fuse
    computes them). The op reads only `indices`; under `error`
    an invalid index is reported as the larger gather reports it: the
    first invalid value of `whole_indices` in row-major order, with its
    position there (value `p` of their last dimension addresses coordinate
    component `p mod` the number of gathered dimensions). Without it the
    report names positions in `indices`.
  }];
  string policyFormat =
      "(`negative_indices` `=` `` $negative_indices^)? "
      "(`out_of_bounds` `=` `` $out_of_bounds^)? "
      "(`whole_indices` `(` $whole_indices^ `:` type($whole_indices) `)`)? "
      "`into` $init attr-dict `:` ";
  string typesFormat = " `,` type($indices) `into` "
      "custom<DestinationType>(type($init), type($output))";
  let hasVerifier = 1;
  let hasFolder = 1;
  let hasCanonicalizer = 1;
}

// The policy, and the indices an error report scans (see tileDescription).
defvar GatherPolicyArgs = (ins
    DefaultValuedAttr<Gather_NegativeIndexModeAttr,
                      "::mlir::gather::NegativeIndexMode::wrap">:$negative_indices,
    DefaultValuedAttr<Gather_OutOfBoundsModeAttr,
                      "::mlir::gather::OutOfBoundsMode::error">:$out_of_bounds,
    Optional<Gather_Indices>:$whole_indices);



//===----------------------------------------------------------------------===//
// gather.multiaxis
//===----------------------------------------------------------------------===//

def Gather_MultiaxisOp : Gather_Op<"multiaxis"> {
  let summary = "gather along any set of axes with broadcasting";
  let description = [{
    The general gather from the Gather Multiaxis proposal. `input`, `indices`
    and `output` have the same rank `r`. `axes` lists unique dimensions in
    `[0, r)`, in any order; coordinate component `j` indexes `axes[j]`.

    Coordinates are folded into the last indices dimension: with
    `k = max(len(axes), 1)`, the last indices dimension must be a multiple of
    `k`, and the *logical* indices shape is the indices shape with its last
    dimension divided by `k`. Output dimension `d` is:
    - for `d` in `axes`: the logical indices size of `d`;
    - otherwise: the bidirectional broadcast of the input size and the logical
      indices size of `d` (they must be equal, or one of them 1).

    Semantics, for every output coordinate `o`: let `p` be `o` with the
    broadcast (size 1) dimensions of the logical indices set to 0, and
    `base = p[r-1] * k`; then `c[axes[j]] = indices[p[0], ..., base + j]`,
    and every other component of `c` is `o[d]` (0 where the input size is 1).
    `output[o] = input[c]`. Empty `axes` is a pure broadcast of the input.

    ```mlir
    // GatherND-like lookup of (n, c) pairs from an NHWC tensor: 2 axes, so
    // the last indices dimension 32 holds 16 coordinate pairs.
    %0 = gather.multiaxis %input[%indices] axes = [0, 3] into %init
        : tensor<32x56x56x64xf32>, tensor<8x1x1x32xi64> into tensor<8x56x56x16xf32>
    // The proposal's example: input [4,2,1,2], indices [1,3,2,2], axes [1]
    // gives [4,3,2,2].
    %1 = gather.multiaxis %a[%b] axes = [1] out_of_bounds = clamp into %e
        : tensor<4x2x1x2xf32>, tensor<1x3x2x2xi32> into tensor<4x3x2x2xf32>
    // On buffers, after bufferization: no result.
    gather.multiaxis %ma[%mb] axes = [1] into %buffer
        : memref<4x2x1x2xf32>, memref<1x3x2x2xi32> into memref<4x3x2x2xf32>
    ```
  }] # dpsDescription # policyDescription # tileDescription;
  let arguments = !con((ins Gather_Shaped:$input,
                            Gather_Indices:$indices,
                            DenseI64ArrayAttr:$axes), GatherPolicyArgs,
                       (ins Gather_Shaped:$init));
  let results = (outs Optional<AnyRankedTensor>:$output);
  let assemblyFormat = "$input `[` $indices `]` `axes` `=` $axes "
                       # policyFormat # "type($input)" # typesFormat;
  let extraClassDeclaration = commonDeclarations # [{
    /// Number of index values per coordinate: max(len(axes), 1).
    int64_t getCoordinateSize() {
      return std::max<int64_t>(getAxes().size(), 1);
    }
  }];
}

//===----------------------------------------------------------------------===//
// gather.block
//===----------------------------------------------------------------------===//

def Gather_BlockOp : Gather_Op<"block"> {
  let summary = "gather whole slices along one axis (ONNX Gather, numpy.take)";
  let description = [{
    ONNX `Gather` / `numpy.take` / `tf.gather`. `data` has rank `r >= 1`,
    `indices` any rank `q` (0 allowed), `axis` is in `[-r, r-1]` (negative
    counts from the back). The output has rank `q + r - 1` and shape
    `data.shape[:axis] ++ indices.shape ++ data.shape[axis+1:]`:

    `output[i..., j, k...] = data[i..., indices[j], k...]`

    ```mlir
    // Embedding lookup.
    %0 = gather.block %table[%ids] axis = 0 into %init
        : tensor<50000x768xf32>, tensor<8x1024xi64> into tensor<8x1024x768xf32>
    ```
  }] # dpsDescription # policyDescription # tileDescription;
  let arguments = !con((ins Gather_Shaped:$data,
                            Gather_Indices:$indices,
                            DefaultValuedAttr<I64Attr, "0">:$axis),
                       GatherPolicyArgs, (ins Gather_Shaped:$init));
  let results = (outs Optional<AnyRankedTensor>:$output);
  let assemblyFormat = "$data `[` $indices `]` `axis` `=` $axis "
                       # policyFormat # "type($data)" # typesFormat;
  let extraClassDeclaration = commonDeclarations # [{
    /// The axis in [0, rank); only meaningful on a verified op.
    int64_t getNormalizedAxis() {
      int64_t axis = getAxis();
      int64_t rank = ::llvm::cast<::mlir::ShapedType>(getData().getType()).getRank();
      return axis < 0 ? axis + rank : axis;
    }
  }];
}

//===----------------------------------------------------------------------===//
// gather.elements
//===----------------------------------------------------------------------===//

def Gather_ElementsOp : Gather_Op<"elements"> {
  let summary = "gather single elements along one axis (ONNX GatherElements, torch.gather)";
  let description = [{
    ONNX `GatherElements` / `torch.gather` / `numpy.take_along_axis`. `data`
    and `indices` have the same rank `r >= 1`, `axis` is in `[-r, r-1]`, and
    the output has the shape of `indices`:

    `output[i..., j, k...] = data[i..., indices[i..., j, k...], k...]`

    For `d != axis`, `indices.shape[d] <= data.shape[d]`: like PyTorch and
    ONNX Runtime, smaller index dimensions are accepted and read the leading
    part of `data` (there is no broadcasting of size-1 dimensions).

    ```mlir
    %0 = gather.elements %data[%indices] axis = 1 into %init
        : tensor<4096x4096xf32>, tensor<4096x1024xi64> into tensor<4096x1024xf32>
    ```
  }] # dpsDescription # policyDescription # tileDescription;
  let arguments = !con((ins Gather_Shaped:$data,
                            Gather_Indices:$indices,
                            DefaultValuedAttr<I64Attr, "0">:$axis),
                       GatherPolicyArgs, (ins Gather_Shaped:$init));
  let results = (outs Optional<AnyRankedTensor>:$output);
  let assemblyFormat = "$data `[` $indices `]` `axis` `=` $axis "
                       # policyFormat # "type($data)" # typesFormat;
  let extraClassDeclaration = commonDeclarations # [{
    /// The axis in [0, rank); only meaningful on a verified op.
    int64_t getNormalizedAxis() {
      int64_t axis = getAxis();
      int64_t rank = ::llvm::cast<::mlir::ShapedType>(getData().getType()).getRank();
      return axis < 0 ? axis + rank : axis;
    }
  }];
}

//===----------------------------------------------------------------------===//
// gather.nd
//===----------------------------------------------------------------------===//

def Gather_NdOp : Gather_Op<"nd"> {
  let summary = "gather slices addressed by coordinate tuples (ONNX GatherND)";
  let description = [{
    ONNX `GatherND`. `data` has rank `r >= 1`, `indices` rank `q >= 1`, and
    `batch_dims = b` satisfies `0 <= b < min(q, r)`. The last indices
    dimension `k` is the coordinate size; it must be static with
    `1 <= k <= r - b`. The leading `b` dimensions are batch dimensions: equal
    in `data` and `indices`, or 1 in `data` (broadcast, as in the multiaxis
    proposal). The output shape is `indices.shape[:-1] ++ data.shape[b+k:]`:

    `output[b..., i..., t...] = data[b..., indices[b..., i..., 0:k], t...]`

    ```mlir
    %0 = gather.nd %data[%indices] batch_dims = 1 into %init
        : tensor<16x512x512x4xf32>, tensor<16x65536x2xi64> into tensor<16x65536x4xf32>
    ```
  }] # dpsDescription # policyDescription # tileDescription;
  let arguments = !con((ins Gather_Shaped:$data,
                            Gather_Indices:$indices,
                            DefaultValuedAttr<I64Attr, "0">:$batch_dims),
                       GatherPolicyArgs, (ins Gather_Shaped:$init));
  let results = (outs Optional<AnyRankedTensor>:$output);
  let assemblyFormat = "$data `[` $indices `]` (`batch_dims` `=` $batch_dims^)? "
                       # policyFormat # "type($data)" # typesFormat;
  let extraClassDeclaration = commonDeclarations;
}

//===----------------------------------------------------------------------===//
// Run-time checks
//===----------------------------------------------------------------------===//

// What the lowerings emit where a rule of a gather can only be checked at run
// time: an op in the function, next to the code it guards, that carries what
// the error message needs. convert-gather-checks-to-runtime turns each into a
// call of the run-time error hook (RuntimeErrorKind.h), the way upstream
// lowers cf.assert late.
class Gather_CheckOp<string mnemonic, list<Trait> traits = []>
    : Op<Gather_Dialect, mnemonic, traits # [MemoryEffects<[MemWrite]>]> {
  code checkDescription = [{

    The error names the op as written (`op_name`) at this op's location,
    which the lowerings give the gather's. The op has a write effect (the
    report), so it is neither removed nor moved.
  }];
  let hasVerifier = 1;
}

def Gather_CheckShapeOp : Gather_CheckOp<"check_shape"> {
  let summary = "reports a run-time shape rule of a gather that does not hold";
  let description = [{
    When `holds` is false, reports the run-time error `kind` of the gather
    `op_name` with its details: the dimension `dim` and the two sizes the
    rule compares (`lhs`, `rhs`; their meaning depends on the kind, see
    `RuntimeErrorKind.h`). The kinds are `shape_mismatch` (dynamic sizes
    that do not broadcast), `indices_larger_than_data` (gather.elements),
    `init_size_mismatch` (a destination of another size) and
    `indices_not_whole_coordinates` (multiaxis). Several checks in a row
    report the first that fails: the error hook keeps the first error.
    A check whose condition is the constant true is removed by
    canonicalization.

    ```mlir
    %ok = arith.cmpi eq, %init_size, %output_size : index
    gather.check_shape %ok, init_size_mismatch dim = 0 sizes(%init_size, %output_size)
        for "gather.block"
    ```
  }] # checkDescription;
  let arguments = (ins I1:$holds, I64Attr:$kind, I64Attr:$dim, Index:$lhs,
                       Index:$rhs, StrAttr:$op_name);
  let assemblyFormat = [{
    $holds `,` custom<RuntimeErrorKind>($kind) `dim` `=` $dim
    `sizes` `(` $lhs `,` $rhs `)` `for` $op_name attr-dict
  }];
  let hasCanonicalizer = 1;
}

def Gather_CheckIndicesOp : Gather_CheckOp<"check_indices",
    [AttrSizedOperandSegments]> {
  let summary = "reports the first index value of a gather that is out of range";
  let description = [{
    Scans `indices` in row-major order for the first value that is not valid
    for the size it addresses and reports it (`index_out_of_bounds`) with
    its value, its position, the dimension and its size. Component `c` of a
    coordinate (the value at position `p` of the last dimension addresses
    component `p mod len(dims)`) addresses a dimension of size `sizes[c]`,
    named `dims[c]` in the message; `negative_indices` says whether negative
    values wrap. The position is given in `shape`, the sizes of the indices
    as written (same row-major order, other dimensions).

    With `assume_invalid` the code before it has already found an invalid
    value (a flag the gather's loops raised): the error is reported also
    when the scan finds none, without its details. Without it, nothing is
    reported when every value is valid (the check of indices that no loop
    reads, of an empty output).

    `indices` is a buffer readable on the host (the lowerings take a
    tensor's buffer with `bufferization.to_buffer`, or a host copy of device
    memory).

    ```mlir
    gather.check_indices %idx sizes(%n) dims = [0] shape(%q0, %q1)
        assume_invalid for "gather.block"
        : memref<?x?xi64, strided<[?, ?], offset: ?>>
    ```
  }] # checkDescription;
  let arguments = (ins Arg<MemRefOf<[Gather_IndexElementType]>,
                           "the indices", [MemRead]>:$indices,
                       Variadic<Index>:$sizes, DenseI64ArrayAttr:$dims,
                       Variadic<Index>:$shape,
                       DefaultValuedAttr<Gather_NegativeIndexModeAttr,
                           "::mlir::gather::NegativeIndexMode::wrap">:
                           $negative_indices,
                       UnitAttr:$assume_invalid, StrAttr:$op_name);
  let assemblyFormat = [{
    $indices `sizes` `(` $sizes `)` `dims` `=` $dims `shape` `(` $shape `)`
    (`negative_indices` `=` `` $negative_indices^)?
    (`assume_invalid` $assume_invalid^)? `for` $op_name attr-dict
    `:` type($indices)
  }];
}

#endif // GATHER_DIALECT_GATHER_IR_GATHEROPS_TD
