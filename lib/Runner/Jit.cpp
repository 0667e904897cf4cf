//===- Jit.cpp - JIT-compile a gather module ------------------------------===//
//
// Part of the gather project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "gather/Runner/Jit.h"

#include "gather/Dialect/Gather/IR/RuntimeErrorKind.h"
#include "gather/InitGather.h"
#include "gather/Runner/ProcessSymbols.h"
#include "gather/Runtime/GatherGpuRuntime.h"
#include "gather/Runtime/GatherRuntime.h"
#include "gather/Target/CpuTarget.h"
#include "gather/Utils/CInterface.h"

#include "mlir/Dialect/Bufferization/IR/Bufferization.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/IR/Verifier.h"
#include "mlir/InitAllDialects.h"
#include "mlir/InitAllExtensions.h"
#include "mlir/InitAllPasses.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Pass/PassRegistry.h"
#include "mlir/Target/LLVMIR/Dialect/All.h"
#include "mlir/Target/LLVMIR/Export.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/Bitcode/BitcodeReader.h"
#include "llvm/Bitcode/BitcodeWriter.h"
#include "llvm/ExecutionEngine/Orc/ExecutionUtils.h"
#include "llvm/ExecutionEngine/Orc/JITTargetMachineBuilder.h"
#include "llvm/ExecutionEngine/Orc/LLJIT.h"
#include "llvm/ExecutionEngine/Orc/ThreadSafeModule.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/Module.h"
#include "llvm/MC/MCSubtargetInfo.h"
#include "llvm/Passes/PassBuilder.h"
#include "llvm/Support/CodeGen.h"
#include "llvm/Support/DynamicLibrary.h"
#include "llvm/Support/TargetSelect.h"
#include "llvm/Support/Threading.h"
#include "llvm/Target/TargetMachine.h"
#include "llvm/TargetParser/Host.h"
#include "llvm/Transforms/IPO/MergeFunctions.h"
#include "llvm/Transforms/Utils/SplitModule.h"

#include <array>
#include <atomic>
#include <chrono>
#include <csetjmp>
#include <cstring>
#include <mutex>
#include <vector>

using namespace mlir;

