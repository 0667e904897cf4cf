//===- Passes.td - code generation steps of the pipelines --*- tablegen -*-===//
//
// Part of the gather project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// Steps of code generation after the gather lowerings, by target: what
// makes the lowered code fast, or compile fast. They do not involve gather
// ops.
//
//===----------------------------------------------------------------------===//

#ifndef GATHER_CODEGEN_PASSES_TD
#define GATHER_CODEGEN_PASSES_TD

include "mlir/Pass/PassBase.td"

//===----------------------------------------------------------------------===//
// CPU and GPU
//===----------------------------------------------------------------------===//

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
    more than `max-ops` operations (nested ones counted), or more than
    `max-tensors` tensor results of top-level operations (each a buffer
    later: calls of outlined gathers are few operations but many buffers),
    into consecutive pieces within both limits (and the calls of the
    pieces again, while they exceed the limits). Each piece becomes a
    private function (marked `noinline`, so that LLVM does not merge them
    again) that takes the values it uses from earlier pieces and returns the
    ones later pieces use; the original function calls them in order.
    Constants are cloned into the pieces that use them. The cost at run time
    is one call per piece.
  }];
  let options = [
    Option<"maxOps", "max-ops", "int64_t", "4000",
           "Largest number of operations a function body keeps">,
    Option<"maxTensors", "max-tensors", "int64_t", "64",
           "Largest number of tensor results a function body keeps">
  ];
  let dependentDialects = ["::mlir::func::FuncDialect"];
}

