//===- consumer-run.cpp - a tool of another project that uses gather -----===//
//
// Part of the gather project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//   consumer-run FILE.mlir ID...
//
// Lowers each function with a pass of its own, which mixes gather's patterns
// (populateGatherToLinalgPatterns) with one of its own, finishes with
// gather's CPU pipeline (the calls of the error hook from the check ops the
// patterns left, bufferization and LLVM; no gather is left for its lowering
// step), JIT-compiles it and runs `@main(table, ids)` on an 8x4
// f32 table with table[i][j] = 10 * i + j and the given i64 ids. Prints
// the result, one row a line. Out-of-range ids end in gather's run-time
// error (status 1).
//
//===----------------------------------------------------------------------===//

#include "gather/Conversion/GatherToLinalg.h"
#include "gather/Conversion/MultiaxisLowering/MultiaxisLowering.h"
#include "gather/Pipelines/Pipelines.h"
#include "gather/Runner/Jit.h"
#include "gather/Runtime/GatherRuntime.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"

#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/ExecutionEngine/CRunnerUtils.h"
#include "mlir/ExecutionEngine/ExecutionEngine.h"
#include "mlir/ExecutionEngine/OptUtils.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/Parser/Parser.h"
#include "mlir/Pass/Pass.h"
#include "mlir/Pass/PassManager.h"
#include "llvm/Support/raw_ostream.h"

#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

using namespace mlir;

namespace {
/// The consumer's own rewrite, applied in the same pattern set as gather's:
/// x + x on a tensor becomes a linalg.map computing x * 2.
struct AddSelfToMul : OpRewritePattern<arith::AddFOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(arith::AddFOp op,
                                PatternRewriter &rewriter) const override {
    auto type = dyn_cast<RankedTensorType>(op.getType());
    if (!type || op.getLhs() != op.getRhs())
      return failure();
    Location loc = op.getLoc();
    Value init = tensor::EmptyOp::create(
        rewriter, loc, tensor::getMixedSizes(rewriter, loc, op.getLhs()),
        type.getElementType());
    auto map = linalg::MapOp::create(
        rewriter, loc, ValueRange{op.getLhs()}, init,
        [&](OpBuilder &b, Location l, ValueRange args) {
          Value two = arith::ConstantOp::create(
              b, l, b.getFloatAttr(type.getElementType(), 2.0));
          Value product = arith::MulFOp::create(b, l, args[0], two);
          linalg::YieldOp::create(b, l, product);
        });
    rewriter.replaceOp(op, map->getResults());
    return success();
  }
};

/// The consumer's pass, on one function: gather's lowering patterns next to
/// its own (they create nothing outside the function).
struct ConsumerLoweringPass
    : PassWrapper<ConsumerLoweringPass, OperationPass<func::FuncOp>> {
  MLIR_DEFINE_EXPLICIT_INTERNAL_INLINE_TYPE_ID(ConsumerLoweringPass)
  void runOnOperation() override {
    RewritePatternSet patterns(&getContext());
    gather::populateGatherToLinalgPatterns(patterns);
    patterns.add<AddSelfToMul>(&getContext());
    if (failed(gather::applyGatherLoweringPatterns(getOperation(),
                                                   std::move(patterns))))
      signalPassFailure();
  }
};
} // namespace

int main(int argc, char **argv) {
  if (argc < 3) {
    std::fprintf(stderr, "usage: consumer-run FILE.mlir ID...\n");
    return 2;
  }
  // Everything gather's pipelines and its JIT need, compiled in gather's
  // library (mlir/InitAllDialects.h here would be most of this file's
  // compile time), and LLVM's native target.
  DialectRegistry registry;
  gather::registerJitDialectsAndPasses(registry);
  MLIRContext context(registry);
  OwningOpRef<ModuleOp> module = parseSourceFile<ModuleOp>(argv[1], &context);
  if (!module)
    return 1;
  auto main = module->lookupSymbol<func::FuncOp>("main");
  if (!main)
    return 1;
  // LLVM::LLVMDialect::getEmitCWrapperAttrName(), without its header (a
  // fifth of this file's compile time).
  main->setAttr("llvm.emit_c_interface", UnitAttr::get(&context));

  PassManager pm(&context);
  pm.addNestedPass<func::FuncOp>(std::make_unique<ConsumerLoweringPass>());
  gather::GatherCpuPipelineOptions pipeline;
  pipeline.parallel = false;
  gather::buildGatherCpuPipeline(pm, pipeline);
  if (failed(pm.run(*module)))
    return 1;

  ExecutionEngineOptions engineOptions;
  std::string runnerUtils = CONSUMER_RUNNER_UTILS;
  SmallVector<StringRef> libs = {runnerUtils};
  engineOptions.sharedLibPaths = libs;
  auto transformer = makeOptimizingTransformer(2, 0, nullptr);
  engineOptions.transformer = transformer;
  auto engine = ExecutionEngine::create(*module, engineOptions);
  if (!engine) {
    llvm::errs() << "JIT: " << engine.takeError() << "\n";
    return 1;
  }
  (*engine)->registerSymbols([](llvm::orc::MangleAndInterner interner) {
    llvm::orc::SymbolMap symbols;
    // What a serial program's index checks call (GatherRuntime.h).
    symbols[interner("__gather_runtime_error")] = {
        llvm::orc::ExecutorAddr::fromPtr(&__gather_runtime_error),
        llvm::JITSymbolFlags::Exported};
    symbols[interner("__gather_runtime_error_recorded")] = {
        llvm::orc::ExecutorAddr::fromPtr(&__gather_runtime_error_recorded),
        llvm::JITSymbolFlags::Exported};
    return symbols;
  });

  std::vector<float> table(8 * 4);
  for (int i = 0; i < 8; ++i)
    for (int j = 0; j < 4; ++j)
      table[i * 4 + j] = 10.0f * i + j;
  std::vector<int64_t> ids;
  for (int a = 2; a < argc; ++a)
    ids.push_back(std::strtoll(argv[a], nullptr, 10));
  StridedMemRefType<float, 2> tableRef{
      table.data(), table.data(), 0, {8, 4}, {4, 1}};
  StridedMemRefType<int64_t, 1> idsRef{
      ids.data(), ids.data(), 0, {static_cast<int64_t>(ids.size())}, {1}};
  StridedMemRefType<float, 2> result{};
  auto *resultPtr = &result;
  auto *tablePtr = &tableRef;
  auto *idsPtr = &idsRef;
  void *args[] = {&resultPtr, &tablePtr, &idsPtr};
  if (llvm::Error error = (*engine)->invokePacked("_mlir_ciface_main", args)) {
    llvm::errs() << "run: " << error << "\n";
    return 1;
  }
  for (int64_t i = 0; i < result.sizes[0]; ++i) {
    for (int64_t j = 0; j < result.sizes[1]; ++j)
      std::printf("%s%g", j ? " " : "",
                  result.data[result.offset + i * result.strides[0] +
                              j * result.strides[1]]);
    std::printf("\n");
  }
  std::free(result.basePtr);
  return 0;
}
