//===- Jit.cpp - compile a gather function for the ExecutionEngine --------===//

#include "gather/Runner/Jit.h"

#include "gather/Conversion/Passes.h"
#include "gather/Dialect/Gather/IR/GatherDialect.h"
#include "gather/Dialect/Gather/Transforms/Passes.h"
#include "gather/Runtime/GatherGpuRuntime.h"
#include "gather/Runtime/GatherRuntime.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/ExecutionEngine/OptUtils.h"
#include "mlir/InitAllDialects.h"
#include "mlir/InitAllExtensions.h"
#include "mlir/InitAllPasses.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Target/LLVMIR/Dialect/All.h"
#include "llvm/ExecutionEngine/Orc/JITTargetMachineBuilder.h"
#include "llvm/Support/TargetSelect.h"

#include <cstring>
#include <mutex>

using namespace mlir;

void mlir::gather::registerJitDialectsAndPasses(DialectRegistry &registry) {
  static std::once_flag once;
  std::call_once(once, [] {
    llvm::InitializeNativeTarget();
    llvm::InitializeNativeTargetAsmPrinter();
    registerAllPasses();
    registerGatherPasses();
    registerGatherConversionPasses();
    registerGatherPipelines();
  });
  registry.insert<GatherDialect>();
  registerAllDialects(registry);
  registerAllExtensions(registry);
  registerAllToLLVMIRTranslations(registry);
}

std::unique_ptr<ExecutionEngine>
mlir::gather::compileForJit(ModuleOp module, StringRef entry,
                            const JitOptions &options, std::string &error) {
  MLIRContext *context = module.getContext();
  auto function = module.lookupSymbol<func::FuncOp>(entry);
  if (!function) {
    error = ("no function '" + entry + "'").str();
    return nullptr;
  }
  function->setAttr(LLVM::LLVMDialect::getEmitCWrapperAttrName(),
                    UnitAttr::get(context));
  bool onGpu = options.device == "gpu";
  std::string pipeline = "gather-cpu-pipeline{parallel=" +
                         std::string(options.parallel ? "true" : "false") +
                         " reference=" +
                         (options.reference ? "true" : "false") + "}";
  if (onGpu) {
    // PTX for this device, JIT-compiled by the driver: no CUDA toolkit
    // needed where it runs.
    int capability = gather_gpu_compute_capability();
    std::string features = capability >= 100 ? "+ptx86" : "+ptx80";
    pipeline = "gather-gpu-pipeline{chip=sm_" + std::to_string(capability) +
               " features=" + features + " format=isa}";
  } else if (options.device != "cpu") {
    error = "unknown device '" + options.device + "' (cpu or gpu)";
    return nullptr;
  }
  PassManager pm(context);
  if (failed(parsePassPipeline(pipeline, pm))) {
    error = "internal error: cannot build " + pipeline;
    return nullptr;
  }
  if (failed(pm.run(module))) {
    error = "compilation failed";
    return nullptr;
  }

  ExecutionEngineOptions engineOptions;
  auto tmBuilder = llvm::orc::JITTargetMachineBuilder::detectHost();
  if (!tmBuilder) {
    llvm::consumeError(tmBuilder.takeError());
    error = "cannot detect the host target";
    return nullptr;
  }
  auto targetMachine = tmBuilder->createTargetMachine();
  if (!targetMachine) {
    llvm::consumeError(targetMachine.takeError());
    error = "cannot create a target machine for the host";
    return nullptr;
  }
  // The options hold a function_ref: the transformer must outlive create().
  std::function<llvm::Error(llvm::Module *)> transformer =
      makeOptimizingTransformer(3, 0, targetMachine->get());
  engineOptions.transformer = transformer;
  engineOptions.jitCodeGenOptLevel = llvm::CodeGenOptLevel::Aggressive;
  // memref.copy of strided buffers calls memrefCopy from the C runner utils;
  // the OpenMP loops call libomp.
  std::string ompPath = GATHER_LIBOMP_PATH;
  std::string runnerUtilsPath = GATHER_C_RUNNER_UTILS_PATH;
  SmallVector<StringRef> libs = {runnerUtilsPath};
  if (options.parallel && !onGpu)
    libs.push_back(ompPath);
  engineOptions.sharedLibPaths = libs;
  auto engine = ExecutionEngine::create(module, engineOptions,
                                        std::move(*targetMachine));
  if (!engine) {
    llvm::raw_string_ostream os(error);
    os << "JIT compilation failed: " << engine.takeError();
    return nullptr;
  }
  (*engine)->registerSymbols([](llvm::orc::MangleAndInterner interner) {
    llvm::orc::SymbolMap symbols;
    auto add = [&](const char *name, auto *function) {
      symbols[interner(name)] = {llvm::orc::ExecutorAddr::fromPtr(function),
                                 llvm::JITSymbolFlags::Exported};
    };
    add("__gather_runtime_error", &__gather_runtime_error);
    // The GPU pipeline's host code calls these (lib/Runtime).
    add("mgpuModuleLoad", &mgpuModuleLoad);
    add("mgpuModuleLoadJIT", &mgpuModuleLoadJIT);
    add("mgpuModuleUnload", &mgpuModuleUnload);
    add("mgpuModuleGetFunction", &mgpuModuleGetFunction);
    add("mgpuLaunchKernel", &mgpuLaunchKernel);
    add("mgpuStreamCreate", &mgpuStreamCreate);
    add("mgpuStreamDestroy", &mgpuStreamDestroy);
    add("mgpuStreamSynchronize", &mgpuStreamSynchronize);
    add("mgpuStreamWaitEvent", &mgpuStreamWaitEvent);
    add("mgpuEventCreate", &mgpuEventCreate);
    add("mgpuEventDestroy", &mgpuEventDestroy);
    add("mgpuEventSynchronize", &mgpuEventSynchronize);
    add("mgpuEventRecord", &mgpuEventRecord);
    add("mgpuMemAlloc", &mgpuMemAlloc);
    add("mgpuMemFree", &mgpuMemFree);
    add("mgpuMemcpy", &mgpuMemcpy);
    add("mgpuMemset32", &mgpuMemset32);
    add("mgpuMemset16", &mgpuMemset16);
    add("mgpuSetDefaultDevice", &mgpuSetDefaultDevice);
    return symbols;
  });
  return std::move(*engine);
}