namespace {
using Clock = std::chrono::steady_clock;

double secondsSince(Clock::time_point start) {
  return std::chrono::duration<double>(Clock::now() - start).count();
}

/// A module with fewer LLVM instructions is compiled whole. Splitting costs
/// a bitcode round trip of each partition and a thread pool, but on two
/// cores 8 distinct gathers (1185 instructions) already compiled no slower
/// split, and 60 (6694) in half the time (docs/Library.md); one gather
/// stays whole.
constexpr unsigned kSplitInstructions = 2000;
/// Partitions per compile thread: partitions differ in size, and more of
/// them even out the threads' work.
constexpr unsigned kPartitionsPerThread = 4;

/// Messages that threads report while the JIT compiles (ORC's session
/// errors, the passes that fail in nested pipelines).
class Messages {
public:
  void add(std::string text) {
    std::lock_guard<std::mutex> lock(mutex);
    texts.push_back(std::move(text));
  }
  /// All of them, joined by "; ".
  std::string joined() {
    std::lock_guard<std::mutex> lock(mutex);
    return llvm::join(texts, "; ");
  }
  /// The first, or "".
  std::string first() {
    std::lock_guard<std::mutex> lock(mutex);
    return texts.empty() ? std::string() : texts.front();
  }

private:
  std::mutex mutex;
  std::vector<std::string> texts;
};

/// Runs `passes` (built with a PassBuilder for `machine`) on `module`.
template <typename BuildPasses>
void runModulePasses(llvm::Module &module, llvm::TargetMachine *machine,
                     BuildPasses buildPasses) {
  llvm::LoopAnalysisManager loops;
  llvm::FunctionAnalysisManager functions;
  llvm::CGSCCAnalysisManager cgscc;
  llvm::ModuleAnalysisManager modules;
  llvm::PassBuilder builder(machine);
  builder.registerModuleAnalyses(modules);
  builder.registerCGSCCAnalyses(cgscc);
  builder.registerFunctionAnalyses(functions);
  builder.registerLoopAnalyses(loops);
  builder.crossRegisterProxies(loops, functions, cgscc, modules);
  llvm::ModulePassManager passes = buildPasses(builder);
  passes.run(module, modules);
}

/// LLVM's default pipeline at `level`.
void optimize(llvm::Module &module, llvm::TargetMachine *machine,
              llvm::OptimizationLevel level) {
  runModulePasses(module, machine, [&](llvm::PassBuilder &builder) {
    return level == llvm::OptimizationLevel::O0
               ? builder.buildO0DefaultPipeline(level)
               : builder.buildPerModuleDefaultPipeline(level);
  });
}

/// For each C interface `_mlir_ciface_<f>` defines `_mlir__mlir_ciface_<f>`
/// taking one pointer to an array of pointers to the arguments (and, last,
/// to the result slot): the packed form JitProgram::lookupPacked finds, as
/// MLIR's ExecutionEngine defines it.
void addPackedInterfaces(llvm::Module &module) {
  llvm::LLVMContext &context = module.getContext();
  llvm::IRBuilder<> builder(context);
  SmallVector<llvm::Function *> interfaces;
  for (llvm::Function &function : module)
    if (!function.isDeclaration() &&
        gather::isCInterfaceWrapper(function.getName()))
      interfaces.push_back(&function);
  for (llvm::Function *function : interfaces) {
    auto *type =
        llvm::FunctionType::get(builder.getVoidTy(), builder.getPtrTy(), false);
    auto *packed =
        llvm::Function::Create(type, llvm::GlobalValue::ExternalLinkage,
                               "_mlir_" + function->getName(), module);
    builder.SetInsertPoint(llvm::BasicBlock::Create(context, "", packed));
    llvm::Value *slots = packed->getArg(0);
    SmallVector<llvm::Value *> args;
    for (llvm::Argument &arg : function->args()) {
      llvm::Value *slot =
          builder.CreateConstGEP1_64(builder.getPtrTy(), slots, arg.getArgNo());
      llvm::Value *pointer = builder.CreateLoad(builder.getPtrTy(), slot);
      args.push_back(builder.CreateLoad(arg.getType(), pointer));
    }
    llvm::Value *result = builder.CreateCall(function, args);
    if (!result->getType()->isVoidTy()) {
      llvm::Value *slot = builder.CreateConstGEP1_64(builder.getPtrTy(), slots,
                                                     function->arg_size());
      builder.CreateStore(result, builder.CreateLoad(builder.getPtrTy(), slot));
    }
    builder.CreateRetVoid();
  }
}

/// Records the passes that failed or (with the verifier on) after which
/// the IR did not verify, in the order they did.
struct FailedPassRecorder : PassInstrumentation {
  void runAfterPassFailed(Pass *pass, Operation *) override {
    // The adaptors that run nested pipelines (no argument of their own)
    // fail after the pass they ran.
    if (!pass->getArgument().empty())
      failed.add(pass->getArgument().str());
  }
  Messages failed;
};

/// `module` split for `threads` compile threads, each partition in a
/// context of its own (a bitcode round trip), or whole when it is small or
/// has constructors (the GPU module loads, which LLJIT's IR platform finds
/// in one module).
std::vector<llvm::orc::ThreadSafeModule>
partitionModule(std::unique_ptr<llvm::Module> module,
                std::unique_ptr<llvm::LLVMContext> context, unsigned threads) {
  std::vector<llvm::orc::ThreadSafeModule> parts;
  unsigned functions = 0;
  for (llvm::Function &function : *module)
    functions += !function.isDeclaration();
  bool structors = module->getNamedGlobal("llvm.global_ctors") ||
                   module->getNamedGlobal("llvm.global_dtors");
  if (threads < 2 || functions < 2 || structors ||
      module->getInstructionCount() < kSplitInstructions) {
    parts.emplace_back(std::move(module), std::move(context));
    return parts;
  }
  unsigned count = std::min(threads * kPartitionsPerThread, functions);
  llvm::SplitModule(
      *module, count,
      [&](std::unique_ptr<llvm::Module> part) {
        SmallVector<char, 0> bitcode;
        llvm::raw_svector_ostream os(bitcode);
        llvm::WriteBitcodeToFile(*part, os);
        auto partContext = std::make_unique<llvm::LLVMContext>();
        std::unique_ptr<llvm::Module> parsed =
            llvm::cantFail(llvm::parseBitcodeFile(
                llvm::MemoryBufferRef(StringRef(bitcode.data(), bitcode.size()),
                                      part->getModuleIdentifier()),
                *partContext));
        parts.emplace_back(std::move(parsed), std::move(partContext));
      },
      /*PreserveLocals=*/false, /*RoundRobin=*/true);
  // The module before its context, whose destructor would free the module
  // first: the order in which a function's parameters are destroyed is the
  // compiler's choice, and GCC for AArch64 destroyed the context first (the
  // module's destructor then wrote into the freed context; under QEMU every
  // module that was split crashed).
  module.reset();
  context.reset();
  return parts;
}

/// Refuses functions whose code this host cannot run, whatever set their
/// target-cpu, tune-cpu and target-features (the named target, a --pipeline
/// text, the input's own llvm.func attributes): code for features the host
/// lacks stops at its first such instruction (SIGILL), and LLVM ignores a
/// CPU or feature it does not know for the host's architecture with a
/// warning.
LogicalResult checkFunctionTargets(const llvm::Module &module, StringRef entry,
                                   const llvm::TargetMachine &machine,
                                   std::string &error) {
  const llvm::MCSubtargetInfo *info = machine.getMCSubtargetInfo();
  llvm::StringSet<> known;
  for (const llvm::SubtargetFeatureKV &feature :
       info->getAllProcessorFeatures())
    known.insert(feature.Key);
  std::string arch = machine.getTargetTriple().getArchName().str();
  // The entry first, so that a message names the function the user wrote
  // where all share their attributes, as the functions of one pipeline do.
  SmallVector<const llvm::Function *> functions;
  const llvm::Function *entryFunction = module.getFunction(entry);
  if (entryFunction && !entryFunction->isDeclaration())
    functions.push_back(entryFunction);
  for (const llvm::Function &function : module)
    if (!function.isDeclaration() && &function != entryFunction)
      functions.push_back(&function);
  llvm::StringSet<> judged;
  for (const llvm::Function *function : functions) {
    StringRef cpu = function->getFnAttribute("target-cpu").getValueAsString();
    StringRef tune = function->getFnAttribute("tune-cpu").getValueAsString();
    StringRef features =
        function->getFnAttribute("target-features").getValueAsString();
    if (!judged.insert((cpu + "\n" + tune + "\n" + features).str()).second)
      continue;
    std::string name = " (function '" + function->getName().str() + "')";
    std::string reason;
    FailureOr<SmallVector<std::string>> missing =
        gather::codeFeaturesMissingOnHost(cpu, features, reason);
    if (failed(missing)) {
      error = reason + name;
      return failure();
    }
    if (!tune.empty() && !info->isCPUStringValid(tune)) {
      error = "tune CPU '" + tune.str() + "' is not a CPU LLVM knows for " +
              arch + name;
      return failure();
    }
    SmallVector<StringRef> list;
    features.split(list, ',', -1, /*KeepEmpty=*/false);
    for (StringRef feature : list)
      if (!known.contains(feature.drop_front())) {
        error = "target feature '" + feature.str() +
                "' is not a feature LLVM knows for " + arch + name;
        return failure();
      }
    if (missing->empty())
      continue;
    // Name what asks for the features: the CPU, where its name alone asks
    // for every one of them, or the features given with it (a host CPU with
    // "+xop").
    bool cpuNeedsThem = false;
    if (!cpu.empty()) {
      SmallVector<std::string> byName =
          *gather::codeFeaturesMissingOnHost(cpu, "", reason);
      cpuNeedsThem = llvm::all_of(*missing, [&](const std::string &f) {
        return llvm::is_contained(byName, f);
      });
    }
    error = "this host cannot run code for " +
            (cpuNeedsThem ? "target CPU '" + cpu.str() + "'"
                          : std::string("the target features")) +
            name + ": it lacks " + llvm::join(*missing, ", ");
    return failure();
  }
  return success();
}
} // namespace

