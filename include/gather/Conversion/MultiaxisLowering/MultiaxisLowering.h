//===- MultiaxisLowering.h - the shared lowering of gather ops --*- C++ -*-===//
//
// Part of the gather project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// The one implementation of gather semantics in the compiler: coordinate
// mapping, broadcasting, the index policy in the loops and the run-time
// checks. The GatherToLinalg, GatherToSCF and GatherToGPU conversions only
// choose a strategy (how to loop over the output, how to reduce a check over
// the indices, which structured forms to use); the ONNX-style ops reach the
// lowering through their rewrite into gather.multiaxis.
//
//===----------------------------------------------------------------------===//

#ifndef GATHER_CONVERSION_MULTIAXISLOWERING_MULTIAXISLOWERING_H
#define GATHER_CONVERSION_MULTIAXISLOWERING_MULTIAXISLOWERING_H

#include "gather/Dialect/Gather/IR/GatherOps.h"
#include "gather/Dialect/Gather/Utils/RuntimeChecks.h"
#include "gather/Dialect/Gather/Utils/Semantics.h"
#include "gather/Target/CpuTarget.h"

#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/PatternMatch.h"

namespace mlir::gather {

/// Computes the element of the output at `coords`.
using ElementFn =
    llvm::function_ref<Value(OpBuilder &, Location, ValueRange coords)>;

/// Builds loops over the output (the sizes of `init`) that fill `init` with
/// `element(coords)`, and returns the filled tensor.
using LoopNestBuilder = Value (*)(OpBuilder &, Location, Value init,
                                  ElementFn element);

/// The i1 "index value `value` is valid", given its position `lastPos` along
/// the last indices dimension (which says the dimension it addresses).
using IndexCheckFn = llvm::function_ref<Value(OpBuilder &, Location,
                                              Value value, Value lastPos)>;

/// Reduces `isValid` over every value of `indices` to one i1 "all valid".
using AllOfBuilder = Value (*)(OpBuilder &, Location, Value indices,
                               IndexCheckFn isValid);

/// Makes the zeroed flag (a rank-0 memref of an integer type) that the
/// loops set to 1 when they read an invalid index; `insideLoop`: the gather
/// is itself in a loop (a tile of a fused nest), where a stack slot does not
/// fit.
using ErrorFlagBuilder = Value (*)(OpBuilder &, Location, bool insideLoop);

/// Reads the flag back on the host as an i1 "an index was invalid".
using ErrorFlagReader = Value (*)(OpBuilder &, Location, Value flag);

/// scf.for loops over every dimension of the tensor `shaped`, threading
/// `iterArgs` through `body(ivs, args)`; returns the final values.
SmallVector<Value>
buildForLoopsOver(OpBuilder &b, Location loc, Value shaped, ValueRange iterArgs,
                  llvm::function_ref<SmallVector<Value>(OpBuilder &, Location,
                                                        ValueRange, ValueRange)>
                      body);

/// The serial LoopNestBuilder: scf.for loops that insert `element(coords)`
/// into `init`.
Value buildSerialLoopNest(OpBuilder &b, Location loc, Value init,
                          ElementFn element);

/// What one lowering of gather.multiaxis chooses; the semantics, policies
/// and checks are shared.
struct MultiaxisLoweringStrategy {
  /// The element-by-element loop form.
  LoopNestBuilder buildLoops = nullptr;
  /// The reduction that checks the indices under `out_of_bounds = error`
  /// before the loops (or, with checkIndicesInLoops, those no loop reads).
  AllOfBuilder buildAllOf = nullptr;
  /// Check the index values in the gather's own loops: each reads through
  /// an index made safe and raises a flag for an invalid one, decided after
  /// the loops (one pass over the indices instead of two).
  bool checkIndicesInLoops = false;
  /// Where that flag lives when the loops do not run on the host (device
  /// memory): how it is made and read back. Null: a host memref<i8>.
  ErrorFlagBuilder buildErrorFlag = nullptr;
  ErrorFlagReader readErrorFlag = nullptr;
  /// Also lower gathers on buffers (after bufferization), by their scalar
  /// semantics in host loops that report errors from inside.
  bool lowerBufferForms = false;
  /// Copy a trailing block of output dimensions taken whole from the input
  /// (an embedding row) with one slice per coordinate in an scf.forall.
  bool blockCopy = false;
  /// Vectorize element gathers along the innermost dimension, and resolve
  /// indices that many iterations reuse once into a table.
  bool vectorize = false;
  /// Software prefetch in the block copies and vector rows (CPU forms):
  /// what a later iteration reads, where the input is too large to stay in
  /// the caches; there also the vector rows' offsets resolved a chunk ahead
  /// of their reads.
  bool prefetch = false;
  /// The machine the CPU forms are planned for: vector width, cache line,
  /// caches (the tiles, chunks, prefetch distances and size thresholds are
  /// its functions).
  CpuTarget target;
  /// Emit a remark on each gather naming the form it is lowered to
  /// (describeLoweringForm): the tests count which fast paths random cases
  /// take.
  bool reportForms = false;
  /// The output is in host memory: the path that only an empty axis or a
  /// failed shape check takes writes its zeros with buildSerialLoopNest. A
  /// linalg.fill there becomes a parallel loop, an outlined OpenMP function
  /// per gather with dynamic sizes, for a path that is cold.
  bool serialColdPath = false;
  /// The value, position and dimension of an invalid index are found by a
  /// scan of the indices on the host, on the failing path
  /// (gather.check_indices). Where the indices are not in host memory, the
  /// scan reads the copy this makes.
  IndicesToHostFn indicesToHost = nullptr;
};

/// Replaces `op` by its lowering. Checks that cannot be decided statically
/// (dynamic broadcasts, the coordinate fold of a dynamic last dimension)
/// run before the loops; when one fails it is reported (gather.check_shape)
/// and the output is zeros. Index bounds under `out_of_bounds = error` are
/// checked in the loops or before them (see checkIndicesInLoops); an invalid
/// index is reported (gather.check_indices), and the output is then
/// unspecified. Where dynamic sizes hide what the plan needs (indices that
/// broadcast, the extent of small axes), the loops come in versions chosen
/// at run time (docs/Lowering.md, "Dynamic sizes"). Creates nothing outside
/// the function.
LogicalResult lowerMultiaxis(RewriterBase &rewriter, MultiaxisOp op,
                             const MultiaxisLoweringStrategy &strategy);

/// The patterns of a lowering: gather.elements with run-time-bounded sizes
/// (their size check, then the rewrite), the rewrites of gather.block,
/// gather.elements and gather.nd into gather.multiaxis, the
/// simplifications that take unit dimensions out of a multiaxis gather, and,
/// with the lowest benefit so that those apply first, the lowering of
/// gather.multiaxis with `strategy`. `strategy` is copied.
void populateMultiaxisLoweringPatterns(
    RewritePatternSet &patterns, const MultiaxisLoweringStrategy &strategy);

/// Runs lowering patterns (from the populate functions of GatherToLinalg,
/// GatherToSCF, GatherToGPU, possibly mixed with others) on `root`, any op.
/// Every gather op left afterwards gets an error ("could not be lowered")
/// and the result is failure.
LogicalResult applyGatherLoweringPatterns(Operation *root,
                                          RewritePatternSet &&patterns);

/// Lowers a buffer-form gather op (after bufferization) to an scf.parallel
/// over the output that stores element by element, after the run-time shape
/// checks (a failure is reported and writes nothing).
LogicalResult lowerBufferGather(RewriterBase &rewriter, Operation *gatherOp);

/// The scalar loop form: one linalg.generic over the output (parallel
/// iterators) whose body computes `element(linalg.index coordinates)`.
Value buildGenericLoopNest(OpBuilder &b, Location loc, Value init,
                           ElementFn element);

/// An scf.parallel over [0, sizes) with unit steps whose body gets the
/// coordinates (none for an empty `sizes`: one iteration).
scf::ParallelOp buildParallelOverShape(
    OpBuilder &b, Location loc, ArrayRef<Value> sizes,
    llvm::function_ref<void(OpBuilder &, Location, ValueRange)> body);

} // namespace mlir::gather

#endif // GATHER_CONVERSION_MULTIAXISLOWERING_MULTIAXISLOWERING_H