def GatherDropArgumentResults : Pass<"gather-drop-argument-results",
                                     "::mlir::ModuleOp"> {
  let summary = "Drop the results of private functions that return a buffer argument";
  let description = [{
    After bufferization, a function that computes into a buffer argument
    returns that argument (the functions gather-outline-duplicates makes).
    The callers cannot see that the result is their own buffer, and the
    buffer deallocation then decides at run time which buffers alias. This
    pass drops such results (through `memref.cast`) from private functions
    whose every use is a `func.call` in the module, and gives each call's
    users the operand it passed. Public functions keep their signatures
    (upstream's drop-equivalent-buffer-results changes them too).
  }];
  let dependentDialects = ["::mlir::memref::MemRefDialect"];
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

def GatherRolledLoops : Pass<"gather-rolled-loops"> {
  let summary = "Keep LLVM from unrolling the loops marked gather.rolled_loop";
  let description = [{
    The lowering marks a loop `gather.rolled_loop` where unrolling it buys
    little at run time (0-8% on 256-byte rows) and costs much compile time:
    the loop over the blocks of a tile whose blocks are 128 bytes or more
    (each iteration is two or more vector copies). LLVM's full unrolling
    would copy its body once per block of the tile, and once more for
    every iteration of a short tile loop around it (64 inline block copies
    for a 64-row gather).

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

def GatherHoistStaticAllocas : Pass<"gather-hoist-static-allocas"> {
  let summary = "Move stack buffers of static size out of loops, to the "
                "start of their thread's or function's frame";
  let description = [{
    The lowering allocates scratch buffers (a vector row's chunk of
    offsets) with `memref.alloca` inside the loop over rows. In a loop an
    alloca grows the stack every iteration unless an alloca scope frees it;
    `convert-scf-to-openmp` puts the parallel body in one, which is then
    invalid once the loops inside become several blocks. This pass moves
    every `memref.alloca` of static shape to the start of the entry block of
    the nearest enclosing allocation scope that is neither a
    `memref.alloca_scope` nor a loop: an `omp.parallel` (one buffer per
    thread) or the function. (`scf.for` is an allocation scope, but
    `convert-scf-to-cf` frees nothing at the end of an iteration: an alloca
    in its body grew the stack of an OpenMP worker over its limit.) An alloca's contents are undefined when it is made, and the
    buffer is not used past the scope it left, so one buffer serves every
    iteration. Run it before `gather-inline-alloca-scopes` and
    `convert-scf-to-cf`.
  }];
}

//===----------------------------------------------------------------------===//
// CPU
//===----------------------------------------------------------------------===//

def GatherSerialLeavingLoops : Pass<"gather-serial-leaving-loops",
                                    "ModuleOp"> {
  let summary = "Run serially the scf.parallel loops whose body may leave "
                "the call";
  let description = [{
    Where errors are recorded, a failed assert leaves the call: the run-time
    library longjmps to the caller's return point (lib/Runtime). An OpenMP
    worker cannot do that (libomp's team would stay open), so a failed
    assert inside a parallel region either skips what it guards and lets
    the barrier after the loop leave, or, where it cannot skip (an assert
    nested in an `scf.if` of a body, one in a program's own parallel loop,
    the barrier of a loop inside another parallel loop), ends the process,
    after the code past it ran on the values the assert rejected.

    This pass makes each `scf.parallel` whose body calls a function that
    may leave the call nested `scf.for` loops (its reductions their
    iteration arguments), so that no parallel region holds such a call. A
    function may leave the call where it carries `gather.leaves_call`
    (the plain assert report, the assert barrier's
    declaration, and any function a program marks) or calls such a function
    of the module, directly or through others. A loop whose body's asserts
    all skip (a linalg op's body with its asserts at the top) stays
    parallel: its barrier is after the loop. Indirect calls and functions
    outside the module count as staying. Run it after `scf.forall` loops
    became `scf.parallel` and before `convert-scf-to-openmp`.
  }];
  let dependentDialects = ["::mlir::scf::SCFDialect"];
}

def GatherOpenMPReductions : Pass<"gather-openmp-reductions"> {
  let summary = "Make scf.parallel reductions ones convert-scf-to-openmp "
                "takes, or the loops serial";
  let description = [{
    `convert-scf-to-openmp` declares an OpenMP reduction only for a
    combiner of one `arith.addf`, `addi`, `ori`, `xori`, `andi`, `mulf` or
    `muli` of the combiner's arguments in order, or of a less-than or
    greater-than `arith.cmpf` / `arith.cmpi` of them and an `arith.select`
    of them, on an integer or float type (or a vector of one); any other
    reduction in a module (an `arith.maxsi` combiner, a float maximum, a sum
    of `index` values) fails it with "unconverted operation found".

    This pass rewrites an integer minimum or maximum combiner
    (`arith.maxsi`, `minsi`, `maxui`, `minui`) into the compare and select
    that is the same value, so the loop stays parallel, and makes each
    `scf.parallel` with another combiner nested `scf.for` loops that carry
    its reductions in iteration order (float `maximumf` and `maxnumf`
    differ from a compare and select on NaN). Run it just before
    `convert-scf-to-openmp`.
  }];
  let dependentDialects = ["::mlir::arith::ArithDialect"];
}

def GatherParallelOuterLoops : Pass<"gather-parallel-outer-loops"> {
  let summary = "Keep only the outer dimensions of scf.parallel loops parallel";
  let description = [{
    `convert-scf-to-openmp` turns all dimensions of an `scf.parallel` into
    one collapsed OpenMP loop that recomputes each index with a division and
    a remainder per iteration. This pass keeps the shortest prefix of
    dimensions whose static trip counts reach `min-iterations` (by default
    four per core of the target description, at least 16) parallel and
    makes the rest nested `scf.for` loops, so that inner dimensions run as
    plain (vectorizable) loops. A parallel loop nested in another (a gather
    lowered inside the tiles of a fused loop) becomes serial loops entirely:
    nested OpenMP regions would only add a fork per outer iteration. Loops
    with reductions are left alone.

    A loop whose whole work is known at compile time and small (fewer than
    `min-parallel-bytes` bytes stored, counting the bytes of the stores,
    copies and vector writes in its body times the trip counts of the loops
    around them, and the larger branch of an `scf.if`: the two versions of
    a loop, or an error path) becomes serial loops too: starting the
    threads of an OpenMP region costs more than a small lookup (32 rows of
    768 floats). A dynamic trip count counts as enough work. By default the
    threshold is the target description's (`CpuTarget::parallelMinBytes`,
    the DLTI entry `parallel_min_bytes`; else 160 KiB, where two threads
    started to beat one on row gathers of f32 and f16, docs/Lowering.md).
  }];
  let options = [
    Option<"minIterations", "min-iterations", "int64_t", "0",
           "Parallel iterations to aim for (enough to balance the threads); "
           "0: the target's (four per core, at least 16)">,
    Option<"minParallelBytes", "min-parallel-bytes", "int64_t", "-1",
           "Bytes a loop must store (when known statically) to run in "
           "parallel; -1: the target's (parallel_min_bytes, else 160 KiB)">,
    Option<"targetCpu", "target-cpu", "std::string", "\"\"",
           "The CPU whose description sets min-iterations and "
           "min-parallel-bytes (as convert-gather-to-linalg's option; the "
           "#dlti.target_system_spec entries \"cores\" and "
           "\"parallel_min_bytes\" for device \"CPU\" override it)">,
    Option<"onHost", "on-host", "bool", "false",
           "The code runs on this machine: the host's cores">
  ];
  let dependentDialects = ["::mlir::scf::SCFDialect"];
}

def GatherParallelErrorState : Pass<"gather-parallel-error-state",
                                    "ModuleOp"> {
  let summary = "Give each OpenMP parallel region that can report the error "
                "state of the call that starts it";
  let description = [{
    The run-time library records the errors of compiled code per calling
    thread, so that two threads calling compiled code at once each take
    their own (lib/Runtime). A report from an OpenMP worker thread (a
    skipping assert of a loop body, a gather inside a program's parallel
    loop) would otherwise go to no caller's state. Before each `omp.parallel`
    whose region holds a call, this pass calls `__gather_runtime_error_state`
    (the starting thread's state), and each thread of the region adopts it
    with `__gather_runtime_adopt_error_state` at the region's start and
    restores what it had at each `omp.terminator`
    (RuntimeErrorKind.h: kErrorStateOf, kAdoptErrorState). A region without
    calls cannot report and is left as it is. Run it after
    `convert-scf-to-openmp`, on func-dialect calls.
  }];
  let dependentDialects = ["::mlir::func::FuncDialect",
                           "::mlir::LLVM::LLVMDialect"];
}

def GatherStreamingStores : Pass<"gather-streaming-stores"> {
  let summary = "Write the rows of large outputs with non-temporal stores";
  let description = [{
    The CPU lowering marks the `scf.forall` of a loop that writes rows a
    vector register at a time (block copies, vector rows)
    `gather.streaming_stores = N` where its output may hold N bytes or more
    (half of the target's L3, `CpuTarget::streamingStoreMinBytes`): a store
    through the caches first reads the line from memory, and a line of an
    output larger than the cache is evicted before anything reads it.
    Non-temporal stores write whole lines without reading them (W1, W2,
    W7 1.2-1.4x and W3 1.13x faster on a Zen 1, docs/Lowering.md).

    After bufferization this pass versions each marked loop on a run-time
    condition: the output buffer (the memref that the loop's
    `vector.transfer_write`s write through `memref.subview`s) holds N bytes
    or more, its first element is aligned to the widest vector written and
    its strides other than the innermost (which must be 1) are multiples
    of it (of `gather.streaming_row_bytes` too, where the loop has it:
    rows of a dynamic length must be whole lines). Where it holds, a copy
    writes with `vector.store {nontemporal = true, alignment = ...}`
    (`vmovntps` needs the alignment; unaligned, x86 would split the store
    into scalar non-temporal stores) and the loop ends with a fence: x86's
    non-temporal stores are weakly ordered, so there `sfence`; on other
    architectures (the target's, from `target-cpu`: AArch64's `stnp`) a
    sequentially consistent `llvm.fence`. Else the code runs as it was.
    The copy is of the innermost op in the loop that holds every such write
    (the loop over a row's registers), the condition computed before the
    loop; where they are in the loop's body apart, of the whole loop.
    Copying the whole loop doubled each gather's code (its index
    resolution, prefetch and checks). Only unmasked, in-bounds 1-D writes
    of a minor identity map whose innermost offsets are multiples of the vector's lanes by their
    definition (constants, sums, products with one: a rolled loop's
    `start + r * lanes`) are made non-temporal; other writes in the loop
    (a partial tile's copies) stay as they are. The other
    threads of a parallel loop drain their stores at the barrier that ends
    it (a locked instruction). Run it after bufferization, before the loops
    become OpenMP or LLVM; the mark is dropped in any case. The lowering
    marks no loop for a target without non-temporal stores
    (`CpuTarget::nonTemporalStores`: x86 only unless the DLTI entry
    `nontemporal_stores` says otherwise).
  }];
  let options = [
    Option<"targetCpu", "target-cpu", "std::string", "\"\"",
           "The CPU whose architecture picks the fence (as "
           "convert-gather-to-linalg's option; empty: the host's "
           "architecture, LLVM's default)">,
    Option<"onHost", "on-host", "bool", "false",
           "The code runs on this machine (a CPU of another architecture "
           "is an error)">
  ];
  let dependentDialects = ["::mlir::LLVM::LLVMDialect",
                           "::mlir::arith::ArithDialect",
                           "::mlir::memref::MemRefDialect",
                           "::mlir::scf::SCFDialect",
                           "::mlir::vector::VectorDialect"];
}

def GatherCopiesToMemcpy : Pass<"gather-copies-to-memcpy"> {
  let summary = "Copy views with run-time sizes or strides without memrefCopy";
  let description = [{
    Upstream lowers `memref.copy` to one `llvm.intr.memcpy` only where both
    sides have an identity layout or a static contiguous shape; any other
    copy becomes a call of `memrefCopy`, a library function that copies
    element by element (a block gather with dynamic row lengths copies
    each row that way: 18x slower than with static sizes), and that only
    MLIR's C runner utils define, so code that calls it needs that library
    wherever it runs. This pass rewrites every such copy between host
    views. With a unit innermost stride: one memcpy when both views are
    row-major contiguous at run time, else one per innermost row. Where an
    innermost stride is known at run time only, the memcpys are taken when
    the views have unit innermost strides, else loops of loads and stores
    copy the elements. The rest (a static innermost stride other than 1,
    element types without a whole number of bytes or that the data layout
    pads) are copied by those loops too. Run it on host code only (not
    before gather-map-to-gpu, which turns copies into device copies).
  }];
  let dependentDialects = ["::mlir::LLVM::LLVMDialect",
                           "::mlir::scf::SCFDialect",
                           "::mlir::arith::ArithDialect"];
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

def GatherHalfFloatMoves : Pass<"gather-half-float-moves"> {
  let summary = "Move 16-bit floats through memory and vectors as integers";
  let description = [{
    LLVM's x86 backend has no registers for `f16` and `bf16` without
    AVX512-FP16 and AVX512-BF16: it keeps them in `f32` and converts back
    on the way out, also where a value is only moved (a select, an element
    taken out of a vector at -O0, a vector that crosses a branch). The
    conversion back turns every NaN into the one quiet NaN, and a gather
    must move the bits it reads unchanged: NaN payloads of an f16 or bf16
    table came out canonical (`Integration/element-types.py`).

    This pass rewrites the LLVM dialect's moves of such values (`load`,
    `store`, the masked loads, stores, gathers and scatters,
    `extractelement`, `insertelement`, `shufflevector` and `select`) into
    the same operations on `i16`, with `llvm.bitcast` where a value meets
    arithmetic, and folds the bitcast pairs this leaves between two moves:
    a gather's value goes from its load to its store as integers. Arithmetic
    on the values (fused consumers) is left as it is, and so are block
    arguments: a value carried across blocks (which no lowering of gathers
    makes) is still promoted. Everything it changes is local to a function:
    the CPU pipeline runs it on each `llvm.func`, in parallel.
  }];
}

def GatherLLVMTarget : Pass<"gather-llvm-target", "ModuleOp"> {
  let summary = "Name the target CPU and its features on every llvm.func";
  let description = [{
    Sets `target_cpu` and `target_features` on each `llvm.func` with a body,
    from the CPU named by `cpu` (`native`: the host; or an x86-64, AArch64
    or RISC-V 64 CPU name LLVM knows, such as `x86-64-v3` or
    `neoverse-n1`), so that LLVM's code generation, ahead of time or in the
    JIT, emits the instructions the lowering planned for (the same target
    description, `include/gather/Target/CpuTarget.h`).
    With `tune-cpu` it also sets `tune_cpu`: LLVM then picks among the
    instructions `cpu` allows by that CPU's costs (whether a vector gather
    beats scalar loads, for one), as clang's `-march=x86-64-v3
    -mtune=native`. For an AArch64 CPU with SVE whose vectors are wider
    than NEON's (the module's DLTI entry `max_vector_op_width`, or
    `vector-bits`, as the lowering read them) it sets
    `vscale_range<minRange = width / 128, maxRange = 16>`: LLVM then lowers
    those vectors with SVE's instructions, on CPUs whose SVE registers are
    at least that wide (every function: gather-vector-length-guard takes
    the promise off the entry points, behind a check). Attributes a
    function already has are kept. An empty `cpu` leaves the module as it
    is.
  }];
  let options = [
    Option<"cpu", "cpu", "std::string", "\"\"",
           "native, or an x86-64, AArch64 or RISC-V 64 CPU name LLVM knows">,
    Option<"vectorBits", "vector-bits", "int64_t", "0",
           "The vector width the lowering planned for, as "
           "convert-gather-to-linalg's option (0: the description's)">,
    Option<"tuneCpu", "tune-cpu", "std::string", "\"\"",
           "The CPU whose costs LLVM tunes for: native (the host) or an "
           "x86-64, AArch64 or RISC-V 64 CPU name LLVM knows; empty: cpu's "
           "own">,
    Option<"onHost", "on-host", "bool", "false",
           "The code runs on this host (the JIT): `cpu` is resolved there, as "
           "the lowering's on-host option does (`generic` is the host "
           "architecture's baseline; an SVE CPU takes the host's register "
           "length)">
  ];
  let dependentDialects = ["::mlir::LLVM::LLVMDialect"];
}

def GatherRuntimeAllocator : Pass<"gather-runtime-allocator", "ModuleOp"> {
  let summary = "Call the run-time library's malloc and free";
  let description = [{
    After the conversion to the LLVM dialect: the calls of the C library's
    `malloc` and `free` become calls of `gather_runtime_malloc` and
    `gather_runtime_free` (include/gather/Runtime/GatherRuntime.h), which
    list the blocks a call with a return point allocates, so that a failed
    assert that leaves the call frees them. The JIT binds `malloc` and
    `free` to them anyway; code compiled ahead of time needs this pass
    (the CPU pipeline's `runtime-allocator`) and links the run-time
    library. A module that defines its own `malloc` or `free` keeps its
    calls; one that declares either with another type, or uses a name of
    the runtime's for something else, is an error.
  }];
  let dependentDialects = ["::mlir::LLVM::LLVMDialect"];
}

def GatherVectorLengthGuard : Pass<"gather-vector-length-guard", "ModuleOp"> {
  let summary = "Check at each entry point that the CPU's vector registers "
                "are as long as the code needs";
  let description = [{
    Code that assumes vector registers longer than its architecture
    guarantees is wrong on a CPU whose registers are shorter: its
    predicates and vector lengths name lanes that are not there. That is
    SVE code (`target_features` with `+sve`) with a `vscale_range` minimum
    above 1 (as `gather-llvm-target` sets for an SVE CPU described with
    wide registers), and RISC-V V code (`+v`) with `zvl<N>b` for N above
    128 among its `target_features` (which `gather-llvm-target` spells
    out from the CPU) or such a `vscale_range`. Each such function callable from outside
    the module is split: its body moves unchanged into an internal,
    never-inlined `<name>.vl<bits>` that keeps the promise, and the entry,
    without it (no `vscale_range`; each `zvl<N>b` above 128 turned off,
    `-zvl512b`, since `target_cpu` may imply it), compares
    `llvm.intr.vscale` times the unit (128 bits on SVE, 64 on RISC-V V)
    with the length. Enough, it calls the body; below, it reports the
    run-time error `vector_length_too_short` through the error hook ("@f:
    the code needs vector registers of at least 256 bits, this CPU's are
    128 bits") and returns zeros (a recording hook returns; the caller
    finds the error). The `_mlir_ciface_` wrappers give the promise up
    without a check: they call an entry that checks. No instruction that
    assumes the length runs before the check, by construction.
  }];
  let dependentDialects = ["::mlir::LLVM::LLVMDialect"];
}

#endif // GATHER_CODEGEN_PASSES_TD
