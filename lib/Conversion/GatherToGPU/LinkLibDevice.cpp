//===- LinkLibDevice.cpp - libdevice for the kernels that call it ---------===//
//
// Part of the gather project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// Only the kernel modules that call libdevice link it: the others' targets,
// and so the pipeline's output, do not depend on where CUDA is installed.
//
//===----------------------------------------------------------------------===//

#include "gather/Conversion/GatherToGPU.h"

#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"

namespace mlir::gather {
#define GEN_PASS_DEF_GATHERLINKLIBDEVICE
#include "gather/Conversion/Passes.h.inc"
} // namespace mlir::gather

using namespace mlir;

namespace {
struct GatherLinkLibDevicePass
    : gather::impl::GatherLinkLibDeviceBase<GatherLinkLibDevicePass> {
  using Base::Base;

  void runOnOperation() override {
    MLIRContext *context = &getContext();
    for (auto module : getOperation().getOps<gpu::GPUModuleOp>()) {
      LLVM::LLVMFuncOp called;
      for (auto function : module.getOps<LLVM::LLVMFuncOp>())
        if (function.isExternal() && function.getName().starts_with("__nv_")) {
          called = function;
          break;
        }
      if (!called || !module.getTargetsAttr())
        continue;
      if (path.empty()) {
        module.emitError("kernel module calls @")
            << called.getName()
            << " of CUDA's libdevice, which was not found: give its "
               "libdevice.10.bc (the GPU pipeline's libdevice option) or "
               "set CUDA_HOME";
        return signalPassFailure();
      }
      SmallVector<Attribute> targets;
      for (Attribute attr : module.getTargetsAttr()) {
        auto target = dyn_cast<NVVM::NVVMTargetAttr>(attr);
        if (!target) {
          targets.push_back(attr);
          continue;
        }
        SmallVector<Attribute> files;
        if (ArrayAttr link = target.getLink())
          files.assign(link.begin(), link.end());
        files.push_back(StringAttr::get(context, path));
        targets.push_back(NVVM::NVVMTargetAttr::get(
            context, target.getO(), target.getTriple(), target.getChip(),
            target.getFeatures(), target.getFlags(),
            ArrayAttr::get(context, files), target.getVerifyTarget()));
      }
      module.setTargetsAttr(ArrayAttr::get(context, targets));
    }
  }
};
} // namespace
