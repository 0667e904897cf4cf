//===- CheckInput.cpp - input that MLIR 22 verifies but cannot handle -----===//
//
// Part of the gather project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// Three kinds of IR pass MLIR 22's verifiers and then crash its passes:
// - floordiv, ceildiv and mod by a constant below 1 in an affine map: an
//   affine.apply of it folds to poison, and canonicalizations crash on
//   that poison (an scf.forall bound, for one);
// - a reshape whose reassociation index is 2^32 or more: the verifier
//   reads it as an unsigned position (2^32 passes for 0), rewrites index
//   shapes with it;
// - tensor.dim and memref.dim of a constant index outside [0, rank): with
//   the GPU dialect loaded, its canonicalization of memref.dim indexes the
//   shape with a negative index (llvm/llvm-project#205073, fixed for LLVM
//   23). Such a dim is undefined behaviour wherever it runs.
// A fourth kind verifies and has no LLVM lowering: a float type that
// LLVM's type conversion does not map (tf32). convert-to-llvm leaves its
// ops unconverted and the CPU pipeline succeeded with memref ops in its
// output; the GPU pipeline failed on a gpu.func without naming the type.
// The pipelines run this check first, so that such input gets a
// diagnostic.
//
//===----------------------------------------------------------------------===//

#include "gather/Compat/Passes.h"
#include "gather/Utils/Reassociation.h"

#include "mlir/Conversion/LLVMCommon/TypeConverter.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Dialect/Utils/StaticValueUtils.h"
#include "mlir/IR/AffineExpr.h"
#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/IntegerSet.h"
#include "mlir/IR/TypeUtilities.h"
#include "mlir/IR/Verifier.h"
#include "mlir/Interfaces/ShapedOpInterfaces.h"
#include "mlir/Parser/Parser.h"
#include "llvm/Support/SourceMgr.h"

namespace mlir::gather {
#define GEN_PASS_DEF_GATHERCHECKINPUT
#include "gather/Compat/Passes.h.inc"
} // namespace mlir::gather

using namespace mlir;

/// The first floordiv, ceildiv or mod in `expr` whose divisor is a constant
/// below 1, or null.
static AffineExpr findNonPositiveDivisor(AffineExpr expr) {
  AffineExpr found;
  expr.walk([&](AffineExpr e) {
    if (found || (e.getKind() != AffineExprKind::FloorDiv &&
                  e.getKind() != AffineExprKind::CeilDiv &&
                  e.getKind() != AffineExprKind::Mod))
      return;
    auto divisor =
        dyn_cast<AffineConstantExpr>(cast<AffineBinaryOpExpr>(e).getRHS());
    if (divisor && divisor.getValue() < 1)
      found = e;
  });
  return found;
}

/// The reassociation of a reshape: its indices must be the positions of
/// the expanded shape in order.
static LogicalResult checkReassociation(Operation *op) {
  SmallVector<ReassociationIndices> groups;
  int64_t expandedRank;
  if (auto expand = dyn_cast<tensor::ExpandShapeOp>(op)) {
    groups = expand.getReassociationIndices();
    expandedRank = expand.getResultType().getRank();
  } else if (auto collapse = dyn_cast<tensor::CollapseShapeOp>(op)) {
    groups = collapse.getReassociationIndices();
    expandedRank = collapse.getSrcType().getRank();
  } else if (auto expand = dyn_cast<memref::ExpandShapeOp>(op)) {
    groups = expand.getReassociationIndices();
    expandedRank = expand.getResultType().getRank();
  } else if (auto collapse = dyn_cast<memref::CollapseShapeOp>(op)) {
    groups = collapse.getReassociationIndices();
    expandedRank = collapse.getSrcType().getRank();
  } else {
    return success();
  }
  std::optional<int64_t> position =
      gather::findMisplacedReassociationIndex(groups, expandedRank);
  if (!position)
    return success();
  return op->emitOpError("reassociation index at position ")
         << *position << " must be " << *position
         << " (the indices run from 0 to " << expandedRank - 1 << " in order)";
}

