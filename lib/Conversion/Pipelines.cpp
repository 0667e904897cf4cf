//===- Pipelines.cpp - registered gather pipelines ------------------------===//

#include "gather/Conversion/Passes.h"

#include "mlir/Pass/PassManager.h"
#include "mlir/Pass/PassOptions.h"
#include "mlir/Pass/PassRegistry.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Program.h"
#include "llvm/Support/raw_ostream.h"

using namespace mlir;

namespace {
struct CpuPipelineOptions : PassPipelineOptions<CpuPipelineOptions> {
  Option<bool> parallel{*this, "parallel",
                        llvm::cl::desc("Run the outer parallel loops on all "
                                       "cores through OpenMP"),
                        llvm::cl::init(true)};
  Option<bool> reference{
      *this, "reference",
      llvm::cl::desc("Use the scf reference lowering instead of linalg"),
      llvm::cl::init(false)};
};
} // namespace

/// Both pipelines bufferize the lowered tensors the same way: whole
/// functions, plain row-major buffers, deallocation inserted.
static constexpr const char *kBufferize =
    "canonicalize,cse,"
    "one-shot-bufferize{bufferize-function-boundaries "
    "function-boundary-type-conversion=identity-layout-map},"
    "buffer-deallocation-pipeline,convert-bufferization-to-memref,";

/// From gather ops on tensors to the LLVM dialect.
static void buildCpuPipeline(OpPassManager &pm,
                             const CpuPipelineOptions &options) {
  std::string pipeline = "canonicalize,";
  pipeline += options.reference ? "convert-gather-to-scf," : "convert-gather-to-linalg,";
  pipeline += kBufferize;
  // scf.forall (the block copies) and linalg loops become scf.parallel, of
  // which only outer dimensions stay parallel, and those OpenMP loops. The
  // canonicalize after scf-to-openmp inlines the memref.alloca_scope it
  // wraps around each body (nothing is allocated there), which would
  // otherwise be invalid once inner scf loops become several blocks.
  pipeline += options.parallel
                  ? "func.func(scf-forall-to-parallel,"
                    "convert-linalg-to-parallel-loops,"
                    "gather-parallel-outer-loops),"
                    "convert-scf-to-openmp,canonicalize,"
                  : "func.func(scf-forall-to-for,convert-linalg-to-loops),";
  pipeline += "lower-affine,convert-scf-to-cf,expand-strided-metadata,"
              "lower-affine,convert-vector-to-scf,convert-vector-to-llvm,"
              "finalize-memref-to-llvm,convert-to-llvm,"
              "reconcile-unrealized-casts";
  if (failed(parsePassPipeline(pipeline, pm, llvm::errs())))
    llvm::report_fatal_error("gather-cpu-pipeline: bad pipeline text");
}

namespace {
struct GpuPipelineOptions : PassPipelineOptions<GpuPipelineOptions> {
  Option<std::string> chip{*this, "chip",
                           llvm::cl::desc("NVIDIA GPU architecture (sm_XY)"),
                           llvm::cl::init("sm_90")};
  Option<std::string> features{
      *this, "features",
      llvm::cl::desc("NVPTX features; the PTX ISA version must support the "
                     "chip (sm_90 needs ptx78 or later)"),
      llvm::cl::init("+ptx80")};
  Option<int64_t> threadsPerBlock{*this, "threads-per-block",
                                  llvm::cl::desc("Threads per block"),
                                  llvm::cl::init(256)};
  Option<std::string> format{
      *this, "format",
      llvm::cl::desc("gpu.binary contents: isa (PTX, JIT-compiled by the "
                     "driver), bin (cubin, needs ptxas), fatbin, or auto "
                     "(bin when ptxas is found, else isa)"),
      llvm::cl::init("auto")};
  Option<int64_t> optLevel{*this, "opt-level",
                           llvm::cl::desc("NVPTX optimization level"),
                           llvm::cl::init(3)};
};
} // namespace

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

/// From gather ops on tensors to LLVM-dialect host code that launches
/// kernels held in a gpu.binary.
static void buildGpuPipeline(OpPassManager &pm,
                             const GpuPipelineOptions &options) {
  std::string format = options.format;
  if (format == "auto")
    format = havePtxas() ? "bin" : "isa";
  std::string pipeline =
      std::string("canonicalize,convert-gather-to-gpu,") + kBufferize +
      "func.func(convert-linalg-to-parallel-loops),";
  pipeline += "gather-map-to-gpu{threads-per-block=" +
              std::to_string(options.threadsPerBlock) + "},";
  // Kernels become gpu.funcs; the host's gpu ops become async on streams
  // (the only form gpu-to-llvm lowers), with a wait before host code reads
  // what the device wrote.
  // Constants go back into the launch bodies before outlining, so that
  // kernels divide by immediates instead of parameters.
  pipeline += "canonicalize,cse,gpu-launch-sink-index-computations,"
              "gpu-kernel-outlining,func.func(gpu-async-region),"
              "lower-affine,convert-scf-to-cf,";
  pipeline += "nvvm-attach-target{chip=" + options.chip.getValue() +
              " features=" + options.features.getValue() +
              " O=" + std::to_string(options.optLevel) + "},";
  pipeline += "gpu.module(convert-gpu-to-nvvm,canonicalize,cse,"
              "reconcile-unrealized-casts),"
              "expand-strided-metadata,lower-affine,"
              "gpu-to-llvm,gpu-module-to-binary{format=" + format + "},"
              "finalize-memref-to-llvm,convert-to-llvm,canonicalize,cse,"
              "reconcile-unrealized-casts";
  if (failed(parsePassPipeline(pipeline, pm, llvm::errs())))
    llvm::report_fatal_error("gather-gpu-pipeline: bad pipeline text");
}

void mlir::gather::registerGatherPipelines() {
  PassPipelineRegistration<GpuPipelineOptions>(
      "gather-gpu-pipeline",
      "Lower gather ops on tensors to NVIDIA GPU kernels (gpu.binary with "
      "PTX or cubin) launched from LLVM-dialect host code",
      buildGpuPipeline);
  PassPipelineRegistration<CpuPipelineOptions>(
      "gather-cpu-pipeline",
      "Lower gather ops on tensors to the LLVM dialect for CPUs: "
      "canonicalize, lower to linalg, bufferize, loops (OpenMP-parallel), LLVM",
      buildCpuPipeline);
}
