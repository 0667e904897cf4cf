//===- CheckAffineDivisors.cpp - affine divisors below 1 ------------------===//
//
// floordiv, ceildiv and mod in an affine expression need a positive
// divisor. MLIR 22 parses a zero or negative constant divisor without a
// word, folds an affine.apply of it to poison, and its canonicalizations
// then crash on that poison (an scf.forall bound, for one). The pipelines
// run this check first, so that such input gets a diagnostic.
//
//===----------------------------------------------------------------------===//

#include "gather/Transforms/Passes.h"

#include "mlir/IR/AffineExpr.h"
#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/IntegerSet.h"

namespace mlir::gather {
#define GEN_PASS_DEF_GATHERCHECKAFFINEDIVISORS
#include "gather/Transforms/Passes.h.inc"
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

namespace {
struct GatherCheckAffineDivisorsPass
    : gather::impl::GatherCheckAffineDivisorsBase<
          GatherCheckAffineDivisorsPass> {
  void runOnOperation() override {
    bool anyFound = false;
    getOperation()->walk([&](Operation *op) {
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
