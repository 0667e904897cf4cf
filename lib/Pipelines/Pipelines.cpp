//===- Pipelines.cpp - gather ops to the LLVM dialect, CPU and GPU --------===//
//
// Part of the gather project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// Both pipelines are built from phases, as upstream's GPU-to-NVVM pipeline
// is: the gather lowering, bufferization, then each target's loops, code
// generation and conversion to LLVM. The output depends on the input and
// the options only (nothing is looked up on the host).
//
//===----------------------------------------------------------------------===//

#include "gather/Pipelines/Pipelines.h"

#include "gather/ABI/DestinationEntries.h"
#include "gather/CodeGen/Passes.h"
#include "gather/Compat/Passes.h"
#include "gather/Conversion/GatherChecksToRuntime.h"
#include "gather/Conversion/GatherToGPU.h"
#include "gather/Conversion/GatherToLinalg.h"
#include "gather/Conversion/GatherToSCF.h"
#include "gather/Conversion/LinalgToGather.h"
#include "gather/Dialect/Gather/Transforms/Passes.h"

#include "mlir/Conversion/Passes.h"
#include "mlir/Dialect/Bufferization/Transforms/Passes.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/GPU/Transforms/Passes.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/Linalg/Passes.h"
#include "mlir/Dialect/MemRef/Transforms/Passes.h"
#include "mlir/Dialect/SCF/Transforms/Passes.h"
#include "mlir/Dialect/Vector/Transforms/Passes.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Pass/PassRegistry.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"
#include "mlir/Transforms/Passes.h"

#include "llvm/Support/FileSystem.h"

#include <cstdlib>

using namespace mlir;
using namespace mlir::gather;

/// Canonicalization of tensor code: with the expand_shape refinement that
/// MLIR 22 needs (gather-canonicalize), and without region simplification
/// (block merging, unreachable blocks), which the lowered code has none of
/// and which is a good part of the time on large functions.
static std::unique_ptr<Pass> createTensorCleanupPass() {
  GatherCanonicalizeOptions options;
  options.regionSimplification = false;
  return createGatherCanonicalize(options);
}

/// The same on buffers, where no tensor.expand_shape is left.
static std::unique_ptr<Pass> createCleanupPass() {
  GreedyRewriteConfig config;
  config.setRegionSimplificationLevel(GreedySimplifyRegionLevel::Disabled);
  return createCanonicalizerPass(config);
}

//===----------------------------------------------------------------------===//
// Phases both pipelines share
//===----------------------------------------------------------------------===//

/// Gather ops on tensors to loops on tensors: the folds, with
/// `outlineDuplicates` each gather written more than once moved into a
/// function (after the folds, which see the operands' producers only in
/// place), the lowering of each function with `lowering` (it writes
/// nothing outside the function), then the calls of the error hook from
/// the check ops it left (with `asserts`, from the program's cf.asserts
/// too), and bounded function sizes, which keep the rest of the pipeline
/// linear.
static void addGatherLowering(OpPassManager &pm, std::unique_ptr<Pass> lowering,
                              bool outlineDuplicates = false,
                              std::unique_ptr<Pass> afterLowering = nullptr,
                              bool asserts = false) {
  pm.addNestedPass<func::FuncOp>(createTensorCleanupPass());
  if (outlineDuplicates)
    pm.addPass(createGatherOutlineDuplicates());
  pm.addNestedPass<func::FuncOp>(std::move(lowering));
  // Before the checks become calls and long functions are split: the
  // lowered loops and their consumers are still side by side.
  if (afterLowering)
    pm.addNestedPass<func::FuncOp>(std::move(afterLowering));
  pm.addPass(createConvertGatherChecksToRuntime({asserts}));
  pm.addPass(createGatherSplitFunctions());
}