void mlir::gather::registerJitDialectsAndPasses(DialectRegistry &registry) {
  static std::once_flag once;
  std::call_once(once, [] {
    llvm::InitializeNativeTarget();
    llvm::InitializeNativeTargetAsmPrinter();
    registerAllPasses();
    registerAllGatherPasses();
  });
  registerAllGatherDialects(registry);
  registerAllDialects(registry);
  registerAllExtensions(registry);
  registerAllToLLVMIRTranslations(registry);
}

int64_t mlir::gather::hostVectorBits() { return hostCpuTarget().vectorBits; }

std::unique_ptr<mlir::gather::JitProgram>
mlir::gather::compileForJit(ModuleOp module, StringRef entry,
                            const JitOptions &options, std::string &error) {
  MLIRContext *context = module.getContext();
  // One level for both LLVM's optimization pipeline and its code
  // generation, as clang's -O flags.
  std::optional<llvm::CodeGenOptLevel> codeGenLevel =
      llvm::CodeGenOpt::getLevel(options.optLevel);
  if (!codeGenLevel) {
    error = "optimization level " + std::to_string(options.optLevel) +
            " is out of range [0, 3]";
    return nullptr;
  }
  const llvm::OptimizationLevel level =
      std::array{llvm::OptimizationLevel::O0, llvm::OptimizationLevel::O1,
                 llvm::OptimizationLevel::O2,
                 llvm::OptimizationLevel::O3}[options.optLevel];
  auto function = module.lookupSymbol<func::FuncOp>(entry);
  if (!function) {
    error = ("no function '" + entry + "'").str();
    return nullptr;
  }
  // Every public function gets a C interface, so that one compilation of
  // a module can serve calls of each (the C API's gatherProgramSelect).
  function->setAttr(LLVM::LLVMDialect::getEmitCWrapperAttrName(),
                    UnitAttr::get(context));
  // The caller's arrays are inputs: bufferization must not write results
  // into them (an insert_slice into an argument would change the caller's
  // array), so the arguments of the functions a caller calls are read-only.
  context->getOrLoadDialect<bufferization::BufferizationDialect>();
  for (auto other : module.getOps<func::FuncOp>()) {
    if (!other.isPublic() || other.isExternal())
      continue;
    other->setAttr(LLVM::LLVMDialect::getEmitCWrapperAttrName(),
                   UnitAttr::get(context));
    for (auto [i, type] : llvm::enumerate(other.getArgumentTypes()))
      if (isa<TensorType>(type))
        other.setArgAttr(i,
                         bufferization::BufferizationDialect::kWritableAttrName,
                         BoolAttr::get(context, false));
  }
  bool onGpu = options.device == "gpu";
  PassManager pm(context);
  if (onGpu) {
    // PTX for this device, JIT-compiled by the driver: no CUDA toolkit
    // needed where it runs.
    int capability = gather_gpu_compute_capability();
    GatherGpuPipelineOptions gpuOptions;
    gpuOptions.chip = "sm_" + std::to_string(capability);
    gpuOptions.features = capability >= 100 ? "+ptx86" : "+ptx80";
    gpuOptions.format = "isa";
    gpuOptions.raiseLinalg = options.raiseLinalg;
    gpuOptions.fuseConsumers = options.fuseConsumers;
    buildGatherGpuPipeline(pm, gpuOptions);
  } else if (options.device == "cpu" && !options.pipeline.empty()) {
    std::string pipelineError;
    llvm::raw_string_ostream errorStream(pipelineError);
    FailureOr<OpPassManager> parsed =
        parsePassPipeline(options.pipeline, errorStream);
    if (failed(parsed)) {
      error = "cannot parse the pipeline: " + pipelineError;
      return nullptr;
    }
    if (parsed->getOpAnchorName() != ModuleOp::getOperationName()) {
      error = "the pipeline must be anchored on builtin.module, not '" +
              parsed->getOpAnchorName().str() + "'";
      return nullptr;
    }
    static_cast<OpPassManager &>(pm) = std::move(*parsed);
  } else if (options.device == "cpu") {
    // Code for a CPU with features the host lacks would stop at its first
    // such instruction.
    FailureOr<CpuTarget> target =
        cpuTargetForName(options.targetCpu, error, options.onHost);
    if (failed(target))
      return nullptr;
    std::string missing = featuresMissingOnHost(*target);
    if (!missing.empty()) {
      error = "this host cannot run code for target CPU '" + options.targetCpu +
              "': it lacks " + missing;
      return nullptr;
    }
    GatherCpuPipelineOptions cpuOptions;
    cpuOptions.destinationEntries = options.destinationEntries;
    cpuOptions.parallel = options.parallel;
    cpuOptions.reference = options.reference;
    cpuOptions.fuseConsumers = options.fuseConsumers;
    cpuOptions.outlineDuplicates = options.outlineDuplicates;
    cpuOptions.raiseLinalg = options.raiseLinalg;
    cpuOptions.targetCpu = options.targetCpu;
    cpuOptions.vectorBits = options.vectorBits;
    cpuOptions.onHost = options.onHost;
    buildGatherCpuPipeline(pm, cpuOptions);
  } else {
    error = "unknown device '" + options.device + "' (cpu or gpu)";
    return nullptr;
  }
  // Verifying the whole module after every pass took a third of the
  // pipeline's time for large modules (docs/Library.md, compile time). The
  // input was verified when it was parsed; the output is verified once
  // here, as LLVM's opt and llc do by default. gather-opt, the tests'
  // differential runs and the fuzzer verify after every pass.
  pm.enableVerifier(options.verifyEach);
  auto recorder = std::make_unique<FailedPassRecorder>();
  Messages &failedPasses = recorder->failed;
  pm.addInstrumentation(std::move(recorder));
  Clock::time_point start = Clock::now();
  if (failed(pm.run(module))) {
    error = "compilation failed";
    std::string name = failedPasses.first();
    if (!name.empty())
      error += " in pass '" + name + "'";
    return nullptr;
  }
  if (!options.verifyEach && failed(verify(module))) {
    error = "the lowered module does not verify (--verify-each names the "
            "pass that broke it)";
    return nullptr;
  }

  double pipelineSeconds = secondsSince(start);

  // LLVM IR in a context of its own: each partition below gets one, so that
  // threads can optimize and compile them at the same time.
  start = Clock::now();
  auto llvmContext = std::make_unique<llvm::LLVMContext>();
  std::unique_ptr<llvm::Module> llvmModule =
      translateModuleToLLVMIR(module, *llvmContext);
  if (!llvmModule) {
    error = "could not translate the module to LLVM IR";
    return nullptr;
  }
  auto tmBuilder = llvm::orc::JITTargetMachineBuilder::detectHost();
  if (!tmBuilder) {
    llvm::consumeError(tmBuilder.takeError());
    error = "cannot detect the host target";
    return nullptr;
  }
  tmBuilder->setCodeGenOptLevel(*codeGenLevel);
  auto targetMachine = tmBuilder->createTargetMachine();
  if (!targetMachine) {
    llvm::consumeError(targetMachine.takeError());
    error = "cannot create a target machine for the host";
    return nullptr;
  }
  if (failed(checkFunctionTargets(*llvmModule, entry, **targetMachine, error)))
    return nullptr;
  llvmModule->setDataLayout((*targetMachine)->createDataLayout());
  llvmModule->setTargetTriple((*targetMachine)->getTargetTriple());
  addPackedInterfaces(*llvmModule);
  // Gathers of the same kind, shape and policy lower to identical OpenMP
  // loop bodies: merging them before anything else takes most of the LLVM
  // time of a large model away.
  runModulePasses(*llvmModule, targetMachine->get(), [](llvm::PassBuilder &) {
    llvm::ModulePassManager passes;
    passes.addPass(llvm::MergeFunctionsPass());
    return passes;
  });
  unsigned instructions = llvmModule->getInstructionCount();
  unsigned threads = options.compileThreads
                         ? options.compileThreads
                         : llvm::hardware_concurrency().compute_thread_count();
  std::vector<llvm::orc::ThreadSafeModule> parts =
      partitionModule(std::move(llvmModule), std::move(llvmContext), threads);
  double translationSeconds = secondsSince(start);

  // LLVM's optimization pipeline runs on each partition on its compile
  // thread, then the partition's code generation.
  start = Clock::now();
  llvm::orc::LLJITBuilder jitBuilder;
  jitBuilder.setJITTargetMachineBuilder(*tmBuilder);
  if (parts.size() > 1)
    jitBuilder.setNumCompileThreads(
        std::min<unsigned>(threads, static_cast<unsigned>(parts.size())));
  auto jit = jitBuilder.create();
  if (!jit) {
    llvm::raw_string_ostream os(error);
    os << "cannot create the JIT: " << jit.takeError();
    return nullptr;
  }
  // ORC reports why a materialization failed (a symbol no library defines)
  // to the session, on stderr by default, and returns only "failed to
  // materialize": the reason goes into `error` instead.
  auto sessionErrors = std::make_shared<Messages>();
  (*jit)->getExecutionSession().setErrorReporter(
      [sessionErrors](llvm::Error err) {
        sessionErrors->add(llvm::toString(std::move(err)));
      });
  (*jit)->getIRTransformLayer().setTransform(
      [machineBuilder = *tmBuilder,
       level](llvm::orc::ThreadSafeModule part,
              const llvm::orc::MaterializationResponsibility &)
          -> llvm::Expected<llvm::orc::ThreadSafeModule> {
        // A builder of its own: compile threads run this at the same time.
        llvm::orc::JITTargetMachineBuilder own = machineBuilder;
        auto machine = own.createTargetMachine();
        if (!machine)
          return machine.takeError();
        part.withModuleDo(
            [&](llvm::Module &m) { optimize(m, machine->get(), level); });
        return std::move(part);
      });
  llvm::orc::JITDylib &mainLibrary = (*jit)->getMainJITDylib();
  llvm::orc::MangleAndInterner interner((*jit)->getExecutionSession(),
                                        (*jit)->getDataLayout());
  llvm::orc::SymbolMap hooks;
  auto add = [&](const char *name, auto *function) {
    hooks[interner(name)] = {llvm::orc::ExecutorAddr::fromPtr(function),
                             llvm::JITSymbolFlags::Exported};
  };
  add(gather::kRuntimeErrorHook, &__gather_runtime_error);
  add(gather::kAssertBarrier, &__gather_runtime_assert_barrier);
  add(gather::kErrorStateOf, &__gather_runtime_error_state);
  add(gather::kAdoptErrorState, &__gather_runtime_adopt_error_state);
  add(gather::kErrorRecorded, &__gather_runtime_error_recorded);
  add("malloc", &gather_runtime_malloc);
  add("free", &gather_runtime_free);
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
  if (llvm::Error err =
          mainLibrary.define(llvm::orc::absoluteSymbols(std::move(hooks)))) {
    llvm::raw_string_ostream os(error);
    os << "cannot define the run-time hooks: " << std::move(err);
    return nullptr;
  }
  // The C runner utils for what a module of the user's may call there
  // (vector.print's printF32 and the like; the CPU pipeline's own copies
  // call no memrefCopy, gather-copies-to-memcpy); the OpenMP loops call
  // libomp. Both are loaded into the process's global
  // scope, and every symbol resolves there, as a symbol of the process does:
  // searching a library's own dependencies first would bind `free` to libc's
  // while `malloc` is the runtime's, which goes through a sanitizer's or a
  // preloaded allocator's.
  SmallVector<std::string> libraries = {GATHER_C_RUNNER_UTILS_PATH};
  if (options.parallel && !onGpu)
    libraries.push_back(GATHER_LIBOMP_PATH);
  for (const std::string &path : libraries) {
    std::string loadError;
    if (!llvm::sys::DynamicLibrary::getPermanentLibrary(path.c_str(),
                                                        &loadError)
             .isValid()) {
      error = "cannot load " + path + ": " + loadError;
      return nullptr;
    }
  }
  mainLibrary.addGenerator(std::make_unique<ProcessSymbols>(
      (*jit)->getDataLayout().getGlobalPrefix()));

  // Every partition's definitions in one lookup: ORC materializes the
  // partitions at once on its compile threads instead of one after another
  // as their callers' relocations ask for them.
  llvm::orc::SymbolLookupSet definitions;
  for (llvm::orc::ThreadSafeModule &part : parts) {
    part.withModuleDo([&](llvm::Module &m) {
      for (llvm::Function &function : m)
        if (!function.isDeclaration() && !function.hasLocalLinkage())
          definitions.add(interner(function.getName()));
    });
    if (llvm::Error err = (*jit)->addIRModule(std::move(part))) {
      llvm::raw_string_ostream os(error);
      os << "JIT compilation failed: " << std::move(err);
      return nullptr;
    }
  }
  auto compiled = (*jit)->getExecutionSession().lookup(
      llvm::orc::makeJITDylibSearchOrder(
          &mainLibrary, llvm::orc::JITDylibLookupFlags::MatchAllSymbols),
      std::move(definitions));
  if (!compiled) {
    std::string reasons = sessionErrors->joined();
    llvm::raw_string_ostream os(error);
    os << "JIT compilation failed: ";
    if (reasons.empty())
      os << compiled.takeError();
    else {
      llvm::consumeError(compiled.takeError());
      os << reasons;
    }
    return nullptr;
  }
  auto program = std::make_unique<JitProgram>(std::move(*jit));
  program->times.pipeline = pipelineSeconds;
  program->times.translation = translationSeconds;
  program->times.machineCode = secondsSince(start);
  program->times.instructions = instructions;
  program->times.partitions = static_cast<unsigned>(parts.size());
  return program;
}

