//===- DedupKernels.cpp - one kernel module per distinct kernel -----------===//
//
// Part of the gather project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// gpu-kernel-outlining makes a gpu.module for every gpu.launch. Gathers of
// the same kind, shapes and policy lower to identical kernels, and each
// module costs its NVVM conversion, an LLVM and ptxas compilation and a
// module load at run time: 1000 chained gathers of four kinds spent most of
// the GPU pipeline in gpu-module-to-binary. Modules are compared by their
// printed contents with the module's and its kernels' names left out; uses
// of a duplicate's kernels move to the first module with the same contents.
//
//===----------------------------------------------------------------------===//

#include "gather/Conversion/GatherToGPU.h"

#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/IR/AttrTypeSubElements.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/SymbolTable.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/Support/raw_ostream.h"

namespace mlir::gather {
#define GEN_PASS_DEF_GATHERDEDUPGPUKERNELS
#include "gather/Conversion/Passes.h.inc"
} // namespace mlir::gather

using namespace mlir;

namespace {
/// What makes two kernel modules interchangeable: their attributes other
/// than the symbol name, and every op of their bodies printed without
/// locations, each with its own value numbering, the kernels' names
/// replaced by their positions (the outlined kernels are named after the
/// host function, and the split pieces of one function all differ).
std::string contentsOf(gpu::GPUModuleOp module) {
  std::string text;
  llvm::raw_string_ostream os(text);
  auto print = [&](NamedAttribute attr) {
    if (attr.getName() != SymbolTable::getSymbolAttrName())
      os << attr.getName() << "=" << attr.getValue() << ";";
  };
  // The inherent attributes (targets, offloading handler) are properties.
  if (auto inherent =
          dyn_cast_or_null<DictionaryAttr>(module->getPropertiesAsAttribute()))
    llvm::for_each(inherent, print);
  llvm::for_each(module->getDiscardableAttrs(), print);
  os << "\n";
  OpPrintingFlags flags;
  flags.useLocalScope();
  unsigned position = 0;
  for (Operation &op : module.getBody()->getOperations()) {
    auto kernel = dyn_cast<gpu::GPUFuncOp>(op);
    if (!kernel || !kernel.isKernel()) {
      op.print(os, flags);
      os << "\n";
      continue;
    }
    StringAttr name = kernel.getNameAttr();
    kernel.setName("kernel" + std::to_string(position++));
    op.print(os, flags);
    os << "\n";
    kernel.setName(name);
  }
  return text;
}

/// The kernels of `module` in order.
SmallVector<gpu::GPUFuncOp> kernelsOf(gpu::GPUModuleOp module) {
  SmallVector<gpu::GPUFuncOp> kernels;
  for (auto function : module.getOps<gpu::GPUFuncOp>())
    if (function.isKernel())
      kernels.push_back(function);
  return kernels;
}

struct GatherDedupGpuKernelsPass
    : gather::impl::GatherDedupGpuKernelsBase<GatherDedupGpuKernelsPass> {
  void runOnOperation() override {
    ModuleOp top = getOperation();
    llvm::StringMap<gpu::GPUModuleOp> first;
    // Duplicate module name -> the kept module, and each duplicate kernel
    // (@module::@kernel) -> the kept kernel at the same position.
    DenseMap<StringAttr, gpu::GPUModuleOp> keptFor;
    DenseMap<SymbolRefAttr, SymbolRefAttr> kernelFor;
    SmallVector<gpu::GPUModuleOp> duplicates;
    for (auto module : top.getOps<gpu::GPUModuleOp>()) {
      auto [it, inserted] = first.try_emplace(contentsOf(module), module);
      if (inserted)
        continue;
      gpu::GPUModuleOp kept = it->second;
      keptFor[module.getSymNameAttr()] = kept;
      for (auto [kernel, keptKernel] :
           llvm::zip_equal(kernelsOf(module), kernelsOf(kept)))
        kernelFor[SymbolRefAttr::get(
            module.getSymNameAttr(),
            {FlatSymbolRefAttr::get(kernel.getNameAttr())})] =
            SymbolRefAttr::get(
                kept.getSymNameAttr(),
                {FlatSymbolRefAttr::get(keptKernel.getNameAttr())});
      duplicates.push_back(module);
    }
    if (duplicates.empty())
      return;
    // One walk of the host code: a replaceAllSymbolUses per duplicate
    // walked the whole module each time.
    // Whole references only (skip their parts): outlining names a module's
    // kernels like the module, so the kernel part of @f_kernel_1::@f_kernel
    // is also the name of the module @f_kernel, which may be a duplicate.
    AttrTypeReplacer replacer;
    replacer.addReplacement(
        [&](SymbolRefAttr ref)
            -> std::optional<std::pair<Attribute, WalkResult>> {
          auto kernel = kernelFor.find(ref);
          if (kernel != kernelFor.end())
            return std::make_pair(kernel->second, WalkResult::skip());
          auto module = keptFor.find(ref.getRootReference());
          if (module == keptFor.end())
            return std::make_pair(ref, WalkResult::skip());
          return std::make_pair(
              SymbolRefAttr::get(module->second.getSymNameAttr(),
                                 ref.getNestedReferences()),
              WalkResult::skip());
        });
    top.walk([&](Operation *op) {
      if (isa<gpu::GPUModuleOp>(op))
        return WalkResult::skip();
      replacer.replaceElementsIn(op, /*replaceAttrs=*/true,
                                 /*replaceLocs=*/false, /*replaceTypes=*/false);
      return WalkResult::advance();
    });
    for (gpu::GPUModuleOp module : duplicates)
      module.erase();
  }
};
} // namespace