/// Both pipelines bufferize the lowered tensors the same way: whole
/// functions, plain row-major buffers, deallocation inserted. No cse before
/// one-shot-bufferize: it would merge the tensor.empty of every gather into
/// one value, whose alias analysis then grows with the square of the number
/// of gathers.
static void addBufferization(OpPassManager &pm, bool destinationEntries = false,
                             bool stackBuffers = false) {
  pm.addNestedPass<func::FuncOp>(createTensorCleanupPass());
  // The destination entries' results go into the caller's buffers only if
  // the tensor.empty they are computed into is that buffer. The pass that
  // made the entries did so for gathers; a linalg result got a new one
  // from fusion, which this makes the caller's buffer.
  if (destinationEntries)
    pm.addNestedPass<func::FuncOp>(
        bufferization::createEmptyTensorEliminationPass());
  // Bufferization's own order of making the constants' globals is not
  // deterministic in MLIR 22.
  pm.addPass(createGatherConstantGlobals());
  bufferization::OneShotBufferizePassOptions bufferize;
  bufferize.bufferizeFunctionBoundaries = true;
  bufferize.functionBoundaryTypeConversion =
      bufferization::LayoutMapOption::IdentityLayoutMap;
  // A loop may yield a tensor that is not its iteration argument's buffer:
  // a generic in an scf.for that does not read its output gets a fresh
  // tensor.empty from the elementwise fusion (gather-fuse-consumers), which
  // bufferization otherwise rejects ("Yield operand #0 is not equivalent to
  // the corresponding iter bbArg"). Loops it could bufferize in place are
  // bufferized as before.
  bufferize.allowReturnAllocsFromLoops = true;
  pm.addPass(bufferization::createOneShotBufferizePass(bufferize));
  OpPassManager &forward = pm.nest<func::FuncOp>();
  forward.addPass(createGatherFoldSelfCopies());
  // With `stackBuffers`, small static buffers on the stack: the steps of a
  // fused reduction allocate one each (a gathered row,
  // kReductionStepBufferBytes at most), which a heap allocation per step
  // made 6x slower; so do a call's small buffers (error flags, small index
  // tables). Buffers that leave their loop iteration stay on the heap.
  if (stackBuffers) {
    bufferization::PromoteBuffersToStackPassOptions stack;
    stack.maxAllocSizeInBytes = kReductionStepBufferBytes;
    forward.addPass(bufferization::createPromoteBuffersToStackPass(stack));
  }
  // Where a run-time check guards the loops, both branches of its scf.if
  // yield the output buffer allocated before it; the canonicalizer forwards
  // that buffer, which the deallocation pass otherwise cannot prove owned and
  // clones (a copy of the whole output on every call with dynamic sizes).
  forward.addPass(createCleanupPass());
  // Then a function that returns its destination argument (an outlined
  // gather) returns nothing: the deallocation would otherwise check at run
  // time whether each call's result is the caller's buffer.
  pm.addPass(createGatherDropArgumentResults());
  // Upstream's buffer-deallocation-pipeline without its first canonicalize,
  // which only serves memref.realloc (the lowerings create none).
  OpPassManager &dealloc = pm.nest<func::FuncOp>();
  dealloc.addPass(memref::createExpandReallocPass({/*emitDeallocs=*/false}));
  dealloc.addPass(bufferization::createOwnershipBasedBufferDeallocationPass());
  // The simplification needs the dealloc ops canonicalized first.
  dealloc.addPass(createCleanupPass());
  dealloc.addPass(bufferization::createBufferDeallocationSimplificationPass());
  pm.addPass(bufferization::createLowerDeallocationsPass());
  OpPassManager &cleanup = pm.nest<func::FuncOp>();
  cleanup.addPass(createCSEPass());
  cleanup.addPass(createCleanupPass());
  pm.addPass(createConvertBufferizationToMemRefPass());
}

//===----------------------------------------------------------------------===//
// CPU
//===----------------------------------------------------------------------===//

/// scf.forall (the block copies) and linalg loops to loops: with `parallel`
/// scf.parallel, of which only outer dimensions stay parallel, and those
/// OpenMP loops; else serial loops. Passes local to a function run nested,
/// on the functions in parallel.
static void addCpuLoops(OpPassManager &pm,
                        const GatherCpuPipelineOptions &options) {
  OpPassManager &loops = pm.nest<func::FuncOp>();
  // On the scf.forall loops still: versions the block row copies marked
  // for non-temporal stores.
  GatherStreamingStoresOptions streaming;
  streaming.targetCpu = options.targetCpu;
  streaming.onHost = options.onHost;
  loops.addPass(createGatherStreamingStores(streaming));
  if (!options.parallel) {
    loops.addPass(createForallToForLoopPass());
    loops.addPass(createConvertLinalgToLoopsPass());
    return;
  }
  loops.addPass(createForallToParallelLoopPass());
  loops.addPass(createConvertLinalgToParallelLoopsPass());
  // A failed assert that cannot skip what it guards leaves the call, which
  // a worker thread cannot: those loops run on the calling thread.
  pm.addPass(createGatherSerialLeavingLoops());
  GatherParallelOuterLoopsOptions outerLoops;
  outerLoops.targetCpu = options.targetCpu;
  outerLoops.onHost = options.onHost;
  pm.addNestedPass<func::FuncOp>(createGatherParallelOuterLoops(outerLoops));
  // Reductions OpenMP cannot declare: as ones it can, or serial loops.
  pm.addNestedPass<func::FuncOp>(createGatherOpenMPReductions());
  pm.addPass(createConvertSCFToOpenMPPass());
  // A worker's report goes to the errors of the call that started it.
  pm.addPass(createGatherParallelErrorState());
}

