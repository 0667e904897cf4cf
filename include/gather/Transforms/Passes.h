//===- Passes.h - transformations the pipelines use ------------*- C++ -*-===//

#ifndef GATHER_TRANSFORMS_PASSES_H
#define GATHER_TRANSFORMS_PASSES_H

#include "mlir/Pass/Pass.h"

namespace mlir {
class RewritePatternSet;
} // namespace mlir

namespace mlir::gather {

#define GEN_PASS_DECL
#include "gather/Transforms/Passes.h.inc"

#define GEN_PASS_REGISTRATION
#include "gather/Transforms/Passes.h.inc"

/// The pattern of gather-expand-shapes-to-reinterpret-casts, for pipelines
/// that run MLIR 22's expand-strided-metadata on reshapes with several
/// dynamic sizes in one group.
void populateExpandShapesToReinterpretCastsPatterns(
    RewritePatternSet &patterns);

/// The entries gather-destination-entries adds for a function `@f`:
/// `@f__into` (results into caller buffers) and `@f__shape` (their sizes).
inline constexpr llvm::StringLiteral kIntoEntrySuffix = "__into";
inline constexpr llvm::StringLiteral kShapeEntrySuffix = "__shape";

} // namespace mlir::gather

#endif // GATHER_TRANSFORMS_PASSES_H
