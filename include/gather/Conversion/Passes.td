//===- Passes.td - gather conversion passes ----------------*- tablegen -*-===//

#ifndef GATHER_CONVERSION_PASSES_TD
#define GATHER_CONVERSION_PASSES_TD

include "mlir/Pass/PassBase.td"

def ConvertGatherToLinalg : Pass<"convert-gather-to-linalg", "ModuleOp"> {
  let summary = "Lower gather ops to linalg.generic on tensors";
  let description = [{
    Rewrites gather.block / gather.elements / gather.nd into gather.multiaxis
    (as --gather-to-multiaxis does), then lowers every gather.multiaxis to a
    `linalg.generic` over the output whose body reads the coordinates from
    the indices and the element from the input with `tensor.extract`, with
    the op's index policy: negative wrap by a select, `clamp` by min/max,
    `fill` by a select against zero, `unchecked` without any check.

    Checks that cannot be decided at compile time run once before the loop,
    not in it: dynamic broadcasts and the coordinate fold of a dynamic last
    indices dimension, and under `out_of_bounds = error` a reduction over
    the indices. When one fails, `__gather_runtime_error(site, kind)` is
    called (site: the address of a constant string naming the op and its
    location; lib/Runtime prints it and exits with 1) and the result is
    zeros.
  }];
  let dependentDialects = ["::mlir::arith::ArithDialect",
                           "::mlir::func::FuncDialect",
                           "::mlir::linalg::LinalgDialect",
                           "::mlir::memref::MemRefDialect",
                           "::mlir::scf::SCFDialect",
                           "::mlir::tensor::TensorDialect",
                           "::mlir::vector::VectorDialect"];
}

def ConvertGatherToSCF : Pass<"convert-gather-to-scf", "ModuleOp"> {
  let summary = "Lower gather ops to plain scf.for loops (reference lowering)";
  let description = [{
    The same lowering as --convert-gather-to-linalg (one shared
    implementation of the semantics and checks), with `scf.for` loops that
    `tensor.insert` each output element: the readable reference form.
  }];
  let dependentDialects = ["::mlir::arith::ArithDialect",
                           "::mlir::func::FuncDialect",
                           "::mlir::linalg::LinalgDialect",
                           "::mlir::memref::MemRefDialect",
                           "::mlir::scf::SCFDialect",
                           "::mlir::tensor::TensorDialect"];
}

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

#endif // GATHER_CONVERSION_PASSES_TD