/// A dim op's constant index must name a dimension of its ranked source.
static LogicalResult checkDimIndex(Operation *op) {
  auto dim = dyn_cast<ShapedDimOpInterface>(op);
  if (!dim)
    return success();
  auto type = dyn_cast<ShapedType>(dim.getShapedValue().getType());
  std::optional<int64_t> position = getConstantIntValue(dim.getDimension());
  if (!type || !type.hasRank() || !position ||
      (*position >= 0 && *position < type.getRank()))
    return success();
  return op->emitOpError("index ")
         << *position << " is out of range [0, " << type.getRank()
         << ") for the source's dimensions";
}

/// Each value `op` defines (its results, its regions' entry block
/// arguments) whose element type is a float type that LLVM's type
/// conversion does not map gets an error naming it: each value once, where
/// it is defined, not again at each use.
static LogicalResult checkLowerableFloats(Operation *op,
                                          const LLVMTypeConverter &converter) {
  auto check = [&](Type type, StringRef role,
                   unsigned number) -> LogicalResult {
    Type element = getElementTypeOrSelf(type);
    if (!isa<FloatType>(element) || converter.convertType(element))
      return success();
    return op->emitOpError()
           << role << " #" << number << " has element type " << element
           << ", which has no LLVM type: the pipelines cannot lower it";
  };
  for (auto [i, value] : llvm::enumerate(op->getResults()))
    if (failed(check(value.getType(), "result", i)))
      return failure();
  for (Region &region : op->getRegions())
    if (!region.empty())
      for (auto [i, value] : llvm::enumerate(region.front().getArguments()))
        if (failed(check(value.getType(), "argument", i)))
          return failure();
  return success();
}

namespace {
struct GatherCheckInputPass
    : gather::impl::GatherCheckInputBase<GatherCheckInputPass> {
  void runOnOperation() override {
    bool anyFound = false;
    LLVMTypeConverter converter(&getContext());
    getOperation()->walk([&](Operation *op) {
      if (failed(checkReassociation(op)) || failed(checkDimIndex(op)) ||
          failed(checkLowerableFloats(op, converter)))
        anyFound = true;
      AffineExpr found;
      auto check = [&](ArrayRef<AffineExpr> exprs) {
        for (AffineExpr expr : exprs)
          if (!found)
            found = findNonPositiveDivisor(expr);
      };
      // Inherent attributes too (affine.apply keeps its map in properties).
      op->getAttrDictionary().walk(
          [&](AffineMapAttr map) { check(map.getValue().getResults()); },
          [&](IntegerSetAttr set) { check(set.getValue().getConstraints()); });
      if (!found)
        return;
      auto divisor =
          cast<AffineConstantExpr>(cast<AffineBinaryOpExpr>(found).getRHS());
      std::string expression;
      llvm::raw_string_ostream(expression) << found;
      op->emitOpError("divides by ")
          << divisor.getValue() << " in the affine expression " << expression
          << ": floordiv, ceildiv and mod need a positive divisor";
      anyFound = true;
    });
    if (anyFound)
      signalPassFailure();
  }
};
} // namespace

LogicalResult mlir::gather::verifyParsedInput(Operation *op) {
  bool crashes = false;
  op->walk([&](tensor::ConcatOp concat) {
    int64_t dim = concat.getDimAttr().getInt();
    if (dim >= 0)
      return;
    concat.emitOpError("concatenation dim ") << dim << " is negative";
    crashes = true;
  });
  if (crashes)
    return failure();
  return verify(op);
}

OwningOpRef<ModuleOp> mlir::gather::parseInputModule(llvm::SourceMgr &sourceMgr,
                                                     MLIRContext *context) {
  OwningOpRef<ModuleOp> module = parseSourceFile<ModuleOp>(
      sourceMgr, ParserConfig(context, /*verifyAfterParse=*/false));
  if (!module || failed(verifyParsedInput(*module)))
    return nullptr;
  return module;
}
