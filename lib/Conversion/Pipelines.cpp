//===- Pipelines.cpp - registered gather pipelines ------------------------===//

#include "gather/Conversion/Passes.h"

#include "mlir/Pass/PassManager.h"
#include "mlir/Pass/PassOptions.h"
#include "mlir/Pass/PassRegistry.h"
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

/// From gather ops on tensors to the LLVM dialect.
static void buildCpuPipeline(OpPassManager &pm,
                             const CpuPipelineOptions &options) {
  std::string pipeline = "canonicalize,";
  pipeline += options.reference ? "convert-gather-to-scf," : "convert-gather-to-linalg,";
  pipeline += "canonicalize,cse,"
              "one-shot-bufferize{bufferize-function-boundaries "
              "function-boundary-type-conversion=identity-layout-map},"
              "buffer-deallocation-pipeline,convert-bufferization-to-memref,";
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

void mlir::gather::registerGatherPipelines() {
  PassPipelineRegistration<CpuPipelineOptions>(
      "gather-cpu-pipeline",
      "Lower gather ops on tensors to the LLVM dialect for CPUs: "
      "canonicalize, lower to linalg, bufferize, loops (OpenMP-parallel), LLVM",
      buildCpuPipeline);
}
