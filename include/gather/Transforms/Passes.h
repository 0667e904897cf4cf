//===- Passes.h - transformations the pipelines use ------------*- C++ -*-===//

#ifndef GATHER_TRANSFORMS_PASSES_H
#define GATHER_TRANSFORMS_PASSES_H

#include "mlir/Pass/Pass.h"

namespace mlir::gather {

#define GEN_PASS_DECL
#include "gather/Transforms/Passes.h.inc"

#define GEN_PASS_REGISTRATION
#include "gather/Transforms/Passes.h.inc"

/// The entries gather-destination-entries adds for a function `@f`:
/// `@f__into` (results into caller buffers) and `@f__shape` (their sizes).
inline constexpr llvm::StringLiteral kIntoEntrySuffix = "__into";
inline constexpr llvm::StringLiteral kShapeEntrySuffix = "__shape";

} // namespace mlir::gather

#endif // GATHER_TRANSFORMS_PASSES_H
