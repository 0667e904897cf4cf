//===- InitGather.h - register everything of the gather project -*- C++ -*-===//
//
// Part of the gather project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// For tools and plugins: the dialect, its passes, the conversions, the code
// generation steps, the entry ABI, the MLIR 22 workarounds and the
// pipelines. Link the libraries GatherConfig.cmake
// exports as Gather::GatherAll (or the ones used).
//
//===----------------------------------------------------------------------===//

#ifndef GATHER_INITGATHER_H
#define GATHER_INITGATHER_H

#include "gather/ABI/DestinationEntries.h"
#include "gather/CodeGen/Passes.h"
#include "gather/Compat/Passes.h"
#include "gather/Conversion/Passes.h"
#include "gather/Dialect/Gather/IR/GatherDialect.h"
#include "gather/Dialect/Gather/InterfaceImpls/InterfaceImpls.h"
#include "gather/Dialect/Gather/TransformOps/GatherTransformOps.h"
#include "gather/Dialect/Gather/Transforms/Passes.h"
#include "gather/Pipelines/Pipelines.h"

#include "mlir/IR/DialectRegistry.h"

namespace mlir::gather {

inline void registerAllGatherPasses() {
  registerGatherPasses();
  registerGatherConversionPasses();
  registerGatherCodeGenPasses();
  registerGatherABIPasses();
  registerGatherCompatPasses();
  registerGatherPipelines();
}

/// The dialect with its external models (tiling, bufferization, value
/// bounds) and its transform dialect extension.
inline void registerAllGatherDialects(DialectRegistry &registry) {
  registry.insert<GatherDialect>();
  registerTilingInterfaceExternalModels(registry);
  registerBufferizableOpInterfaceExternalModels(registry);
  registerValueBoundsOpInterfaceExternalModels(registry);
  registerTransformDialectExtension(registry);
}

} // namespace mlir::gather

#endif // GATHER_INITGATHER_H
