//===- gather-opt.cpp - mlir-opt with the gather dialect ------------------===//
//
// Part of the gather project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// Registers the gather dialect and the upstream dialects and passes that the
// pipelines from gather ops down to LLVM and NVVM need.
//
//===----------------------------------------------------------------------===//

#include "gather/InitGather.h"

#include "mlir/IR/DialectRegistry.h"
#include "mlir/InitAllDialects.h"
#include "mlir/InitAllExtensions.h"
#include "mlir/InitAllPasses.h"
#include "mlir/Target/LLVMIR/Dialect/All.h"
#include "mlir/Tools/mlir-opt/MlirOptMain.h"

namespace mlir::gather::test {
void registerTestDescribeHostPass();
} // namespace mlir::gather::test

int main(int argc, char **argv) {
  mlir::registerAllPasses();
  mlir::gather::registerAllGatherPasses();
  // Test only: the description of hosts of other architectures.
  mlir::gather::test::registerTestDescribeHostPass();

  mlir::DialectRegistry registry;
  mlir::gather::registerAllGatherDialects(registry);
  mlir::registerAllDialects(registry);
  mlir::registerAllExtensions(registry);
  // gpu-module-to-binary translates kernels to LLVM IR.
  mlir::registerAllToLLVMIRTranslations(registry);

  return mlir::asMainReturnCode(
      mlir::MlirOptMain(argc, argv, "gather optimizer driver\n", registry));
}
