//===- Passes.td - transformations the pipelines use ------*- tablegen -*-===//
//
// Transformations of the code the lowerings produce, used by the gather
// pipelines; they do not involve gather ops.
//
//===----------------------------------------------------------------------===//

#ifndef GATHER_TRANSFORMS_PASSES_TD
#define GATHER_TRANSFORMS_PASSES_TD

include "mlir/Pass/PassBase.td"

def GatherParallelOuterLoops : Pass<"gather-parallel-outer-loops"> {
  let summary = "Keep only the outer dimensions of scf.parallel loops parallel";
  let description = [{
    `convert-scf-to-openmp` turns all dimensions of an `scf.parallel` into
    one collapsed OpenMP loop that recomputes each index with a division and
    a remainder per iteration. This pass keeps the shortest prefix of
    dimensions whose static trip counts reach `min-iterations` parallel and
    makes the rest nested `scf.for` loops, so that inner dimensions run as
    plain (vectorizable) loops. Loops with reductions are left alone.
  }];
  let options = [
    Option<"minIterations", "min-iterations", "int64_t", "16",
           "Parallel iterations to aim for (enough to balance the threads)">
  ];
  let dependentDialects = ["::mlir::scf::SCFDialect"];
}


def GatherSplitFunctions : Pass<"gather-split-functions", "ModuleOp"> {
  let summary = "Split long straight-line function bodies into a chain of calls";
  let description = [{
    Several upstream passes take time that grows faster than the size of a
    function: one-shot bufferization's alias analysis, the buffer
    deallocation simplification (every buffer of a block is freed by one
    `bufferization.dealloc` at its end, compared pairwise), the block
    splitting of `convert-scf-to-cf`, and LLVM's own optimizations. A model
    with thousands of gathers in one function then compiles in minutes.

    This pass cuts the body of every `func.func` whose single block holds
    more than `max-ops` operations (nested ones counted) into consecutive
    pieces of at most about `max-ops` operations. Each piece becomes a
    private function (marked `noinline`, so that LLVM does not merge them
    again) that takes the values it uses from earlier pieces and returns the
    ones later pieces use; the original function calls them in order.
    Constants are cloned into the pieces that use them. The cost at run time
    is one call per piece.
  }];
  let options = [
    Option<"maxOps", "max-ops", "int64_t", "4000",
           "Largest number of operations a function body keeps">
  ];
  let dependentDialects = ["::mlir::func::FuncDialect"];
}

#endif // GATHER_TRANSFORMS_PASSES_TD
