//===- GatherInterfaces.td - what every gather op shares ---*- tablegen -*-===//
//
// Part of the gather project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#ifndef GATHER_DIALECT_GATHER_IR_GATHERINTERFACES_TD
#define GATHER_DIALECT_GATHER_IR_GATHERINTERFACES_TD

include "mlir/IR/OpBase.td"

def Gather_GatherOpInterface : OpInterface<"GatherOpInterface"> {
  let description = [{
    The common view of gather.multiaxis, block, elements and nd: the source
    that is gathered from (`input` or `data`), the indices, the destination,
    the shape rules, the index policy and which source dimensions index
    values address. Code that treats every gather op alike (tiling,
    bufferization, the scalar semantics, value bounds) uses this.
  }];
  let cppNamespace = "::mlir::gather";
  let methods = [
    InterfaceMethod<"The tensor or buffer gathered from.", "::mlir::Value",
      "getSource">,
    InterfaceMethod<"The index values.", "::mlir::Value", "getIndices", (ins),
      [{ return $_op.getIndices(); }]>,
    InterfaceMethod<[{
        On a tile of a larger gather, that gather's indices as written,
        which an error report scans and names positions in; else null.
      }], "::mlir::Value", "getWholeIndices", (ins),
      [{ return $_op.getWholeIndices(); }]>,
    InterfaceMethod<"The `whole_indices` operand, to set or clear.",
      "::mlir::MutableOperandRange", "getWholeIndicesMutable", (ins),
      [{ return $_op.getWholeIndicesMutable(); }]>,
    InterfaceMethod<"The destination.", "::mlir::Value", "getInit", (ins),
      [{ return $_op.getInit(); }]>,
    InterfaceMethod<[{
        Checks the operand shapes against the op's rules and computes the
        output shape and where each output dimension comes from; reports
        the broken rule through `emitError` when it is non-null.
      }], "::mlir::FailureOr<::mlir::gather::GatherShape>", "analyzeShapes",
      (ins "::mlir::gather::EmitErrorFn":$emitError), [{
        return $_op.analyzeShapes(emitError);
      }]>,
    InterfaceMethod<"The `negative_indices` and `out_of_bounds` policy.",
      "::mlir::gather::IndexPolicy", "getIndexPolicy", (ins),
      [{ return $_op.getIndexPolicy(); }]>,
    InterfaceMethod<[{
        The source dimensions that index values address (read whole by
        every output element); the other source dimensions follow output
        dimensions. Only meaningful on a verified op.
      }], "::llvm::SmallVector<int64_t>", "getGatheredDims">,
  ];
}

#endif // GATHER_DIALECT_GATHER_IR_GATHERINTERFACES_TD
