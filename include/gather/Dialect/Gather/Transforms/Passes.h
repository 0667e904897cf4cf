//===- Passes.h - gather dialect passes -------------------------*- C++ -*-===//
//
// Part of the gather project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#ifndef GATHER_DIALECT_GATHER_TRANSFORMS_PASSES_H
#define GATHER_DIALECT_GATHER_TRANSFORMS_PASSES_H

#include "gather/Dialect/Gather/IR/GatherOps.h"
#include "mlir/Pass/Pass.h"

namespace mlir {
class RewritePatternSet;
namespace gather {

/// The largest buffer a step of a fused reduction gathers into
/// (gather-fuse-consumers fuses the gather into the steps only up to it):
/// one per step, which the CPU pipeline keeps on the stack
/// (promote-buffers-to-stack) and LLVM then in registers. A heap allocation
/// per step made an embedding bag 6x slower.
constexpr int64_t kReductionStepBufferBytes = 8192;

#define GEN_PASS_DECL
#include "gather/Dialect/Gather/Transforms/Passes.h.inc"

#define GEN_PASS_REGISTRATION
#include "gather/Dialect/Gather/Transforms/Passes.h.inc"

} // namespace gather
} // namespace mlir

#endif // GATHER_DIALECT_GATHER_TRANSFORMS_PASSES_H