/// The loops' bodies to what convert-to-llvm takes: memcpy for row copies,
/// vectorizable math, unit-stride vector gathers, loop metadata, then the
/// structured ops lowered once, in the order each creates what the next
/// lowers: expand-strided-metadata makes affine index math, vector-to-scf
/// makes scf loops with affine index math (the masked transfers of a
/// partial tile), and lower-affine and scf-to-cf then lower all of it.
static void addCpuCodeGen(OpPassManager &pm, bool parallel) {
  OpPassManager &funcs = pm.nest<func::FuncOp>();
  // Row copies with run-time lengths (block gathers with dynamic sizes).
  funcs.addPass(createGatherCopiesToMemcpy());
  funcs.addPass(createGatherApproximateMath());
  // Gathers reading tiles through dynamic-stride views: LLVM's lowering of
  // vector.gather needs a unit innermost stride.
  funcs.addPass(createGatherUnitStrideVectorGathers());
  // Scratch buffers out of the loops over rows: one per thread.
  funcs.addPass(createGatherHoistStaticAllocas());
  if (parallel) {
    // scf-to-openmp wraps each parallel body in a memref.alloca_scope; the
    // cleanup inlines those that allocate nothing, which would otherwise be
    // invalid once inner scf loops become several blocks.
    funcs.addPass(createGatherInlineAllocaScopes());
    funcs.addPass(createCleanupPass());
  }
  funcs.addPass(createGatherRolledLoops());
  funcs.addPass(createGatherExpandShapesToReinterpretCasts());
  funcs.addPass(memref::createExpandStridedMetadataPass());
  // The reductions of fused tiles (gather-fuse-consumers) over a row: one
  // vector.reduction each, which convert-vector-to-llvm takes.
  funcs.addPass(vector::createLowerVectorMultiReductionPass(
      vector::VectorMultiReductionLowering::InnerReduction));
  funcs.addPass(createConvertVectorToSCFPass());
  // The buffers vector-to-scf makes for transfers of several dimensions (a
  // fused reduction's steps) sit at the start of their loop body: out of
  // the loops too. Without LLVM's SROA (opt level 0) each iteration grew
  // the stack until it overflowed.
  funcs.addPass(createGatherHoistStaticAllocas());
  funcs.addPass(createLowerAffinePass());
  funcs.addPass(createSCFToControlFlowPass());
  funcs.addPass(createConvertVectorToLLVMPass());
}

/// convert-to-llvm converts the memref ops too (through the dialect's
/// ConvertToLLVMPatternInterface): no separate finalize-memref-to-llvm.
static void addCpuToLLVM(OpPassManager &pm) {
  pm.addPass(createConvertToLLVMPass());
  pm.addPass(createReconcileUnrealizedCastsPass());
  // f16 and bf16 values that x86 would move through f32 (quieting NaNs).
  pm.addNestedPass<LLVM::LLVMFuncOp>(createGatherHalfFloatMoves());
}

/// The gathers frontends write as linalg.generic (a tensor.extract at
/// positions read from an index operand) become gather ops, so that the
/// lowering, the checks and the fusion below apply to them.
static void addRaising(OpPassManager &pm, bool raise,
                       bool segmentSumsOfGatheredRows) {
  if (!raise)
    return;
  ConvertLinalgToGatherOptions options;
  options.segmentSumsOfGatheredRows = segmentSumsOfGatheredRows;
  pm.addNestedPass<func::FuncOp>(createConvertLinalgToGather(options));
}

