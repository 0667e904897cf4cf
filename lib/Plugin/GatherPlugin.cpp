//===- GatherPlugin.cpp - the gather dialect as an mlir-opt plugin --------===//
//
// Part of the gather project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//   mlir-opt --load-dialect-plugin=build/lib/GatherPlugin.so \
//            --load-pass-plugin=build/lib/GatherPlugin.so FILE.mlir ...
//
// Registers the gather dialect, its passes, the conversion passes and the
// gather-cpu / gather-gpu pipelines in any MLIR 22 tool that loads plugins
// (Debian's /usr/lib/llvm-22/bin/mlir-opt). The plugin links libMLIR.so,
// the same copy of MLIR the tool uses.
//
//===----------------------------------------------------------------------===//

#include "gather/InitGather.h"

#include "mlir/IR/DialectRegistry.h"
#include "mlir/Tools/Plugins/DialectPlugin.h"
#include "mlir/Tools/Plugins/PassPlugin.h"
#include "llvm/Config/llvm-config.h"
#include "llvm/Support/Compiler.h"

#include <mutex>

using namespace mlir;

/// Passes register into a process-wide registry: once, whichever hook the
/// tool calls first.
static void registerGatherPassesOnce() {
  static std::once_flag once;
  std::call_once(once, [] { gather::registerAllGatherPasses(); });
}

extern "C" LLVM_ATTRIBUTE_WEAK DialectPluginLibraryInfo
mlirGetDialectPluginInfo() {
  return {MLIR_PLUGIN_API_VERSION, "Gather", LLVM_VERSION_STRING,
          [](DialectRegistry *registry) {
            gather::registerAllGatherDialects(*registry);
            registerGatherPassesOnce();
          }};
}

extern "C" LLVM_ATTRIBUTE_WEAK PassPluginLibraryInfo mlirGetPassPluginInfo() {
  return {MLIR_PLUGIN_API_VERSION, "GatherPasses", LLVM_VERSION_STRING,
          []() { registerGatherPassesOnce(); }};
}
