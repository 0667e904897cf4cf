//===- TestDescribeHost.cpp - describe a host of another architecture -----===//
//
// Part of the gather project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// The JIT describes its host from LLVM's host CPU name and features and the
// OS's scalable vector length (describeHostCpu). The tests run on x86, so
// this pass describes a host of any architecture instead: the features of
// a CPU name LLVM knows, with a vector length the options give. Registered
// in gather-opt, as upstream's test passes are in mlir-opt.
//
//===----------------------------------------------------------------------===//

#include "gather/Target/CpuTarget.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/Pass/Pass.h"
#include "llvm/Support/raw_ostream.h"

using namespace mlir;

namespace {
/// Prints the description of a host that LLVM reports as `cpu`, with
/// scalable vector registers of `scalable-vector-bits` and the name's
/// features changed by `features`, and the features a
/// CPU named `run` needs that such a host lacks.
struct TestDescribeHostPass
    : PassWrapper<TestDescribeHostPass, OperationPass<ModuleOp>> {
  MLIR_DEFINE_EXPLICIT_INTERNAL_INLINE_TYPE_ID(TestDescribeHostPass)

  TestDescribeHostPass() = default;
  TestDescribeHostPass(const TestDescribeHostPass &other)
      : PassWrapper(other) {}

  StringRef getArgument() const final { return "test-gather-describe-host"; }
  StringRef getDescription() const final {
    return "Test only: print the description of a host whose CPU LLVM "
           "names `cpu`, with scalable vector registers of the given length";
  }

  Option<std::string> cpu{*this, "cpu",
                          llvm::cl::desc("The host CPU's LLVM name")};
  Option<int64_t> scalableVectorBits{
      *this, "scalable-vector-bits",
      llvm::cl::desc("The length of the host's SVE or RISC-V V registers, "
                     "as the OS reports it (0: none)"),
      llvm::cl::init(0)};
  Option<std::string> featureChanges{
      *this, "features",
      llvm::cl::desc("LLVM's \"+feature\" and \"-feature\" applied to the "
                     "name's features, as a VM that masks some reports them")};
  Option<std::string> run{
      *this, "run",
      llvm::cl::desc("A CPU name whose features are checked against the "
                     "host's")};

  void runOnOperation() override {
    std::string error;
    FailureOr<gather::CpuTarget> named = gather::cpuTargetForName(cpu, error);
    if (failed(named)) {
      getOperation().emitError(error);
      return signalPassFailure();
    }
    llvm::StringMap<bool> features = gather::featureMap(named->features);
    for (const auto &change : gather::featureMap(featureChanges))
      features[change.first()] = change.second;
    gather::CpuTarget host = gather::describeHostCpu(
        named->arch, named->cpu, features, scalableVectorBits);
    llvm::outs() << "host: " << host.describe() << "\n";
    llvm::outs() << "features: " << host.features << "\n";
    if (run.empty())
      return;
    FailureOr<gather::CpuTarget> other = gather::cpuTargetForName(run, error);
    if (failed(other)) {
      getOperation().emitError(error);
      return signalPassFailure();
    }
    llvm::outs() << "missing for " << run << ": "
                 << gather::featuresMissing(*other,
                                            gather::featureMap(host.features))
                 << "\n";
  }
};
} // namespace

namespace mlir::gather::test {
void registerTestDescribeHostPass() {
  PassRegistration<TestDescribeHostPass>();
}
} // namespace mlir::gather::test