void mlir::gather::buildGatherCpuPipeline(
    OpPassManager &pm, const GatherCpuPipelineOptions &options) {
  pm.addPass(createGatherCheckInput());
  addRaising(pm, options.raiseLinalg, /*segmentSumsOfGatheredRows=*/false);
  // Before canonicalization, which would put reshapes between a gather and
  // its consumer.
  if (options.destinationEntries)
    pm.addPass(createGatherDestinationEntries());
  if (options.fuseConsumers && !options.reference)
    pm.addNestedPass<func::FuncOp>(createGatherFuseConsumers());
  // The program's cf.asserts end it with their message (not abort()).
  if (options.reference) {
    addGatherLowering(pm, createConvertGatherToSCF(),
                      /*outlineDuplicates=*/false,
                      /*afterLowering=*/nullptr, /*asserts=*/true);
  } else {
    ConvertGatherToLinalgOptions lowering;
    lowering.targetCpu = options.targetCpu;
    lowering.vectorBits = options.vectorBits;
    lowering.onHost = options.onHost;
    // After fusion: a gather fused into its consumer's tiles stays there.
    addGatherLowering(pm, createConvertGatherToLinalg(lowering),
                      options.outlineDuplicates, /*afterLowering=*/nullptr,
                      /*asserts=*/true);
  }
  addBufferization(pm, options.destinationEntries, /*stackBuffers=*/true);
  addCpuLoops(pm, options);
  addCpuCodeGen(pm, options.parallel);
  addCpuToLLVM(pm);
  // Code that runs here is tuned for the host whatever instruction set it
  // is restricted to (-march=x86-64-v3 -mtune=native).
  std::string tuneCpu = options.onHost && !options.targetCpu.empty() &&
                                options.targetCpu != "native"
                            ? "native"
                            : "";
  GatherLLVMTargetOptions llvmTarget;
  llvmTarget.cpu = options.targetCpu;
  llvmTarget.tuneCpu = tuneCpu;
  llvmTarget.vectorBits = options.vectorBits;
  llvmTarget.onHost = options.onHost;
  pm.addPass(createGatherLLVMTarget(llvmTarget));
  pm.addPass(createGatherVectorLengthGuard());
  if (options.runtimeAllocator)
    pm.addPass(createGatherRuntimeAllocator());
}

//===----------------------------------------------------------------------===//
// GPU
//===----------------------------------------------------------------------===//

/// Bufferized loops to kernels (reductions one thread per result first):
/// every outer scf.parallel a gpu.launch, then
/// gpu.funcs, the host's gpu ops async on streams (the only form
/// gpu-to-llvm lowers), with a wait before host code reads what the device
/// wrote. Constants go back into the launch bodies before outlining, so
/// that kernels divide by immediates instead of parameters (hence the
/// canonicalize and cse).
static void addGpuKernels(OpPassManager &pm,
                          const GatherGpuPipelineOptions &options) {
  pm.addNestedPass<func::FuncOp>(createGatherGpuReductionLoops());
  pm.addNestedPass<func::FuncOp>(createConvertLinalgToParallelLoopsPass());
  GatherMapToGPUOptions mapOptions;
  mapOptions.threadsPerBlock = options.threadsPerBlock;
  pm.addPass(createGatherMapToGPU(mapOptions));
  // The launch bodies are in the functions: each is cleaned up on its own,
  // the functions in parallel.
  OpPassManager &funcs = pm.nest<func::FuncOp>();
  funcs.addPass(createCanonicalizerPass());
  funcs.addPass(createCSEPass());
  pm.addPass(createGpuLaunchSinkIndexComputationsPass());
  pm.addPass(createGpuKernelOutliningPass());
  pm.addPass(createGatherDedupGpuKernels());
  // One stream per call, synchronized where the host reads device results.
  pm.addNestedPass<func::FuncOp>(createGatherGpuStreams());
  pm.addPass(createGatherRolledLoops());
  pm.addPass(createLowerAffinePass());
  pm.addPass(createSCFToControlFlowPass());
}

/// CUDA's libdevice (the bitcode of __nv_tanhf and the other math functions
/// the NVVM conversion calls): the `libdevice` option, else the toolkit
/// under $CUDA_ROOT, $CUDA_HOME, $CUDA_PATH, /usr/local/cuda or Debian's
/// nvidia-cuda-toolkit; empty if none has it. Without it a kernel that
/// computes math functions has unresolved calls.
static std::string findLibDevice(const GatherGpuPipelineOptions &options) {
  if (!options.libdevice.empty())
    return options.libdevice;
  SmallVector<std::string> roots;
  for (const char *var : {"CUDA_ROOT", "CUDA_HOME", "CUDA_PATH"})
    if (const char *value = std::getenv(var); value && *value)
      roots.push_back(std::string(value) + "/nvvm/libdevice");
  roots.push_back("/usr/local/cuda/nvvm/libdevice");
  roots.push_back("/usr/lib/nvidia-cuda-toolkit/libdevice");
  for (const std::string &root : roots) {
    std::string path = root + "/libdevice.10.bc";
    if (llvm::sys::fs::exists(path))
      return path;
  }
  return {};
}