std::vector<int64_t>
mlir::gather::makeContiguousDescriptor(void *data, ArrayRef<int64_t> shape) {
  std::vector<int64_t> desc;
  desc.push_back(reinterpret_cast<int64_t>(data));
  desc.push_back(reinterpret_cast<int64_t>(data));
  desc.push_back(0);
  for (int64_t dim : shape)
    desc.push_back(dim);
  int64_t stride = 1;
  std::vector<int64_t> strides(shape.size());
  for (int64_t d = static_cast<int64_t>(shape.size()) - 1; d >= 0; --d) {
    strides[d] = stride;
    stride *= shape[d];
  }
  desc.insert(desc.end(), strides.begin(), strides.end());
  return desc;
}

void mlir::gather::copyResultToHost(const int64_t *desc, int64_t rank,
                                    int64_t elementSize, bool onDevice,
                                    char *out) {
  const int64_t *sizes = desc + 3;
  const int64_t *strides = desc + 3 + rank;
  int64_t count = 1;
  for (int64_t d = 0; d < rank; ++d)
    count *= sizes[d];
  if (count == 0)
    return;
  const char *base =
      reinterpret_cast<const char *>(desc[1]) + desc[2] * elementSize;
  std::vector<char> hostCopy;
  if (onDevice) {
    int64_t span = 1;
    for (int64_t d = 0; d < rank; ++d)
      span += (sizes[d] - 1) * strides[d];
    hostCopy.resize(span * elementSize);
    gather_gpu_copy(hostCopy.data(), base, hostCopy.size());
    base = hostCopy.data();
  }
  std::vector<int64_t> coord(rank, 0);
  for (int64_t linear = 0; linear < count; ++linear) {
    int64_t rest = linear, offset = 0;
    for (int64_t d = rank - 1; d >= 0; --d) {
      coord[d] = rest % sizes[d];
      rest /= sizes[d];
      offset += coord[d] * strides[d];
    }
    std::memcpy(out + linear * elementSize, base + offset * elementSize,
                elementSize);
  }
}
