//===- GatherToGPU.h - gather ops to NVIDIA GPU kernels --------*- C++ -*-===//
//
// Part of the gather project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// --convert-gather-to-gpu lowers gather ops on tensors to device-ready
// loops (the shared semantics, one parallel linalg.generic per gather, the
// index check as a device flag kernel) and --gather-fuse-device-consumers
// fuses elementwise consumers into them; after bufferization
// --gather-map-to-gpu puts loops and buffers on the device; after kernel
// outlining --gather-dedup-gpu-kernels keeps one of each set of identical
// kernel modules and --gather-gpu-streams puts a function's GPU operations
// on one stream; after the NVVM conversion --gather-link-libdevice links
// libdevice where kernels call it.
//
//===----------------------------------------------------------------------===//

#ifndef GATHER_CONVERSION_GATHERTOGPU_H
#define GATHER_CONVERSION_GATHERTOGPU_H

#include "mlir/Pass/Pass.h"

namespace mlir {
class RewritePatternSet;

namespace gather {

#define GEN_PASS_DECL_CONVERTGATHERTOGPU
#define GEN_PASS_DECL_GATHERMAPTOGPU
#define GEN_PASS_DECL_GATHERFUSEDEVICECONSUMERS
#define GEN_PASS_DECL_GATHERLINKLIBDEVICE
#define GEN_PASS_DECL_GATHERGPUSTREAMS
#define GEN_PASS_DECL_GATHERDEDUPGPUKERNELS
#define GEN_PASS_DECL_GATHERGPUREDUCTIONLOOPS
#include "gather/Conversion/Passes.h.inc"

/// Patterns that lower every gather op to device-ready loops on tensors
/// (the checks on the host as in populateGatherToLinalgPatterns; apply on
/// any op).
void populateGatherToGPUPatterns(RewritePatternSet &patterns);

} // namespace gather
} // namespace mlir

#endif // GATHER_CONVERSION_GATHERTOGPU_H
