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
    plain (vectorizable) loops. A parallel loop nested in another (a gather
    lowered inside the tiles of a fused loop) becomes serial loops entirely:
    nested OpenMP regions would only add a fork per outer iteration. Loops
    with reductions are left alone.

    A loop whose whole work is known at compile time and small (fewer than
    `min-parallel-work` elements stored, counting the elements of copies
    and vector writes in its body and the trip counts of the loops around
    them) becomes serial loops too: starting the threads of an OpenMP
    region costs more than a small lookup (32 rows of 768 floats). A
    dynamic trip count counts as enough work.
  }];
  let options = [
    Option<"minIterations", "min-iterations", "int64_t", "16",
           "Parallel iterations to aim for (enough to balance the threads)">,
    Option<"minParallelWork", "min-parallel-work", "int64_t", "65536",
           "Elements a loop must store (when known statically) to run in "
           "parallel">
  ];
  let dependentDialects = ["::mlir::scf::SCFDialect"];
}


def GatherCheckInput : Pass<"gather-check-input"> {
  let summary = "Reject IR that MLIR 22 verifies but its passes crash on";
  let description = [{
    Both gather pipelines run this check first; each finding is an error on
    the op, and the pass fails:

    - `floordiv`, `ceildiv` and `mod` need a positive divisor, but MLIR 22
      accepts `s0 ceildiv 0` (or a negative constant) in any affine map or
      integer set. An `affine.apply` of such a map folds to poison, and
      upstream canonicalizations then crash on the poison (an `scf.forall`
      bound, for one; `test/Fuzz/upstream-forall-zero-divisor-crash.mlir`).
    - The reassociation of a `tensor` or `memref` `expand_shape` or
      `collapse_shape` must list the positions of the expanded shape in
      order. MLIR 22's verifier reads each index as an unsigned 32-bit
      position, so `[[4294967296, 1]]` passes for `[[0, 1]]`, and passes
      that index shapes with the indices crash.
    - A `tensor.dim` or `memref.dim` with a constant index must name a
      dimension of its ranked source. An index outside `[0, rank)` is
      undefined behaviour at run time, and with the GPU dialect loaded the
      canonicalization of a `memref.dim` with a negative constant index
      crashes (llvm/llvm-project#205073, fixed for LLVM 23).
  }];
}

def GatherExpandShapesToReinterpretCasts
    : Pass<"gather-expand-shapes-to-reinterpret-casts"> {
  let summary = "Lower memref.expand_shape ops with several dynamic sizes in "
                "one group to memref.reinterpret_cast";
  let description = [{
    MLIR 22's `expand-strided-metadata` assumes at most one dynamic size
    per reassociation group of a `memref.expand_shape` and crashes on more
    (llvm/llvm-project#186830, fixed for LLVM 23 by #187844). Such a
    reshape is ordinary in dynamic models: a `[b * s] -> [b, s]` reshape
    of a flattened tensor, bufferized. This pass rewrites exactly those
    ops, before `expand-strided-metadata` runs, into a
    `memref.reinterpret_cast` of the source whose sizes are the op's
    `output_shape` and whose strides are the source stride of the group
    times the sizes to the right of each dimension; other expand_shape ops
    are left to upstream. Static strides and offsets of the result type
    are kept as they are.

    ```mlir
    %e = memref.expand_shape %a [[0, 1]] output_shape [%m, %n]
        : memref<?xf32> into memref<?x?xf32>
    // becomes
    %base, %offset, %size, %stride = memref.extract_strided_metadata %a
        : memref<?xf32> -> memref<f32>, index, index, index
    %e = memref.reinterpret_cast %a to offset: [0], sizes: [%m, %n],
        strides: [%n, 1] : memref<?xf32> to memref<?x?xf32>
    ```
  }];
  let dependentDialects = ["::mlir::arith::ArithDialect",
                           "::mlir::memref::MemRefDialect"];
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

def GatherInlineAllocaScopes : Pass<"gather-inline-alloca-scopes"> {
  let summary = "Inline memref.alloca_scope ops that hold no stack allocation";
  let description = [{
    `convert-scf-to-openmp` wraps every parallel loop body in a
    `memref.alloca_scope`. Upstream's canonicalization inlines such a scope
    only when nothing in it may allocate on the stack, and counts every call
    as a possible allocation; a body that calls the gather error hook (a
    tile of a fused loop nest) keeps its scope, which becomes invalid once
    the loops inside turn into branches. This pass inlines every scope whose
    region holds no `memref.alloca` (outside nested allocation scopes):
    calls do not allocate in the caller's frame.
  }];
  let dependentDialects = ["::mlir::memref::MemRefDialect"];
}

def GatherUnitStrideVectorGathers : Pass<"gather-unit-stride-vector-gathers"> {
  let summary = "Rewrite vector.gather from memrefs with a non-unit innermost "
                "stride into gathers from the flat buffer";
  let description = [{
    The LLVM lowering of `vector.gather` needs a unit innermost stride, but
    a gather reading a tile of its operands (after tiling, fusion and
    bufferization) reads through a subview whose strides may be dynamic.
    This pass rewrites such a gather into one from the underlying buffer
    viewed as 1-D with unit stride: the fixed coordinates fold into the
    view's offset and the index vector is scaled by the innermost stride.
    Gathers with a static unit innermost stride are left alone.
  }];
  let dependentDialects = ["memref::MemRefDialect", "arith::ArithDialect"];
}

def GatherConstantGlobals
    : Pass<"gather-constant-globals", "::mlir::ModuleOp"> {
  let summary = "Create the memref.global of every tensor constant, in IR "
                "order, before bufferization";
  let description = [{
    One-shot bufferization with function boundaries gives each tensor
    `arith.constant` a `memref.global`, created when its function is
    bufferized. MLIR 22 orders the functions without calls between them by
    iterating a map keyed by operation pointers, so the globals' order, and
    which of two constants of one type gets the `_0` name, changed from run
    to run: the same input gave different output. This pass creates the
    globals first, walking the module in order, with the alignment
    bufferization uses; bufferization then finds and reuses them. The
    globals end up at the top of the module in the order of their first
    constant. Nothing else changes.
  }];
  let dependentDialects = ["::mlir::memref::MemRefDialect"];
}

def GatherDropObjectTimes : Pass<"gather-drop-object-times"> {
  let summary = "Remove the compile times recorded in gpu.binary objects";
  let description = [{
    MLIR 22's `gpu-module-to-binary` records how long each kernel module
    took to compile (`LLVMIRToISATimeInMs`, `ISAToBinaryTimeInMs`) in the
    properties of its `#gpu.object`, so compiling one input twice gave two
    different outputs. This pass removes the properties whose names end in
    `TimeInMs` from every object of every `gpu.binary`; the code, the
    target and the other properties stay. The GPU pipeline runs it after
    `gpu-module-to-binary`.
  }];
}

def GatherFoldSelfCopies : Pass<"gather-fold-self-copies"> {
  let summary = "Erase memref.copy ops that copy a buffer region onto itself";
  let description = [{
    Bufferization writes each tile of a fused loop nest back with a
    `memref.copy` into the destination, and relies on the copy folding away
    when the tile was computed in place. When unit dimensions were taken
    out of the gather in the tile and put back (`memref.collapse_shape`
    then `memref.expand_shape`), the two sides have different layout types
    (the stride of a unit dimension differs) and upstream's self-copy fold
    does not see that they are the same memory: the copy then reads and
    writes the whole tile again. This pass looks through such reshape round
    trips and erases a copy whose source and target are the same value or
    equal subviews of one buffer.
  }];
}

def GatherCopiesToMemcpy : Pass<"gather-copies-to-memcpy"> {
  let summary = "Copy views with run-time sizes or strides with memcpy";
  let description = [{
    Upstream lowers `memref.copy` to one `llvm.intr.memcpy` only where both
    sides have an identity layout or a static contiguous shape; any other
    copy becomes a call of `memrefCopy`, a library function that copies
    element by element (a block gather with dynamic row lengths copies
    each row that way: 18x slower than with static sizes). This pass
    rewrites such a copy between host views with a unit innermost stride:
    one memcpy when both views are row-major contiguous at run time, else
    one per innermost row. Where an innermost stride is known at run time
    only, the memcpy is taken when the views are contiguous with unit
    innermost strides, else the copy stays. Run it on host code only (not before
    gather-map-to-gpu, which turns copies into device copies).
  }];
  let dependentDialects = ["::mlir::LLVM::LLVMDialect",
                           "::mlir::scf::SCFDialect",
                           "::mlir::arith::ArithDialect"];
}

def GatherRolledLoops : Pass<"gather-rolled-loops"> {
  let summary = "Keep LLVM from unrolling the loops marked gather.rolled_loop";
  let description = [{
    The lowering marks a loop `gather.rolled_loop` where unrolling it buys
    little at run time (0-8% on 256-byte rows) and costs much compile time:
    the loop over the 16 blocks
    of a tile whose blocks are 128 bytes or more (each iteration is two or
    more vector copies). LLVM's full unrolling would copy its body 16
    times, and once more for every iteration of a short tile loop around
    it (64 inline block copies for a 64-row gather).

    This pass replaces the mark with
    `loop_annotation = #llvm.loop_annotation<unroll = <disable = true>>`,
    which `convert-scf-to-cf` carries to the loop's back edge and the
    translation to LLVM IR emits as `llvm.loop.unroll.disable`. The scf.for
    loops around a marked loop get the same annotation: unrolling one of
    them copies the marked loop (the serial tile loop of a small block
    gather, 4 tiles of a 64-row gather, became 4 copies of it). Run it
    after bufferization and before `convert-scf-to-cf`; without it the
    mark is dropped there and LLVM unrolls as it likes.
  }];
  let dependentDialects = ["::mlir::LLVM::LLVMDialect"];
}

def GatherApproximateMath : Pass<"gather-approximate-math"> {
  let summary = "Expand math functions into polynomial approximations";
  let description = [{
    Elementwise consumers fused into a gather's loops (an activation after an
    embedding lookup) call math functions such as `math.tanh`, which
    otherwise become scalar libm calls per element that LLVM cannot
    vectorize. This pass applies upstream's polynomial approximations
    (`populateMathPolynomialApproximationPatterns`: tanh, erf, exp, log,
    and others, accurate to a few ulp), which are plain arithmetic that
    LLVM vectorizes, as IREE's CPU backend does.
  }];
  let dependentDialects = [
    "::mlir::arith::ArithDialect",
    "::mlir::math::MathDialect",
    "::mlir::vector::VectorDialect",
  ];
}

def GatherDestinationEntries
    : Pass<"gather-destination-entries", "ModuleOp"> {
  let summary = "Add entries that write a function's results into the "
                "caller's buffers";
  let description = [{
    For every public `func.func` whose results are ranked tensors, adds
    `@<name>__into`: the same body with one more argument per result, a
    `memref` of the result's type with the identity layout, into which the
    result is written (`bufferization.materialize_in_destination ...
    restrict writable`); the function returns nothing. The result must be
    computed in that buffer, not copied there: where it comes from a gather
    (any destination-style op but a linalg one) whose destination is a
    `tensor.empty` used by nothing else, the buffer becomes that
    destination (`bufferization.to_tensor ... restrict writable`), which
    the lowering of the gather keeps through its run-time checks. Otherwise
    (a linalg consumer, which fusion gives a new `tensor.empty`) run
    empty-tensor elimination (`eliminate-empty-tensors`) right before
    bufferization, after the rewrites that make new destinations, as
    `gather-cpu-pipeline{destination-entries=true}` does. Either way the
    result is neither allocated nor copied.

    Writing into a buffer of the wrong size is undefined, so where a result
    has dynamic sizes the pass also adds `@<name>__shape`, which takes the
    same arguments and returns those sizes, in order, as a `tensor<Nxindex>`.
    It must be cheap: it is canonicalized (the sizes of a gather's result
    are those of its destination) and kept only if nothing but size
    arithmetic is left; otherwise (sizes that depend on the contents of a
    tensor) neither entry is added for that function. A caller checks its
    buffers against `__shape` before calling `__into`. The buffers must
    not overlap the arguments (`restrict`).

    Where `__into` computes every result in its buffer (each result a
    distinct value of a destination-style op whose destination is a
    `tensor.empty` of its own: a gather, or a linalg op that empty-tensor
    elimination gives the buffer), the function's own body becomes an
    allocation of the buffers (sized by a copy of `__shape`'s body) and a
    call of `__into`, so that the computation is compiled once. Otherwise
    (a result that is an argument, a constant, one value returned twice)
    `__into` would copy, and the function keeps its body.

    A function whose `__into` or `__shape` name is taken is left alone.
  }];
  let dependentDialects = [
    "::mlir::arith::ArithDialect",
    "::mlir::bufferization::BufferizationDialect",
    "::mlir::memref::MemRefDialect",
    "::mlir::tensor::TensorDialect",
  ];
}

#endif // GATHER_TRANSFORMS_PASSES_TD
