//===- LLVMTarget.cpp - the target CPU on the LLVM functions --------------===//
//
// Part of the gather project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "gather/CodeGen/Passes.h"
#include "gather/Target/CpuTarget.h"

#include "mlir/Dialect/LLVMIR/LLVMDialect.h"

namespace mlir::gather {
#define GEN_PASS_DEF_GATHERLLVMTARGET
#include "gather/CodeGen/Passes.h.inc"
} // namespace mlir::gather

using namespace mlir;

namespace {
struct GatherLLVMTargetPass
    : gather::impl::GatherLLVMTargetBase<GatherLLVMTargetPass> {
  using Base::Base;

  void runOnOperation() override {
    if (cpu.empty())
      return;
    // The description as the lowering read it (DLTI, vector-bits): an SVE
    // CPU's vector width decides vscale_range.
    FailureOr<gather::CpuTarget> target =
        gather::resolveCpuTarget(getOperation(), cpu, vectorBits, onHost);
    if (failed(target))
      return signalPassFailure();
    std::string error;
    StringAttr tuneName;
    if (!tuneCpu.empty()) {
      FailureOr<gather::CpuTarget> tune =
          gather::cpuTargetForName(tuneCpu, error);
      if (failed(tune)) {
        getOperation()->emitError(error);
        return signalPassFailure();
      }
      tuneName = StringAttr::get(&getContext(), tune->cpu);
    }
    MLIRContext *context = &getContext();
    auto cpuName = StringAttr::get(context, target->cpu);
    auto features = LLVM::TargetFeaturesAttr::get(context, target->features);
    LLVM::VScaleRangeAttr vscaleRange;
    if (int64_t vscaleMin = target->vscaleMin()) {
      // SVE's architectural maximum: 2048 bits.
      IntegerType i32 = IntegerType::get(context, 32);
      vscaleRange = LLVM::VScaleRangeAttr::get(
          context, IntegerAttr::get(i32, vscaleMin), IntegerAttr::get(i32, 16));
    }
    // Functions do not nest: their bodies are skipped, not walked.
    getOperation()->walk<WalkOrder::PreOrder>([&](LLVM::LLVMFuncOp function) {
      if (!function.isExternal()) {
        LLVM::TargetFeaturesAttr own = function.getTargetFeaturesAttr();
        if (!function.getTargetCpuAttr()) {
          function.setTargetCpuAttr(cpuName);
          // Features a function adds to the target (as clang's target
          // attribute adds to -march) follow the target's, so that they win
          // and the target's others stay: the host's CPU name alone can
          // name features a VM masks.
          if (own)
            function.setTargetFeaturesAttr(LLVM::TargetFeaturesAttr::get(
                context, target->features + "," + own.getFeaturesString()));
        }
        if (!function.getTargetFeaturesAttr())
          function.setTargetFeaturesAttr(features);
        if (tuneName && !function.getTuneCpuAttr())
          function.setTuneCpuAttr(tuneName);
        // Entry points, C interface wrappers included, give the promise up
        // again in gather-vector-length-guard, which checks it.
        if (vscaleRange && !function.getVscaleRangeAttr())
          function.setVscaleRangeAttr(vscaleRange);
      }
      return WalkResult::skip();
    });
  }
};
} // namespace
