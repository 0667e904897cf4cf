//===- Pipelines.h - gather ops to the LLVM dialect, CPU and GPU -*- C++
//
// Part of the gather project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//-*-===//
//
// --gather-cpu-pipeline and --gather-gpu-pipeline, also buildable into any
// pass manager.
//
//===----------------------------------------------------------------------===//

#ifndef GATHER_PIPELINES_PIPELINES_H
#define GATHER_PIPELINES_PIPELINES_H

#include "mlir/Pass/PassOptions.h"

#include <string>

namespace mlir {
class OpPassManager;

namespace gather {

struct GatherCpuPipelineOptions
    : public PassPipelineOptions<GatherCpuPipelineOptions> {
  Option<bool> parallel{*this, "parallel",
                        llvm::cl::desc("Run the outer parallel loops on all "
                                       "cores through OpenMP"),
                        llvm::cl::init(true)};
  Option<bool> raiseLinalg{
      *this, "raise-linalg",
      llvm::cl::desc("First raise gather-like linalg.generic ops (a "
                     "tensor.extract at positions read from an index "
                     "operand) into gather ops (convert-linalg-to-gather)"),
      llvm::cl::init(true)};
  Option<bool> reference{
      *this, "reference",
      llvm::cl::desc("Use the scf reference lowering instead of linalg"),
      llvm::cl::init(false)};
  Option<bool> fuseConsumers{
      *this, "fuse-consumers",
      llvm::cl::desc("Fuse elementwise consumers of gathers into tiled "
                     "loops (gather-fuse-consumers)"),
      llvm::cl::init(true)};
  Option<bool> outlineDuplicates{
      *this, "outline-duplicates",
      llvm::cl::desc("Lower each gather written more than once (same kind, "
                     "attributes and types) once, as a function called "
                     "where it is written (gather-outline-duplicates)"),
      llvm::cl::init(true)};
  Option<bool> destinationEntries{
      *this, "destination-entries",
      llvm::cl::desc("Also compile <f>__into and <f>__shape for the public "
                     "functions (gather-destination-entries), the results "
                     "written into the caller's buffers"),
      llvm::cl::init(false)};
  Option<std::string> targetCpu{
      *this, "target-cpu",
      llvm::cl::desc("The CPU to plan and generate code for: native (the "
                     "host), or an x86-64, AArch64 or RISC-V 64 CPU name LLVM "
                     "knows (x86-64-v3, znver4, neoverse-n1, sifive-x280, "
                     "...), set on every llvm.func; empty: the lowering's "
                     "defaults and LLVM's default CPU. gather-run and the C "
                     "API take native"),
      llvm::cl::init("")};
  Option<int64_t> vectorBits{
      *this, "vector-bits",
      llvm::cl::desc("The vector register width in bits the lowering plans "
                     "with, over the target's (512: AVX-512, 256: AVX2); 0: "
                     "the target's"),
      llvm::cl::init(0)};
  Option<bool> onHost{
      *this, "on-host",
      llvm::cl::desc("The code runs on this machine (gather-run and the C "
                     "API set it): a named target-cpu gives only the "
                     "instruction set, the caches, cores and tuning being "
                     "the host's"),
      llvm::cl::init(false)};
  Option<bool> runtimeAllocator{
      *this, "runtime-allocator",
      llvm::cl::desc("Call gather_runtime_malloc and gather_runtime_free "
                     "instead of malloc and free (code compiled ahead of "
                     "time, linked with the run-time library: a failed "
                     "assert frees what its call allocated; the JIT binds "
                     "malloc and free to them anyway)"),
      llvm::cl::init(false)};
};

/// From gather ops on tensors (in func.func bodies of a module) to the LLVM
/// dialect for the host CPU: raise gather-like generics, canonicalize,
/// lower the gathers, bufferize,
/// loops (OpenMP-parallel outer dimensions), LLVM.
void buildGatherCpuPipeline(OpPassManager &pm,
                            const GatherCpuPipelineOptions &options);

struct GatherGpuPipelineOptions
    : public PassPipelineOptions<GatherGpuPipelineOptions> {
  Option<std::string> chip{*this, "chip",
                           llvm::cl::desc("NVIDIA GPU architecture (sm_XY)"),
                           llvm::cl::init("sm_90")};
  Option<bool> raiseLinalg{
      *this, "raise-linalg",
      llvm::cl::desc("First raise gather-like linalg.generic ops (a "
                     "tensor.extract at positions read from an index "
                     "operand) into gather ops (convert-linalg-to-gather)"),
      llvm::cl::init(true)};
  Option<bool> fuseConsumers{
      *this, "fuse-consumers",
      llvm::cl::desc("Fuse elementwise consumers into the gathers' loops: "
                     "one kernel (gather-fuse-device-consumers)"),
      llvm::cl::init(true)};
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
                     "driver where it runs), bin (cubin, needs ptxas at "
                     "compile time) or fatbin; the output depends on this "
                     "option, never on the host (gather-run picks isa)"),
      llvm::cl::init("isa")};
  Option<std::string> libdevice{
      *this, "libdevice",
      llvm::cl::desc("CUDA's libdevice.10.bc, linked into kernels that call "
                     "math functions (default: found under $CUDA_ROOT, "
                     "$CUDA_HOME, $CUDA_PATH or /usr/local/cuda)"),
      llvm::cl::init("")};
  Option<int64_t> optLevel{*this, "opt-level",
                           llvm::cl::desc("NVPTX optimization level"),
                           llvm::cl::init(3)};
};

/// From gather ops on tensors to LLVM-dialect host code that launches
/// kernels held in a gpu.binary.
void buildGatherGpuPipeline(OpPassManager &pm,
                            const GatherGpuPipelineOptions &options);

/// Registers --gather-cpu-pipeline and --gather-gpu-pipeline.
void registerGatherPipelines();

} // namespace gather
} // namespace mlir

#endif // GATHER_PIPELINES_PIPELINES_H
