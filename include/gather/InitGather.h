//===- InitGather.h - register everything of the gather project -*- C++ -*-===//
//
// For tools and plugins: the dialect, its passes, the conversions, the loop
// transforms and the pipelines. Link the libraries GatherConfig.cmake
// exports as Gather::GatherAll (or the ones used).
//
//===----------------------------------------------------------------------===//

#ifndef GATHER_INITGATHER_H
#define GATHER_INITGATHER_H

#include "gather/Conversion/Passes.h"
#include "gather/Dialect/Gather/IR/GatherDialect.h"
#include "gather/Dialect/Gather/TransformOps/GatherTransformOps.h"
#include "gather/Dialect/Gather/InterfaceImpls/InterfaceImpls.h"
#include "gather/Dialect/Gather/Transforms/Passes.h"
#include "gather/Pipelines/Pipelines.h"
#include "gather/Transforms/Passes.h"

#include "mlir/IR/DialectRegistry.h"

namespace mlir::gather {

inline void registerAllGatherPasses() {
  registerGatherPasses();
  registerGatherConversionPasses();
  registerGatherPipelineTransformsPasses();
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