/// The kernel modules to NVVM, then to one gpu.binary of `format`. The
/// canonicalize and cse after the NVVM conversion fold its index
/// arithmetic in the kernels, which nothing later does.
static void addGpuBinary(OpPassManager &pm,
                         const GatherGpuPipelineOptions &options) {
  GpuNVVMAttachTargetOptions target;
  target.chip = options.chip;
  target.features = options.features;
  target.optLevel = options.optLevel;
  pm.addPass(createGpuNVVMAttachTarget(target));
  OpPassManager &kernels = pm.nest<gpu::GPUModuleOp>();
  kernels.addPass(createConvertGpuOpsToNVVMOps());
  kernels.addPass(createCanonicalizerPass());
  kernels.addPass(createCSEPass());
  kernels.addPass(createReconcileUnrealizedCastsPass());
  // Linked only where a kernel calls into it.
  pm.addPass(createGatherLinkLibDevice({findLibDevice(options)}));
}

/// The host code to LLVM: the memref views (after the kernels, which took
/// theirs) and the gpu runtime calls, then the binary; the canonicalize and
/// cse after convert-to-llvm clean up the descriptor arithmetic of both.
static void addGpuHostToLLVM(OpPassManager &pm,
                             const GatherGpuPipelineOptions &options) {
  // The kernels are NVVM already: only the host functions have views left,
  // each lowered on its own.
  OpPassManager &hostViews = pm.nest<func::FuncOp>();
  hostViews.addPass(createGatherExpandShapesToReinterpretCasts());
  hostViews.addPass(memref::createExpandStridedMetadataPass());
  // expand-strided-metadata makes affine index math on the host.
  hostViews.addPass(createLowerAffinePass());
  pm.addPass(createGpuToLLVMConversionPass());
  GpuModuleToBinaryPassOptions binary;
  binary.compilationTarget = options.format.getValue();
  pm.addPass(createGpuModuleToBinaryPass(binary));
  // The output should not depend on how long ptxas took.
  pm.addPass(createGatherDropObjectTimes());
  pm.addPass(createFinalizeMemRefToLLVMConversionPass());
  pm.addPass(createConvertToLLVMPass());
  OpPassManager &hostFuncs = pm.nest<LLVM::LLVMFuncOp>();
  hostFuncs.addPass(createCanonicalizerPass());
  hostFuncs.addPass(createCSEPass());
  pm.addPass(createReconcileUnrealizedCastsPass());
}

void mlir::gather::buildGatherGpuPipeline(
    OpPassManager &pm, const GatherGpuPipelineOptions &options) {
  pm.addPass(createGatherCheckInput());
  // The GPU lowering takes no gather inside a loop: embedding bags become
  // one gather of all their rows and a loop nest of the bags' sums.
  addRaising(pm, options.raiseLinalg, /*segmentSumsOfGatheredRows=*/true);
  // The GPU lowering makes plain loops; fusion merges them with their
  // consumers' loops afterwards (the CPU fuses before, into tiles).
  addGatherLowering(pm, createConvertGatherToGPU(), /*outlineDuplicates=*/false,
                    options.fuseConsumers ? createGatherFuseDeviceConsumers()
                                          : nullptr);
  addBufferization(pm);
  addGpuKernels(pm, options);
  addGpuBinary(pm, options);
  addGpuHostToLLVM(pm, options);
}

void mlir::gather::registerGatherPipelines() {
  PassPipelineRegistration<GatherGpuPipelineOptions>(
      "gather-gpu-pipeline",
      "Lower gather ops on tensors to NVIDIA GPU kernels (gpu.binary with "
      "PTX or cubin) launched from LLVM-dialect host code",
      buildGatherGpuPipeline);
  PassPipelineRegistration<GatherCpuPipelineOptions>(
      "gather-cpu-pipeline",
      "Lower gather ops on tensors to the LLVM dialect for CPUs: "
      "canonicalize, lower to linalg, bufferize, loops (OpenMP-parallel), LLVM",
      buildGatherCpuPipeline);
}
