//===- TestBreakIR.cpp - a pass that leaves IR that does not verify -------===//
//
// Part of the gather project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// For the tests of what the JIT does with a pipeline whose output does not
// verify (it verifies the output once, or every pass with --verify-each):
// no pass of the project or of MLIR breaks the IR on purpose. Registered in
// gather-run only, as upstream's test passes are in mlir-opt.
//
//===----------------------------------------------------------------------===//

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/Interfaces/FunctionInterfaces.h"
#include "mlir/Pass/Pass.h"

using namespace mlir;

namespace {
/// Puts an `arith.constant` whose value (i32) and result (i64) types differ
/// at the start of the first function with a body.
struct TestBreakIRPass : PassWrapper<TestBreakIRPass, OperationPass<ModuleOp>> {
  MLIR_DEFINE_EXPLICIT_INTERNAL_INLINE_TYPE_ID(TestBreakIRPass)

  StringRef getArgument() const final { return "test-gather-break-ir"; }
  StringRef getDescription() const final {
    return "Test only: leave an op that does not verify in the first "
           "function";
  }
  void getDependentDialects(DialectRegistry &registry) const override {
    registry.insert<arith::ArithDialect>();
  }
  void runOnOperation() override {
    getOperation().walk([&](FunctionOpInterface function) {
      if (function.isExternal())
        return WalkResult::advance();
      OpBuilder builder = OpBuilder::atBlockBegin(&function.front());
      OperationState state(function.getLoc(),
                           arith::ConstantOp::getOperationName());
      state.addAttribute("value", builder.getI32IntegerAttr(1));
      state.addTypes(builder.getI64Type());
      builder.create(state);
      return WalkResult::interrupt();
    });
  }
};
} // namespace

namespace mlir::gather::test {
void registerTestBreakIRPass() { PassRegistration<TestBreakIRPass>(); }
} // namespace mlir::gather::test
