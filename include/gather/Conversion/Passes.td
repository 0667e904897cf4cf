//===- Passes.td - gather conversion passes ----------------*- tablegen -*-===//
//
// Part of the gather project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#ifndef GATHER_CONVERSION_PASSES_TD
#define GATHER_CONVERSION_PASSES_TD

include "mlir/Pass/PassBase.td"

def ConvertGatherToLinalg : Pass<"convert-gather-to-linalg"> {
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
    indices dimension; under `out_of_bounds = error` the loops check the
    index values they read. A failed check is a `gather.check_shape` or
    `gather.check_indices` op in the function (the result is then zeros, or
    unspecified after a bad index); --convert-gather-checks-to-runtime makes
    the calls of the error hook from them.

    Runs on any op (a module, or each function: the lowering creates
    nothing outside the ops it rewrites).
  }];
  let options = [
    Option<"blockCopy", "block-copy", "bool", "true",
           "Copy trailing blocks taken whole from the input (an embedding "
           "row) with one slice per coordinate in an scf.forall">,
    Option<"vectorize", "vectorize", "bool", "true",
           "Vectorize element gathers along the innermost dimension, copy "
           "block rows of a cache line or more with vector loads and stores, "
           "and resolve reused indices once into tables; false leaves one "
           "scalar linalg.generic per element gather and a slice per block">,
    Option<"prefetch", "prefetch", "bool", "true",
           "Software prefetch in the block copies and vector rows: the block "
           "a later iteration copies, the next input row of dense element "
           "rows (inputs of 1 MiB or more, or of dynamic size); and vector "
           "rows whose reads range over the L2 in chunks of offsets, each "
           "row's chunk a memref.alloca in the loop (run "
           "gather-hoist-static-allocas after bufferization)">,
    Option<"targetCpu", "target-cpu", "std::string", "\"\"",
           "The CPU the forms are planned for (docs/Lowering.md, target "
           "description): native (the host: its vector width, cache line "
           "and caches) or an x86-64, AArch64 or RISC-V 64 CPU name LLVM "
           "knows (x86-64-v3, znver4, neoverse-n1, sifive-x280, ...: its "
           "vector width, default caches); empty: 512-bit vectors, 64-byte "
           "lines, 32 KiB L1d, 1 MiB L2. A "
           "#dlti.target_system_spec entry for device \"CPU\" in scope "
           "overrides each parameter">,
    Option<"vectorBits", "vector-bits", "int64_t", "0",
           "The vector register width in bits (512: AVX-512, 256: AVX2), "
           "over the target's; 0: the target's">,
    Option<"onHost", "on-host", "bool", "false",
           "The code runs on this machine (a JIT): a named target-cpu "
           "gives only the instruction set, the caches, cores and tuning "
           "being the host's">,
    Option<"reportForms", "report-forms", "bool", "false",
           "A remark on each gather naming the form it is lowered to "
           "(element-loops, vector-rows [offset-table], block-copy "
           "slices|vector-rows [run-time-length]|tiles, with "
           "coordinate-table where the indices are resolved first)">
  ];
  let dependentDialects = ["::mlir::arith::ArithDialect",
                           "::mlir::bufferization::BufferizationDialect",
                           "::mlir::func::FuncDialect",
                           "::mlir::linalg::LinalgDialect",
                           "::mlir::memref::MemRefDialect",
                           "::mlir::scf::SCFDialect",
                           "::mlir::tensor::TensorDialect",
                           "::mlir::vector::VectorDialect"];
}

