//===- MultiaxisLowering.h - shared lowering of gather.multiaxis -*- C++ -*-===//
//
// The one implementation of gather semantics in the compiler: coordinate
// mapping, broadcasting, index policies and run-time checks. The linalg and
// scf lowerings (and later the GPU one) only choose how to loop over the
// output; ONNX-style ops reach it through the rewrite to gather.multiaxis.
//
//===----------------------------------------------------------------------===//

#ifndef GATHER_CONVERSION_MULTIAXISLOWERING_H
#define GATHER_CONVERSION_MULTIAXISLOWERING_H

#include "gather/Dialect/Gather/IR/GatherOps.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/PatternMatch.h"

namespace mlir::gather {

/// Name of the run-time hook called when a check fails:
/// `void __gather_runtime_error(i64 site, i64 kind)` (lib/Runtime). `site` is
/// the address of a constant NUL-terminated string "op at file:line:col".
inline constexpr llvm::StringLiteral kRuntimeErrorFn = "__gather_runtime_error";

/// Error kinds passed to the hook.
enum class RuntimeErrorKind : int64_t {
  IndexOutOfBounds = 1,
  ShapeMismatch = 2,
  IndicesLargerThanData = 3,
};

/// Computes the element of the output at `coords`.
using ElementFn =
    llvm::function_ref<Value(OpBuilder &, Location, ValueRange coords)>;

/// Builds loops over the output (sizes of `init`) that fill `init` with
/// `element(coords)` and returns the filled tensor.
using LoopNestFn = llvm::function_ref<Value(OpBuilder &, Location, Value init,
                                            ElementFn element)>;

/// The scalar loop form: one linalg.generic over the output (parallel
/// iterators) whose body computes `element(linalg.index coordinates)`.
Value buildGenericLoopNest(OpBuilder &b, Location loc, Value init,
                           ElementFn element);

/// Reduces all index values of `indices` with `isValid(value, position
/// along the last dimension)` and returns an i1 "all valid".
using AllOfFn = llvm::function_ref<Value(
    OpBuilder &, Location, Value indices,
    llvm::function_ref<Value(OpBuilder &, Location, Value value,
                             Value lastPos)>
        isValid)>;

/// Replaces `op` by its lowering. Checks that cannot be decided statically
/// (dynamic broadcasts, the coordinate fold of a dynamic last dimension, and
/// index bounds under `out_of_bounds = error`) run before the loops; when one
/// fails the hook is called and the output is zeros.
///
/// With `copyContiguousBlocks`, a trailing block of output dimensions that is
/// copied from the input whole (an embedding row, the trailing dimensions of
/// a block gather) is copied with one slice per coordinate inside an
/// scf.forall over the other dimensions, instead of element by element.
LogicalResult lowerMultiaxis(RewriterBase &rewriter, MultiaxisOp op,
                             LoopNestFn buildLoops, AllOfFn buildAllOf,
                             bool copyContiguousBlocks);

/// prepareForLowering, then lowerMultiaxis on every gather.multiaxis under
/// `root`: the body of each lowering pass.
LogicalResult lowerAllGathers(Operation *root, LoopNestFn buildLoops,
                              AllOfFn buildAllOf, bool copyContiguousBlocks);

/// An scf.parallel over [0, sizes) with unit steps whose body gets the
/// coordinates (none for an empty `sizes`: one iteration).
scf::ParallelOp buildParallelOverShape(
    OpBuilder &b, Location loc, ArrayRef<Value> sizes,
    llvm::function_ref<void(OpBuilder &, Location, ValueRange)> body);

/// The canonical multiaxis form without run-time checks: every gather that
/// can be rewritten becomes gather.multiaxis, unit dimensions merged and
/// reshapes folded (gather.elements with run-time-bounded sizes stays).
LogicalResult bringToMultiaxisForm(Operation *root);

/// Rewrites every gather into gather.multiaxis and simplifies it (merged
/// unit dimensions, folds), so that the loops are over the fewest dimensions.
LogicalResult prepareForLowering(Operation *root);

/// The op kind and source location a run-time error names: the original
/// ONNX-style op where the rewrite to multiaxis recorded it.
std::string describeGatherSite(Operation *op);

/// Replaces an scf.parallel without reductions by a 1-D gpu.launch over its
/// linearized iteration space, innermost dimension fastest (consecutive
/// threads take consecutive innermost coordinates), guarded against an
/// empty space. Shared by gather-map-to-gpu and the GPU index check.
LogicalResult mapParallelLoopToGPU(scf::ParallelOp loop,
                                   int64_t threadsPerBlock);

/// Collapses the static unit dimensions `unitDims` of a ranked tensor away
/// (each joins the next kept dimension, trailing ones the last).
Value collapseUnitDims(OpBuilder &b, Location loc, Value value,
                       ArrayRef<int64_t> unitDims);

} // namespace mlir::gather

#endif // GATHER_CONVERSION_MULTIAXISLOWERING_H
