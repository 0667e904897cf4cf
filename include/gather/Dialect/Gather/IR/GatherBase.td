//===- GatherBase.td - gather dialect, policy enums --------*- tablegen -*-===//
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
  // Refines tensor.expand_shape result types ahead of an upstream pattern
  // that crashes on them (ExpandShapeRefinement.cpp).
  let hasCanonicalizer = 1;
  // Canonicalization creates reshapes, slices, constants and broadcasts.
  let dependentDialects = ["::mlir::tensor::TensorDialect",
                           "::mlir::arith::ArithDialect",
                           "::mlir::linalg::LinalgDialect"];
  // `gather.rolled_loop` on an scf.for the lowerings build: LLVM should
  // not unroll it. gather-rolled-loops turns it into LLVM loop metadata;
  // a pipeline without that pass drops it and LLVM decides.
  let discardableAttrs = (ins "::mlir::UnitAttr":$rolled_loop);
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

#endif // GATHER_DIALECT_GATHER_IR_GATHERBASE_TD
