//===- Pipelines.cpp - gather ops to the LLVM dialect, CPU and GPU --------===//

#include "gather/Pipelines/Pipelines.h"

#include "gather/Conversion/GatherChecksToRuntime.h"
#include "gather/Conversion/GatherToGPU.h"
#include "gather/Conversion/GatherToLinalg.h"
#include "gather/Conversion/GatherToSCF.h"
#include "gather/Dialect/Gather/Transforms/Passes.h"
#include "gather/Transforms/Passes.h"

#include "mlir/Conversion/Passes.h"
#include "mlir/Dialect/Bufferization/Transforms/Passes.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/GPU/Transforms/Passes.h"
#include "mlir/Dialect/Linalg/Passes.h"
#include "mlir/Dialect/MemRef/Transforms/Passes.h"
#include "mlir/Dialect/SCF/Transforms/Passes.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Pass/PassRegistry.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"
#include "mlir/Transforms/Passes.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Program.h"

using namespace mlir;
using namespace mlir::gather;

/// A canonicalize that leaves region simplification (block merging,
/// unreachable blocks) out: the lowered code has none to do, and on large
/// functions it is a good part of the time.
static std::unique_ptr<Pass> createCleanupPass() {
  GreedyRewriteConfig config;
  config.setRegionSimplificationLevel(GreedySimplifyRegionLevel::Disabled);
  return createCanonicalizerPass(config);
}

/// Both pipelines bufferize the lowered tensors the same way: whole
/// functions, plain row-major buffers, deallocation inserted. No cse before
/// one-shot-bufferize: it would merge the tensor.empty of every gather into
/// one value, whose alias analysis then grows with the square of the number
/// of gathers.
static void addBufferization(OpPassManager &pm,
                             bool destinationEntries = false) {
  pm.addNestedPass<func::FuncOp>(createCleanupPass());
  // The destination entries' results go into the caller's buffers only if
  // the tensor.empty they are computed into is that buffer. The pass that
  // made the entries did so for gathers; a linalg result got a new one
  // from fusion, which this makes the caller's buffer.
  if (destinationEntries)
    pm.addNestedPass<func::FuncOp>(
        bufferization::createEmptyTensorEliminationPass());
  // Bufferization's own order of making the constants' globals is not
  // deterministic.
  pm.addPass(createGatherConstantGlobals());
  bufferization::OneShotBufferizePassOptions bufferize;
  bufferize.bufferizeFunctionBoundaries = true;
  bufferize.functionBoundaryTypeConversion =
      bufferization::LayoutMapOption::IdentityLayoutMap;
  pm.addPass(bufferization::createOneShotBufferizePass(bufferize));
  pm.addNestedPass<func::FuncOp>(createGatherFoldSelfCopies());
  // Upstream's buffer-deallocation-pipeline without its first canonicalize,
  // which only serves memref.realloc (the lowerings create none).
  OpPassManager &dealloc = pm.nest<func::FuncOp>();
  // Where a run-time check guards the loops, both branches of its scf.if
  // yield the output buffer allocated before it; the canonicalizer forwards
  // that buffer, which the deallocation pass otherwise cannot prove owned and
  // clones (a copy of the whole output on every call with dynamic sizes).
  dealloc.addPass(createCleanupPass());
  dealloc.addPass(memref::createExpandReallocPass({/*emitDeallocs=*/false}));
  dealloc.addPass(bufferization::createOwnershipBasedBufferDeallocationPass());
  dealloc.addPass(createCleanupPass());
  dealloc.addPass(bufferization::createBufferDeallocationSimplificationPass());
  pm.addPass(bufferization::createLowerDeallocationsPass());
  OpPassManager &cleanup = pm.nest<func::FuncOp>();
  cleanup.addPass(createCSEPass());
  cleanup.addPass(createCleanupPass());
  pm.addPass(createConvertBufferizationToMemRefPass());
}

