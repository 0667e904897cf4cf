//===- gather-opt.cpp - mlir-opt with the gather dialect ------------------===//
//
// Registers the gather dialect and the upstream dialects and passes that the
// pipelines from gather ops down to LLVM and NVVM need.
//
//===----------------------------------------------------------------------===//

#include "gather/Conversion/Passes.h"
#include "gather/Dialect/Gather/IR/GatherDialect.h"
#include "gather/Dialect/Gather/Transforms/Passes.h"

#include "mlir/IR/DialectRegistry.h"
#include "mlir/InitAllDialects.h"
#include "mlir/InitAllExtensions.h"
#include "mlir/InitAllPasses.h"
#include "mlir/Target/LLVMIR/Dialect/All.h"
#include "mlir/Tools/mlir-opt/MlirOptMain.h"

int main(int argc, char **argv) {
  mlir::registerAllPasses();
  mlir::gather::registerGatherPasses();
  mlir::gather::registerGatherConversionPasses();
  mlir::gather::registerGatherPipelines();

  mlir::DialectRegistry registry;
  registry.insert<mlir::gather::GatherDialect>();
  mlir::registerAllDialects(registry);
  mlir::registerAllExtensions(registry);
  // gpu-module-to-binary translates kernels to LLVM IR.
  mlir::registerAllToLLVMIRTranslations(registry);

  return mlir::asMainReturnCode(mlir::MlirOptMain(
      argc, argv, "gather optimizer driver\n", registry));
}