def ConvertGatherToSCF : Pass<"convert-gather-to-scf"> {
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

def ConvertGatherToGPU : Pass<"convert-gather-to-gpu"> {
  let summary = "Lower gather ops to device-ready loops on tensors";
  let description = [{
    The GPU flavour of --convert-gather-to-linalg, from the same shared
    lowering (MultiaxisLowering): every gather becomes one parallel
    `linalg.generic` over the output (one thread per element after
    --gather-map-to-gpu), with the op's index policy in its body and the
    run-time checks before it. Under `out_of_bounds = error` the indices are
    checked by a parallel loop that raises a device flag (gpu.alloc,
    gpu.memset), which the host copies back (gpu.memcpy) before deciding;
    a failure is a check op on the host like the CPU path's.
  }];
  let dependentDialects = ["::mlir::arith::ArithDialect",
                           "::mlir::bufferization::BufferizationDialect",
                           "::mlir::func::FuncDialect",
                           "::mlir::gpu::GPUDialect",
                           "::mlir::linalg::LinalgDialect",
                           "::mlir::memref::MemRefDialect",
                           "::mlir::scf::SCFDialect",
                           "::mlir::tensor::TensorDialect"];
}

def ConvertGatherChecksToRuntime
    : Pass<"convert-gather-checks-to-runtime", "ModuleOp"> {
  let summary = "Turn gather.check_shape and gather.check_indices into calls "
                "of the run-time error hook";
  let description = [{
    The late half of the run-time checks: each `gather.check_shape` becomes
    a branch on its condition and a call of `__gather_report_shape` (one
    private function per module that passes the details to the hook), each
    `gather.check_indices` a call of a private function that scans the
    indices for the first invalid value (one per indices type, policy and
    argument split, shared by every check with them) and calls
    `__gather_runtime_error` (RuntimeErrorKind.h, lib/Runtime) with its
    value, position, dimension and size. The site is a constant string
    "op at file" (one per op name and file) with the check's line and
    column. Runs after the lowerings, before bufferization.

    With `asserts`, each `cf.assert` of the program becomes the same: a
    branch on its condition and a call of `__gather_report_assert` with the
    site "cf.assert at file", its line and column and its message
    (`assertion_failed`). Past a failed assert the program is not safe to
    run (the assert guarded what follows): the hook returns to the
    caller's return point where one is set and errors are recorded (the
    call's error: "cf.assert at f.mlir:9:5: assertion failed: <message>"),
    else prints that to stderr and ends the process with status 1.
    An assert directly in a linalg op's body, whose loop may run in a
    parallel region the hook cannot leave, skips what it guards instead:
    the rest of the body goes into an `scf.if` on the condition, whose
    other branch calls `__gather_report_skipping_assert` and yields zeros,
    and `__gather_runtime_assert_barrier` is called after the op and after
    each op around it in the function; the barrier leaves the call.
    Upstream's lowering ends it with abort() and prints the message with
    puts, which a pipe or file loses in the buffer.
  }];
  let options = [
    Option<"asserts", "asserts", "bool", "false",
           "Also turn cf.assert into calls of the hook (CPU code only: on "
           "the GPU an assert in a kernel is the device's)">
  ];
  let dependentDialects = ["::mlir::arith::ArithDialect",
                           "::mlir::func::FuncDialect",
                           "::mlir::gather::GatherDialect",
                           "::mlir::memref::MemRefDialect",
                           "::mlir::scf::SCFDialect"];
}

def GatherFuseDeviceConsumers
    : Pass<"gather-fuse-device-consumers", "func::FuncOp"> {
  let summary = "Fuse elementwise and reduction consumers into the loops of "
                "lowered gathers (one kernel on the GPU)";
  let description = [{
    After `--convert-gather-to-gpu` every gather is one parallel
    `linalg.generic` on tensors, and an elementwise consumer (a bias add, an
    activation) is another: two kernels and an intermediate buffer in
    device memory. This pass fuses a `linalg.generic` into its elementwise
    consumer where the producer is all parallel, has that one use, and the
    consumer reads it at the loop position (`linalg::fuseElementwiseOps`),
    repeatedly, so that a gather followed by a chain of elementwise ops
    becomes one loop nest, one kernel. A reduction that reads a gather (an
    embedding bag's sum: `linalg.reduce`, made a generic first, or a
    generic with reduction iterators) fuses the same way, each iteration
    gathering the element it adds; where the fused loop would have no
    operand spanning one of its loops (linalg's condition for a
    reduction), the gather's reads of the indices at loop positions become
    inputs of its loop first, and where even they do not span every loop
    (a sum over the row's elements) nothing is rewritten. Where the gather
    or its consumer has dimensions of 1 (the gather's lowering drops some,
    and the consumer reads it through reshapes), both loops drop their
    loops of one iteration first. A gather of dynamic sizes sits in the
    branch of its run-time shape check (an `scf.if`): its consumer goes
    into both branches and fuses with it in the first.

    The fused loops take the consumer's place, after the host code that
    read the gather's device error flag (`out_of_bounds = error`): that
    code, and whatever else between the two loops the consumer does not
    need, moves after the fused loops, so that the flag is read once the
    kernel that raises it has run. A fusion that would move code the
    consumer's operands need past side effects is not done.

    ```mlir
    %g = linalg.generic ... outs(%e0)  { ... tensor.extract %data[%i] ... }
    <read the error flag>
    %y = linalg.generic ins(%g, %bias) outs(%e1) { arith.addf ... }
    // becomes
    %y = linalg.generic ins(%bias) outs(%e1) { ... tensor.extract ...
                                               arith.addf ... }
    <read the error flag>
    ```
  }];
  let dependentDialects = ["::mlir::linalg::LinalgDialect"];
}

def GatherGpuReductionLoops
    : Pass<"gather-gpu-reduction-loops", "func::FuncOp"> {
  let summary = "Bufferized reductions as one loop iteration per result, "
                "their sums carried in registers (one GPU thread each)";
  let description = [{
    A bufferized `linalg.generic` with reduction and parallel dimensions,
    whose results are written at positions of the parallel dimensions only,
    becomes one `scf.parallel` over all its parallel dimensions (in their
    order: the innermost is the fastest thread index after
    `gather-map-to-gpu`) around `scf.for` loops over its reduction
    dimensions, which carry the results as `iter_args` from their initial
    values, stored once at the end. `convert-linalg-to-parallel-loops`
    keeps the loops in the generic's order instead: an embedding bag's sum
    over its rows (parallel, reduction, parallel) became one thread per
    bag, each loading and storing its sums for every element of its rows.
    A reduction to one value (no parallel dimension) becomes one iteration:
    one thread adds everything (gather-map-to-gpu rejected the host loop's
    loads of device memory before). Generics that read a result's buffer as
    an input are left as they are. Runs after bufferization, before
    `convert-linalg-to-parallel-loops`.

    ```mlir
    linalg.generic {iterator_types = ["parallel", "reduction", "parallel"]}
        ins(%rows : memref<8x4x16xf32>) outs(%sums : memref<8x16xf32>)
    // becomes
    scf.parallel (%b, %d) = (%c0, %c0) to (%c8, %c16) step (%c1, %c1) {
      %start = memref.load %sums[%b, %d]
      %sum = scf.for %l = %c0 to %c4 step %c1 iter_args(%s = %start) {
        %x = memref.load %rows[%b, %l, %d]
        ... the generic's body ...
      }
      memref.store %sum, %sums[%b, %d]
    }
    ```
  }];
  let dependentDialects = ["::mlir::affine::AffineDialect",
                           "::mlir::memref::MemRefDialect",
                           "::mlir::scf::SCFDialect"];
}

def GatherLinkLibDevice : Pass<"gather-link-libdevice", "ModuleOp"> {
  let summary = "Link CUDA's libdevice into the kernel modules that call it";
  let description = [{
    The NVVM conversion turns math ops in kernels (`math.tanh`, `math.exp`)
    into calls of libdevice's `__nv_*` functions. For each kernel module
    that declares one, this pass adds `path` to the files its NVVM targets
    link, so that `gpu-module-to-binary` links the functions in; kernel
    modules that call none are left as they are. Without a `path`, such a
    module is an error that names the function, instead of PTX with an
    unresolved call that fails when the driver loads it. Runs after
    `convert-gpu-to-nvvm`, before `gpu-module-to-binary`.
  }];
  let options = [
    Option<"path", "path", "std::string", "\"\"",
           "CUDA's libdevice.10.bc">
  ];
  let dependentDialects = ["::mlir::NVVM::NVVMDialect"];
}

def GatherGpuStreams : Pass<"gather-gpu-streams", "func::FuncOp"> {
  let summary = "Run a function's GPU operations on one stream, synchronized "
                "once";
  let description = [{
    Replaces upstream's `gpu-async-region` in the GPU pipeline. That pass
    chains GPU operations only within a block and waits before every host
    operation with side effects, so each kernel of a compiled gather, each
    copy of an error flag and each branch around a launch got a stream of
    its own and a synchronization after it. Here every GPU operation of the
    function (in nested regions too) goes on one stream, in program order,
    which is the order the device runs them in; the host waits only where
    it reads what the device wrote:

    - the copies of the device error flags (`gather.error_flag` on the
      `gpu.memcpy`) and their checks move to the end of the function, where
      the flags are copied together and read after one synchronization;
      a check stays in place where its report reads a buffer other than
      the function's arguments (which later code could overwrite), where
      later code uses the flag, or where a report that stays in place (a
      later gather's shape check) would otherwise come first;
    - before the first host operation that reads a host buffer that a
      `gpu.memcpy` wrote since the last synchronization;
    - a copy into host memory inside a branch (the indices copied for a
      report) runs on a stream forked from the function's, and waits for
      that one;
    - before a call (a split function's pieces run their own streams) and
      before returning.

    ```mlir
    gpu.launch_func @k::@k ...
    %h = memref.alloca() : memref<i32>
    gpu.memcpy %h, %flag {gather.error_flag} : memref<i32>, memref<i32>
    %v = memref.load %h[] : memref<i32>
    // becomes
    %s = gpu.wait async
    %t0 = gpu.launch_func async [%s] @k::@k ...
    %t1 = gpu.memcpy async [%s] %h, %flag ...
    gpu.wait [%s]
    %v = memref.load %h[] : memref<i32>
    ```
  }];
  let dependentDialects = ["::mlir::gather::GatherDialect",
                           "::mlir::gpu::GPUDialect"];
}

def GatherMapToGPU : Pass<"gather-map-to-gpu", "ModuleOp"> {
  let summary = "Put bufferized host loops and buffers on the GPU";
  let description = [{
    Every outermost `scf.parallel` becomes a `gpu.launch` with one thread
    per iteration: the iteration space is linearized with the innermost
    dimension fastest (thread id x -> innermost coordinate), so a warp
    writes consecutive addresses. Where the innermost dimension only copies
    a row (an embedding row, trailing block dims) of static length divisible
    by 16 bytes, each thread copies 16 bytes with aligned vector.load /
    vector.store (buffers must be 16-byte aligned, as device allocations
    are). Index arithmetic is 32-bit where the
    static trip count fits. `memref.alloc`/`dealloc`/`copy` on the host
    become `gpu.alloc`/`dealloc`/`memcpy`, and constant globals read by a
    kernel are copied to the device. Function arguments are taken to be
    device buffers. Host code left touching memory other than its own
    `memref.alloca` is an error.
  }];
  let options = [
    Option<"threadsPerBlock", "threads-per-block", "int64_t", "256",
           "Threads per block (1 to 1024)">
  ];
  let dependentDialects = ["::mlir::arith::ArithDialect",
                           "::mlir::gpu::GPUDialect",
                           "::mlir::memref::MemRefDialect",
                           "::mlir::scf::SCFDialect",
                           "::mlir::vector::VectorDialect"];
}

def GatherDedupGpuKernels : Pass<"gather-dedup-gpu-kernels", "ModuleOp"> {
  let summary = "Keep one kernel module of each set of identical ones";
  let description = [{
    `gpu-kernel-outlining` gives every `gpu.launch` a `gpu.module` of its
    own, so a function that gathers the same way many times (a layer
    repeated in a model) has as many identical kernel modules, each
    converted to NVVM, compiled by LLVM and ptxas, and loaded at run time.
    This pass compares the kernel modules by their contents (everything but
    the names of the module and of its kernels, which outlining takes from
    the host function), keeps the first of each set of identical ones and
    points the uses of the others' kernels (`gpu.launch_func`) at the
    kernel in the same position of the kept module. Runs after
    `gpu-kernel-outlining`.

    ```mlir
    gpu.launch_func @f_kernel::@f_kernel ...
    gpu.launch_func @g_kernel::@g_kernel ...  // the same body as @f_kernel
    // becomes
    gpu.launch_func @f_kernel::@f_kernel ...
    gpu.launch_func @f_kernel::@f_kernel ...  // and @g_kernel is erased
    ```
  }];
  let dependentDialects = ["::mlir::gpu::GPUDialect"];
}

def ConvertLinalgToGather : Pass<"convert-linalg-to-gather"> {
  let summary = "Raise gather-like linalg.generic ops into gather ops";
  let description = [{
    Frontends lower embedding lookups, `index_select`, `torch.gather` /
    `take_along_axis` and StableHLO gathers to a `linalg.generic` whose body
    reads a table with `tensor.extract` at positions computed from an index
    operand. This pass recognizes those and rewrites each into the gather op
    that expresses it, with the destination the generic had:

    - `gather.block`: the index values come from an input whose indexing map
      is consecutive iteration dimensions `[a, a + q)` and the table is read
      at `linalg.index` positions around them (embedding, index_select,
      take);
    - `gather.elements`: an input with the identity map, every other table
      position the same iteration dimension (torch.gather,
      take_along_axis), or the next one where the gathered dimension has
      none (torch's `x[arange(n), idx]`: a unit dimension is inserted);
    - `gather.nd`: the coordinates read inside the body from a trailing
      index dimension (`tensor.extract %idx[i0, ..., c]` for constant
      components), as StableHLO's gather lowering writes them;
    - `gather.multiaxis`: an input whose map drops or pins iteration
      dimensions (indices broadcast along them).

    A table position read from an operand that counts along a loop (a
    generic yielding `linalg.index`, as torch-mlir's `arange` is) follows
    that loop, as does a position 0 on a loop of size 1 (canonicalization
    folds `linalg.index` of such loops to 0).

    The idioms that normalize the index become the policy: integer casts of
    any width (`arith.index_cast`, `index_castui`, `extsi`, `extui`); a
    select that adds the dimension size to a negative value
    (`negative_indices = wrap`); `maxsi`/`minsi` clamps to `[0, size - 1]`
    (`out_of_bounds = clamp`); a select of zero for an invalid index
    (`fill`). A plain read is undefined for an out-of-range index: it
    becomes `error` (checked at run time), or `unchecked` with
    `plain-reads=unchecked`. A plain read whose bounds the body checks with
    `cf.assert` (torch-mlir's embedding and gather) becomes `error` either
    way, and the asserts go.

    A body that computes more than the gathered element (a cast, a scale, a
    bias from another operand) becomes the gather op and an elementwise
    `linalg.generic` of the rest, which the CPU pipeline fuses into the
    gather's loops again.

    An embedding bag with offsets as torch-mlir writes it
    (`aten.embedding_bag`, mode sum: a generic over (bags, every index, row)
    whose body adds the table row of index `j` into bag `b`'s sum where
    `offsets[b] <= j < next(b)`) becomes an `scf.forall` over the bags, each
    a `gather.block` of its own range of indices and a `linalg.reduce` into
    its row (`segment-sums`, on by default). With
    `segment-sums-of-gathered-rows` (the GPU pipeline's form, whose lowering
    takes no gather inside a loop), one `gather.block` of all the indices
    and a `linalg.generic` over (bag, column) whose body sums its bag's
    range of those rows in an `scf.for` (where every row of the destination
    is a bag); every index is then checked, also one outside every bag.

    Everything else is left alone: other reductions, bodies with other side
    effects, positions that no gather op expresses.
  }];
  let options = [
    Option<"plainReads", "plain-reads", "std::string", "\"error\"",
           "What a plain read of an index that may be out of range becomes: "
           "error (checked) or unchecked">,
    Option<"segmentSums", "segment-sums", "bool", "true",
           "Also raise embedding bags with offsets (into a loop over the bags "
           "of gathers and sums)">,
    Option<"segmentSumsOfGatheredRows", "segment-sums-of-gathered-rows",
           "bool", "false",
           "Raise embedding bags with offsets into one gather of all the "
           "indices and a loop nest over (bag, column) that sums each bag's "
           "range (the GPU lowering takes no gather inside a loop)">
  ];
  let dependentDialects = ["::mlir::gather::GatherDialect",
                           "::mlir::linalg::LinalgDialect",
                           "::mlir::scf::SCFDialect",
                           "::mlir::tensor::TensorDialect"];
}

def ConvertTensorGatherToGather : Pass<"convert-tensor-gather-to-gather"> {
  let summary = "Convert upstream tensor.gather into gather.multiaxis";
  let description = [{
    `tensor.gather %source[%indices] gather_dims([g...])` (which upstream
    cannot bufferize or lower) becomes `gather.multiaxis` on the source with
    one leading unit dimension per index batch dimension, indices
    `[b..., 1 x (r-1), k]` and `axes = n + g`, followed by a collapse of the
    gather dimensions when the tensor.gather result is rank-reduced. It then
    gets the CPU and GPU lowerings. tensor.gather defines no behaviour for
    out-of-range indices; the converted op does not wrap negative indices
    and applies `out-of-bounds` (default `error`: reported at run time).
  }];
  let options = [
    Option<"outOfBounds", "out-of-bounds", "std::string", "\"error\"",
           "Policy for out-of-range indices: error, clamp, fill, unchecked">
  ];
  let dependentDialects = ["::mlir::gather::GatherDialect",
                           "::mlir::tensor::TensorDialect"];
}

def ConvertTosaGatherToGather : Pass<"convert-tosa-gather-to-gather"> {
  let summary = "Convert tosa.gather into gather.multiaxis";
  let description = [{
    `tosa.gather` (values `[N, K, C]`, indices `[N, W]`, output `[N, W, C]`)
    becomes `gather.multiaxis %values[%indices as [N, W, 1]] axes = [1]`.
    The TOSA specification requires `0 <= index < K`; an index outside is
    reported as an error (`negative_indices = out_of_bounds`,
    `out_of_bounds = error`).
  }];
  let dependentDialects = ["::mlir::gather::GatherDialect",
                           "::mlir::tensor::TensorDialect"];
}

def ConvertGatherToTensor : Pass<"convert-gather-to-tensor", "ModuleOp"> {
  let summary = "Convert gather ops back to upstream tensor.gather";
  let description = [{
    Brings every gather to its canonical multiaxis form and converts it to
    `tensor.gather` (+ `tensor.expand_shape`/`collapse_shape`, and
    `linalg.transpose` where the index dimensions are not leading), for
    pipelines that only know upstream ops. tensor.gather has no dimension
    that pairs source and indices element-wise, needs increasing gather
    dimensions and defines no out-of-range behaviour: ops that need any of
    these get a diagnostic naming the op and the dimension. Only
    `negative_indices = out_of_bounds, out_of_bounds = unchecked` gathers
    convert, unless `assume-in-bounds` is set.
  }];
  let options = [
    Option<"assumeInBounds", "assume-in-bounds", "bool", "false",
           "Convert whatever the index policy, assuming every index is in "
           "range and non-negative">
  ];
  let dependentDialects = ["::mlir::affine::AffineDialect",
                           "::mlir::linalg::LinalgDialect",
                           "::mlir::tensor::TensorDialect"];
}

#endif // GATHER_CONVERSION_PASSES_TD