void mlir::gather::buildGatherCpuPipeline(
    OpPassManager &pm, const GatherCpuPipelineOptions &options) {
  pm.addPass(createGatherCheckInput());
  // Before canonicalization, which would put reshapes between a gather and
  // its consumer.
  if (options.destinationEntries)
    pm.addPass(createGatherDestinationEntries());
  if (options.fuseConsumers && !options.reference)
    pm.addNestedPass<func::FuncOp>(createGatherFuseConsumers());
  pm.addNestedPass<func::FuncOp>(createCleanupPass());
  // Each function on its own (the lowering writes nothing outside it), then
  // the calls of the error hook from the check ops it left.
  if (options.reference)
    pm.addNestedPass<func::FuncOp>(createConvertGatherToSCF());
  else
    pm.addNestedPass<func::FuncOp>(createConvertGatherToLinalg());
  pm.addPass(createConvertGatherChecksToRuntime());
  // Bounded function sizes keep the rest of the pipeline linear.
  pm.addPass(createGatherSplitFunctions());
  addBufferization(pm, options.destinationEntries);
  // Passes local to a function run nested, on the functions in parallel.
  OpPassManager &loops = pm.nest<func::FuncOp>();
  if (options.parallel) {
    // scf.forall (the block copies) and linalg loops become scf.parallel, of
    // which only outer dimensions stay parallel, and those OpenMP loops. The
    // canonicalize after scf-to-openmp inlines the memref.alloca_scope it
    // wraps around each body (nothing is allocated there), which would
    // otherwise be invalid once inner scf loops become several blocks.
    loops.addPass(createForallToParallelLoopPass());
    loops.addPass(createConvertLinalgToParallelLoopsPass());
    loops.addPass(createGatherParallelOuterLoops());
    pm.addPass(createConvertSCFToOpenMPPass());
  } else {
    loops.addPass(createForallToForLoopPass());
    loops.addPass(createConvertLinalgToLoopsPass());
  }
  OpPassManager &toCfg = pm.nest<func::FuncOp>();
  // Row copies with run-time lengths (block gathers with dynamic sizes).
  toCfg.addPass(createGatherCopiesToMemcpy());
  toCfg.addPass(createGatherApproximateMath());
  // Gathers reading tiles through dynamic-stride views: LLVM's lowering of
  // vector.gather needs a unit innermost stride.
  toCfg.addPass(createGatherUnitStrideVectorGathers());
  if (options.parallel) {
    toCfg.addPass(createGatherInlineAllocaScopes());
    toCfg.addPass(createCleanupPass());
  }
  toCfg.addPass(createGatherRolledLoops());
  toCfg.addPass(createLowerAffinePass());
  toCfg.addPass(createSCFToControlFlowPass());
  toCfg.addPass(createGatherExpandShapesToReinterpretCasts());
  toCfg.addPass(memref::createExpandStridedMetadataPass());
  toCfg.addPass(createLowerAffinePass());
  toCfg.addPass(createConvertVectorToSCFPass());
  // Masked transfers (the vector rows of a partial tile) become scf loops
  // with affine index math here.
  toCfg.addPass(createLowerAffinePass());
  toCfg.addPass(createSCFToControlFlowPass());
  toCfg.addPass(createConvertVectorToLLVMPass());
  // convert-to-llvm converts the memref ops too (through the dialect's
  // ConvertToLLVMPatternInterface): no separate finalize-memref-to-llvm.
  pm.addPass(createConvertToLLVMPass());
  pm.addPass(createReconcileUnrealizedCastsPass());
}

/// ptxas from $CUDA_HOME, /usr/local/cuda or PATH.
static bool havePtxas() {
  SmallVector<std::string> dirs;
  if (const char *home = std::getenv("CUDA_HOME"))
    dirs.push_back(std::string(home) + "/bin");
  dirs.push_back("/usr/local/cuda/bin");
  for (const std::string &dir : dirs) {
    SmallString<128> path(dir);
    llvm::sys::path::append(path, "ptxas");
    if (llvm::sys::fs::can_execute(path))
      return true;
  }
  return static_cast<bool>(llvm::sys::findProgramByName("ptxas"));
}

void mlir::gather::buildGatherGpuPipeline(
    OpPassManager &pm, const GatherGpuPipelineOptions &options) {
  pm.addPass(createGatherCheckInput());
  pm.addPass(createCanonicalizerPass());
  pm.addNestedPass<func::FuncOp>(createConvertGatherToGPU());
  pm.addPass(createConvertGatherChecksToRuntime());
  pm.addPass(createGatherSplitFunctions());
  addBufferization(pm);
  pm.addNestedPass<func::FuncOp>(createConvertLinalgToParallelLoopsPass());
  GatherMapToGPUOptions mapOptions;
  mapOptions.threadsPerBlock = options.threadsPerBlock;
  pm.addPass(createGatherMapToGPU(mapOptions));
  // Kernels become gpu.funcs; the host's gpu ops become async on streams
  // (the only form gpu-to-llvm lowers), with a wait before host code reads
  // what the device wrote. Constants go back into the launch bodies before
  // outlining, so that kernels divide by immediates instead of parameters.
  pm.addPass(createCanonicalizerPass());
  pm.addPass(createCSEPass());
  pm.addPass(createGpuLaunchSinkIndexComputationsPass());
  pm.addPass(createGpuKernelOutliningPass());
  pm.addNestedPass<func::FuncOp>(createGpuAsyncRegionPass());
  pm.addPass(createGatherRolledLoops());
  pm.addPass(createLowerAffinePass());
  pm.addPass(createSCFToControlFlowPass());
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
  pm.addPass(createGatherExpandShapesToReinterpretCasts());
  pm.addPass(memref::createExpandStridedMetadataPass());
  pm.addPass(createLowerAffinePass());
  pm.addPass(createGpuToLLVMConversionPass());
  GpuModuleToBinaryPassOptions binary;
  binary.compilationTarget = options.format == "auto"
                                 ? (havePtxas() ? "bin" : "isa")
                                 : options.format.getValue();
  pm.addPass(createGpuModuleToBinaryPass(binary));
  // The output should not depend on how long ptxas took.
  pm.addPass(createGatherDropObjectTimes());
  pm.addPass(createFinalizeMemRefToLLVMConversionPass());
  pm.addPass(createConvertToLLVMPass());
  pm.addPass(createCanonicalizerPass());
  pm.addPass(createCSEPass());
  pm.addPass(createReconcileUnrealizedCastsPass());
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