mlir::gather::JitProgram::JitProgram(std::unique_ptr<llvm::orc::LLJIT> jit)
    : jit(std::move(jit)) {}

mlir::gather::JitProgram::~JitProgram() {
  // The module's destructors (the GPU module unloads), as ExecutionEngine
  // ran them.
  if (initialized)
    llvm::consumeError(jit->deinitialize(jit->getMainJITDylib()));
}

llvm::Expected<mlir::gather::PackedEntry>
mlir::gather::JitProgram::lookupPacked(StringRef name) {
  auto address = jit->lookup(("_mlir_" + name).str());
  if (!address)
    return address.takeError();
  return address->toPtr<PackedEntry>();
}

llvm::Error mlir::gather::JitProgram::initialize() {
  if (initialized)
    return llvm::Error::success();
  initialized = true;
  return jit->initialize(jit->getMainJITDylib());
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

func::FuncOp mlir::gather::findEntryFunction(ModuleOp module, StringRef name,
                                             std::string &error) {
  if (!name.empty()) {
    auto fn = module.lookupSymbol<func::FuncOp>(name);
    if (!fn || fn.isExternal()) {
      error = ("no function '" + name + "'").str();
      return nullptr;
    }
    return fn;
  }
  func::FuncOp found;
  int publicCount = 0;
  for (auto fn : module.getOps<func::FuncOp>()) {
    if (fn.isExternal() || fn.isPrivate())
      continue;
    ++publicCount;
    found = fn;
    if (fn.getName() == "main")
      return fn;
  }
  if (publicCount != 1) {
    error = "cannot choose the function to run (" +
            std::to_string(publicCount) + " public functions)";
    return nullptr;
  }
  return found;
}

mlir::gather::JitCall::JitCall(ArrayRef<void *> data,
                               ArrayRef<SmallVector<int64_t>> shapes,
                               ArrayRef<int64_t> elementSizes,
                               ArrayRef<int64_t> resultRanks, bool onDevice)
    : onDevice(onDevice) {
  // Compiled code needs a valid pointer even for an empty array.
  static int64_t emptyStorage = 0;
  for (auto [pointer, shape, elementSize] :
       llvm::zip(data, shapes, elementSizes)) {
    void *arg = pointer ? pointer : &emptyStorage;
    if (onDevice) {
      int64_t bytes = elementSize;
      for (int64_t size : shape)
        bytes *= size;
      void *device = gather_gpu_alloc(bytes > 0 ? bytes : 8);
      gather_gpu_copy(device, arg, bytes);
      deviceInputs.push_back(device);
      arg = device;
    }
    argData.push_back(arg);
    argDescs.push_back(makeContiguousDescriptor(arg, shape));
  }
  size_t words = 0;
  for (int64_t rank : resultRanks) {
    resultOffsets.push_back(words);
    ranks.push_back(rank);
    words += descriptorWords(rank);
  }
  resultStorage.assign(std::max<size_t>(words, 1), 0);
  released.assign(resultRanks.size(), false);
}

mlir::gather::JitCall::~JitCall() {
  freeResults();
  for (void *buffer : deviceInputs)
    gather_gpu_free(buffer);
}

llvm::Expected<mlir::gather::PackedEntry>
mlir::gather::lookupEntry(JitProgram &program, StringRef entry) {
  if (llvm::Error err = program.initialize())
    return std::move(err);
  return program.lookupPacked((gather::kCInterfacePrefix + entry).str());
}

namespace {
/// libomp's setter and getter of the calling thread's nthreads ICV, found in
/// the process once compileForJit has loaded libomp; null before.
struct OmpThreadControls {
  void (*set)(int) = nullptr;
  int (*get)() = nullptr;
};

OmpThreadControls ompThreadControls() {
  // Found once, then read without the lock on every call (a gather of a
  // few microseconds pays for each).
  static std::atomic<const OmpThreadControls *> published{nullptr};
  if (const OmpThreadControls *found =
          published.load(std::memory_order_acquire))
    return *found;
  static std::mutex mutex;
  static OmpThreadControls found;
  std::lock_guard<std::mutex> lock(mutex);
  if (!found.set) {
    // Where the compiled code's __kmpc_fork_call comes from.
    auto *set = reinterpret_cast<void (*)(int)>(
        mlir::gather::processSymbolAddress("omp_set_num_threads"));
    auto *get = reinterpret_cast<int (*)()>(
        mlir::gather::processSymbolAddress("omp_get_max_threads"));
    if (!set || !get)
      return {};
    found = {set, get};
    published.store(&found, std::memory_order_release);
  }
  return found;
}
} // namespace

mlir::gather::ScopedOmpThreads::ScopedOmpThreads(int threads) {
  if (threads <= 0)
    return;
  OmpThreadControls omp = ompThreadControls();
  if (!omp.set)
    return;
  previous = omp.get();
  if (previous != threads)
    omp.set(threads);
  else
    previous = 0;
}

mlir::gather::ScopedOmpThreads::~ScopedOmpThreads() {
  if (previous > 0)
    ompThreadControls().set(previous);
}

void mlir::gather::JitCall::invoke(PackedEntry function) {
  freeResults();
  // _mlir_ciface_<entry> takes a pointer to the results (if any), then a
  // pointer to each argument's descriptor.
  void *resultPointer = resultStorage.data();
  std::vector<void *> argPointers;
  for (auto &desc : argDescs)
    argPointers.push_back(desc.data());
  SmallVector<void *> packed;
  if (!resultOffsets.empty())
    packed.push_back(&resultPointer);
  for (void *&pointer : argPointers)
    packed.push_back(&pointer);
  haveResults = true;
  released.assign(released.size(), false);
  // A failed cf.assert of the program returns here when errors are
  // recorded (gather_runtime_set_assert_return says when): the call ends
  // there, its results never written.
  std::jmp_buf assertReturn;
  void *previous = gather_runtime_set_assert_return(&assertReturn);
  if (setjmp(assertReturn) == 0)
    function(packed.data());
  else
    std::fill(resultStorage.begin(), resultStorage.end(), 0);
  gather_runtime_set_assert_return(previous);
}

bool mlir::gather::JitCall::isShared(size_t r) const {
  void *allocated = reinterpret_cast<void *>(result(r)[0]);
  bool shared = llvm::is_contained(argData, allocated);
  for (size_t q = 0; q < r; ++q)
    shared |= result(q)[0] == result(r)[0];
  return shared;
}

bool mlir::gather::JitCall::isOwnContiguousHostResult(size_t r) const {
  if (onDevice || !result(r)[0] || isShared(r))
    return false;
  for (size_t q = r + 1; q < resultOffsets.size(); ++q)
    if (result(q)[0] == result(r)[0])
      return false;
  int64_t rank = ranks[r];
  const int64_t *desc = result(r);
  const int64_t *sizes = desc + 3, *strides = desc + 3 + rank;
  int64_t expected = 1;
  for (int64_t d = rank - 1; d >= 0; --d) {
    if (sizes[d] != 1 && strides[d] != expected)
      return false;
    expected *= sizes[d];
  }
  return true;
}

void mlir::gather::JitCall::freeResults() {
  if (!haveResults)
    return;
  haveResults = false;
  for (size_t r = 0; r < resultOffsets.size(); ++r) {
    void *allocated = reinterpret_cast<void *>(result(r)[0]);
    if (!allocated || released[r] || isShared(r))
      continue;
    if (onDevice)
      gather_gpu_free(allocated);
    else
      std::free(allocated);
  }
}
