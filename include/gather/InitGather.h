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

inline void registerAllGatherDialects(DialectRegistry &registry) {
  registry.insert<GatherDialect>();
}

} // namespace mlir::gather

#endif // GATHER_INITGATHER_H
