//===- GatherCAPI.cpp - C API of the gather project -----------------------===//
//
// Part of the gather project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "gather-c/Gather.h"

#include "gather/ABI/DestinationEntries.h"
#include "gather/Compat/Passes.h"
#include "gather/Dialect/Gather/IR/GatherDialect.h"
#include "gather/Runner/Jit.h"
#include "gather/Runtime/GatherGpuRuntime.h"
#include "gather/Runtime/GatherRuntime.h"
#include "gather/Target/CpuTarget.h"

#include "mlir/CAPI/Registration.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/MLIRContext.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/raw_ostream.h"

#include <atomic>
#include <cstdlib>
#include <cstring>
#include <map>
#include <mutex>
#include <optional>
#include <set>
#include <shared_mutex>
#include <string>
#include <unordered_map>
#include <vector>

using namespace mlir;

MLIR_DEFINE_CAPI_DIALECT_REGISTRATION(Gather, gather,
                                      mlir::gather::GatherDialect)

namespace {
struct TensorInfo {
  std::string elementType;
  int64_t elementSize = 0;
  std::vector<int64_t> shape; // -1: dynamic
};
} // namespace

namespace {
/// A public function's signature, or why it cannot be called.
struct Signature {
  std::vector<TensorInfo> inputs, results;
  std::string unsupported;
};
} // namespace

struct GatherProgram {
  MLIRContext context;
  OwningOpRef<ModuleOp> module;
  std::unique_ptr<gather::JitProgram> engine;
  bool onGpu = false;
  /// The threads of the program's OpenMP loops (0: libomp's default).
  int threads = 0;
  /// Every public function of the module, for gatherProgramSelect.
  std::map<std::string, Signature> signatures;
  /// The selected function's element of `signatures` (which does not change
  /// after the program is made).
  std::atomic<const std::pair<const std::string, Signature> *> selected{
      nullptr};
  const std::string &entry() const { return selected.load()->first; }
  const Signature &signature() const { return selected.load()->second; }
  /// Entries looked up so far (a lookup costs as much as a small gather),
  /// by the runs of any thread.
  std::map<std::string, gather::PackedEntry> functions;
  std::mutex functionsMutex;
  /// Runs share it; gatherProgramSelect, which changes the entry and its
  /// signature, waits for them.
  std::shared_mutex selection;
  /// The public functions with a compiled `__into` entry, and those of
  /// them whose buffers' sizes come from a `__shape` entry.
  std::set<std::string> intoEntries, shapeEntries;

  explicit GatherProgram(const DialectRegistry &registry) : context(registry) {}
};

namespace {
/// Result buffers handed to the caller: the data pointer the caller got
/// (aligned, past the descriptor's offset) and the pointer to free.
std::mutex handedOverMutex;
std::unordered_map<void *, void *> handedOver;
} // namespace

static void handOver(void *data, void *allocated) {
  std::lock_guard<std::mutex> lock(handedOverMutex);
  handedOver[data] = allocated;
}

/// The pointer to free for `pointer` from gatherProgramRun or malloc.
static void *takeOver(void *pointer) {
  std::lock_guard<std::mutex> lock(handedOverMutex);
  auto it = handedOver.find(pointer);
  if (it == handedOver.end())
    return pointer;
  void *allocated = it->second;
  handedOver.erase(it);
  return allocated;
}

static void setError(char *error, size_t size, const std::string &text) {
  if (!error || size == 0)
    return;
  std::strncpy(error, text.c_str(), size - 1);
  error[size - 1] = '\0';
}

/// Bytes per element as compiled code stores it (i1 takes a byte).
static int64_t elementSize(Type type) {
  if (type.isF16() || type.isBF16() || type.isInteger(16))
    return 2;
  if (type.isF32() || type.isInteger(32))
    return 4;
  if (type.isF64() || type.isInteger(64))
    return 8;
  if (type.isInteger(1) || type.isInteger(8))
    return 1;
  return 0;
}

static bool describe(Type type, TensorInfo &info, std::string &why) {
  auto ranked = dyn_cast<RankedTensorType>(type);
  std::string text;
  llvm::raw_string_ostream os(text);
  type.print(os);
  if (!ranked) {
    why = "type " + text + " is not a ranked tensor";
    return false;
  }
  info.elementSize = elementSize(ranked.getElementType());
  if (!info.elementSize || ranked.getElementType().isBF16()) {
    why = "element type of " + text +
          " is not supported (f16, f32, f64, "
          "i1, i8, i16, i32, i64)";
    return false;
  }
  std::string element;
  llvm::raw_string_ostream es(element);
  ranked.getElementType().print(es);
  info.elementType = element;
  for (int64_t d : ranked.getShape())
    info.shape.push_back(ShapedType::isDynamic(d) ? -1 : d);
  return true;
}

/// The signature of `function` in the terms of the C API.
static Signature signatureOf(func::FuncOp function) {
  Signature signature;
  std::string why;
  for (Type type : function.getFunctionType().getInputs()) {
    signature.inputs.emplace_back();
    if (!describe(type, signature.inputs.back(), why)) {
      signature.unsupported = "argument " +
                              std::to_string(signature.inputs.size() - 1) +
                              ": " + why;
      return signature;
    }
  }
  for (Type type : function.getFunctionType().getResults()) {
    signature.results.emplace_back();
    if (!describe(type, signature.results.back(), why)) {
      signature.unsupported =
          "result " + std::to_string(signature.results.size() - 1) + ": " + why;
      return signature;
    }
  }
  return signature;
}

extern "C" GatherProgram *gatherProgramCreate(const char *mlirText,
                                              const char *entry,
                                              const char *device, int threads,
                                              char *error, size_t errorSize) {
  return gatherProgramCreateWithOptLevel(mlirText, entry, device, threads, 3,
                                         error, errorSize);
}

extern "C" GatherProgram *
gatherProgramCreateWithOptLevel(const char *mlirText, const char *entry,
                                const char *device, int threads, int optLevel,
                                char *error, size_t errorSize) {
  return gatherProgramCreateWithFlags(mlirText, entry, device, threads,
                                      optLevel, 0, error, errorSize);
}

extern "C" GatherProgram *
gatherProgramCreateWithFlags(const char *mlirText, const char *entry,
                             const char *device, int threads, int optLevel,
                             unsigned flags, char *error, size_t errorSize) {
  return gatherProgramCreateForTarget(mlirText, entry, device, threads,
                                      optLevel, flags, nullptr, error,
                                      errorSize);
}

extern "C" GatherProgram *
gatherProgramCreateForTarget(const char *mlirText, const char *entry,
                             const char *device, int threads, int optLevel,
                             unsigned flags, const char *targetCpu, char *error,
                             size_t errorSize) {
  GatherProgramOptions options;
  gatherProgramOptionsInit(&options);
  options.device = device;
  options.threads = threads;
  options.optLevel = optLevel;
  options.flags = flags;
  options.targetCpu = targetCpu;
  return gatherProgramCreateWithOptions(mlirText, entry, &options, error,
                                        errorSize);
}

extern "C" void gatherProgramOptionsInit(GatherProgramOptions *options) {
  if (!options)
    return;
  *options = GatherProgramOptions{};
  options->structSize = sizeof(GatherProgramOptions);
  options->device = "cpu";
  options->optLevel = 3;
}

/// The caller's options, the fields past its `structSize` (from an older
/// header) at their defaults; nullopt with `why` for a size this library
/// cannot read.
static std::optional<GatherProgramOptions>
readOptions(const GatherProgramOptions *given, std::string &why) {
  GatherProgramOptions options;
  gatherProgramOptionsInit(&options);
  if (!given)
    return options;
  if (given->structSize < sizeof(size_t) ||
      given->structSize > sizeof(GatherProgramOptions)) {
    why = "options: structSize " + std::to_string(given->structSize) +
          " is out of range [" + std::to_string(sizeof(size_t)) + ", " +
          std::to_string(sizeof(GatherProgramOptions)) +
          "]: fill the options with gatherProgramOptionsInit";
    return std::nullopt;
  }
  std::memcpy(&options, given, given->structSize);
  options.structSize = sizeof(GatherProgramOptions);
  if (options.compileThreads < 0) {
    why = "options: compileThreads " + std::to_string(options.compileThreads) +
          " is negative";
    return std::nullopt;
  }
  return options;
}

extern "C" GatherProgram *
gatherProgramCreateWithOptions(const char *mlirText, const char *entry,
                               const GatherProgramOptions *givenOptions,
                               char *error, size_t errorSize) {
  std::string optionsError;
  std::optional<GatherProgramOptions> read =
      readOptions(givenOptions, optionsError);
  if (!read) {
    setError(error, errorSize, optionsError);
    return nullptr;
  }
  const char *device = read->device;
  const int threads = read->threads;
  const unsigned flags = read->flags;
  const char *targetCpu = read->targetCpu;
  std::string deviceName = device ? device : "cpu";
  if (deviceName != "cpu" && deviceName != "gpu") {
    setError(error, errorSize,
             "unknown device '" + deviceName + "' (cpu or gpu)");
    return nullptr;
  }
  if (deviceName == "gpu") {
    char message[512];
    if (gather_gpu_init(message, sizeof(message))) {
      setError(error, errorSize, std::string("device gpu: ") + message);
      return nullptr;
    }
  }
  DialectRegistry registry;
  gather::registerJitDialectsAndPasses(registry);
  auto program = std::make_unique<GatherProgram>(registry);
  program->onGpu = deviceName == "gpu";
  MLIRContext &context = program->context;
  // Diagnostics become the error text, one line each, with locations.
  std::string diagnostics;
  ScopedDiagnosticHandler handler(&context, [&](Diagnostic &diag) {
    llvm::raw_string_ostream os(diagnostics);
    if (!diagnostics.empty())
      os << "\n";
    if (auto fileLoc = dyn_cast<FileLineColLoc>(diag.getLocation()))
      os << fileLoc.getFilename().strref() << ":" << fileLoc.getLine() << ":"
         << fileLoc.getColumn() << ": ";
    else
      os << diag.getLocation() << ": ";
    os << (diag.getSeverity() == DiagnosticSeverity::Error ? "error: " : "")
       << diag.str();
    return success();
  });
  auto fail = [&](const std::string &what) -> GatherProgram * {
    std::string text = what;
    if (!diagnostics.empty())
      text += "\n" + diagnostics;
    setError(error, errorSize, text);
    return nullptr;
  };
  llvm::SourceMgr sourceMgr;
  sourceMgr.AddNewSourceBuffer(llvm::MemoryBuffer::getMemBufferCopy(
                                   mlirText ? mlirText : "", "<gather module>"),
                               llvm::SMLoc());
  program->module = gather::parseInputModule(sourceMgr, &context);
  if (!program->module)
    return fail("the module does not parse or verify");
  std::string entryError;
  func::FuncOp function = gather::findEntryFunction(
      *program->module, entry ? entry : "", entryError);
  if (!function)
    return fail(entryError + (entry && *entry ? "" : ": name it"));
  for (auto candidate : program->module->getOps<func::FuncOp>())
    if (candidate.isPublic() && !candidate.isExternal())
      program->signatures[candidate.getName().str()] = signatureOf(candidate);
  std::string name = function.getName().str();
  program->signatures[name]; // (an empty signature where it is not public)
  program->selected = &*program->signatures.find(name);
  if (!program->signature().unsupported.empty())
    return fail(program->signature().unsupported);
  // Set for each call (gather::ScopedOmpThreads), not as OMP_NUM_THREADS:
  // libomp reads that once, and a second program's count would be ignored.
  program->threads = std::max(threads, 0);
  gather::JitOptions options;
  options.device = deviceName;
  options.optLevel = read->optLevel;
  options.compileThreads = static_cast<unsigned>(read->compileThreads);
  options.verifyEach = read->verifyEach != 0;
  options.destinationEntries =
      (flags & GATHER_PROGRAM_DESTINATION_ENTRIES) && !program->onGpu;
  options.raiseLinalg = !(flags & GATHER_PROGRAM_NO_RAISE);
  options.fuseConsumers = !(flags & GATHER_PROGRAM_NO_FUSION);
  if (targetCpu && *targetCpu)
    options.targetCpu = targetCpu;
  std::string jitError;
  program->engine = gather::compileForJit(*program->module, program->entry(),
                                          options, jitError);
  if (!program->engine)
    return fail(jitError);
  if (options.destinationEntries) {
    // The entries compiled for the functions the C API can call.
    auto record = [&](StringRef name, std::set<std::string> &entries) {
      auto it = program->signatures.find(name.str());
      if (it != program->signatures.end() && it->second.unsupported.empty())
        entries.insert(name.str());
    };
    for (auto function : program->module->getOps<LLVM::LLVMFuncOp>()) {
      StringRef name = function.getName();
      if (name.consume_back(gather::kIntoEntrySuffix))
        record(name, program->intoEntries);
      else if (name.consume_back(gather::kShapeEntrySuffix))
        record(name, program->shapeEntries);
    }
  }
  // Run-time errors are returned, not printed with exit(1).
  gather_runtime_set_record_errors(1);
  return program.release();
}

/// The function `name` and its signature if the C API can run it, else
/// null with `error` set.
static const std::pair<const std::string, Signature> *
runnable(const GatherProgram *program, const char *name, char *error,
         size_t errorSize) {
  auto it = program->signatures.find(name ? name : "");
  if (it == program->signatures.end()) {
    setError(error, errorSize,
             std::string("no public function '") + (name ? name : "") +
                 "' in the program's module");
    return nullptr;
  }
  if (!it->second.unsupported.empty()) {
    setError(error, errorSize, "@" + it->first + ": " + it->second.unsupported);
    return nullptr;
  }
  return &*it;
}

extern "C" int gatherProgramSelect(GatherProgram *program, const char *entry,
                                   char *error, size_t errorSize) {
  const auto *function = runnable(program, entry, error, errorSize);
  if (!function)
    return 1;
  std::unique_lock<std::shared_mutex> lock(program->selection);
  program->selected = function;
  return 0;
}

extern "C" const char *gatherProgramSelectedEntry(GatherProgram *program) {
  std::shared_lock<std::shared_mutex> selected(program->selection);
  return program->entry().c_str();
}

extern "C" void gatherProgramDestroy(GatherProgram *program) { delete program; }

extern "C" int gatherHostVectorBits(void) {
  return static_cast<int>(mlir::gather::hostVectorBits());
}

extern "C" int gatherTargetDescription(const char *targetCpu, char *description,
                                       size_t size) {
  std::string error;
  FailureOr<gather::CpuTarget> target = gather::cpuTargetForName(
      targetCpu && *targetCpu ? targetCpu : "native", error, /*onHost=*/true);
  if (failed(target)) {
    setError(description, size, error);
    return 1;
  }
  setError(description, size, target->describe());
  return 0;
}

extern "C" int gatherProgramNumInputs(const GatherProgram *program) {
  return static_cast<int>(program->signature().inputs.size());
}
extern "C" int gatherProgramNumResults(const GatherProgram *program) {
  return static_cast<int>(program->signature().results.size());
}
extern "C" const char *gatherProgramInputElementType(const GatherProgram *p,
                                                     int i) {
  return p->signature().inputs[i].elementType.c_str();
}
extern "C" int64_t gatherProgramInputRank(const GatherProgram *p, int i) {
  return static_cast<int64_t>(p->signature().inputs[i].shape.size());
}
extern "C" int64_t gatherProgramInputDim(const GatherProgram *p, int i,
                                         int64_t d) {
  return p->signature().inputs[i].shape[d];
}
extern "C" const char *gatherProgramResultElementType(const GatherProgram *p,
                                                      int i) {
  return p->signature().results[i].elementType.c_str();
}
extern "C" int64_t gatherProgramResultRank(const GatherProgram *p, int i) {
  return static_cast<int64_t>(p->signature().results[i].shape.size());
}

namespace {
/// The arguments of one call in the form JitCall takes them.
struct CallArguments {
  std::vector<void *> data;
  std::vector<SmallVector<int64_t>> shapes;
  std::vector<int64_t> elementSizes;
};
} // namespace

/// The caller's inputs, checked against the signature's static sizes.
static bool collectInputs(const Signature &signature, void *const *inputs,
                          const int64_t *const *inputShapes,
                          CallArguments &args, char *error, size_t errorSize) {
  for (size_t i = 0; i < signature.inputs.size(); ++i) {
    const TensorInfo &info = signature.inputs[i];
    SmallVector<int64_t> shape(inputShapes[i],
                               inputShapes[i] + info.shape.size());
    for (size_t d = 0; d < shape.size(); ++d)
      if (shape[d] < 0 || (info.shape[d] >= 0 && info.shape[d] != shape[d])) {
        setError(error, errorSize,
                 "input " + std::to_string(i) + ": dimension " +
                     std::to_string(d) + " is " + std::to_string(shape[d]) +
                     " but the function requires " +
                     std::to_string(info.shape[d]));
        return false;
      }
    args.data.push_back(inputs[i]);
    args.shapes.push_back(shape);
    args.elementSizes.push_back(info.elementSize);
  }
  return true;
}

/// The compiled function `name`, looked up once.
static gather::PackedEntry entryFunction(GatherProgram *program,
                                         const std::string &name, char *error,
                                         size_t errorSize) {
  std::lock_guard<std::mutex> lock(program->functionsMutex);
  gather::PackedEntry &function = program->functions[name];
  if (!function) {
    llvm::Expected<gather::PackedEntry> found =
        gather::lookupEntry(*program->engine, name);
    if (!found) {
      program->functions.erase(name);
      setError(error, errorSize,
               "cannot run @" + name + ": " +
                   llvm::toString(found.takeError()));
      return nullptr;
    }
    function = *found;
  }
  return function;
}

/// Whether the compiled code reported a run-time error (then in `error`).
static bool takeRuntimeError(char *error, size_t errorSize) {
  char runtimeError[1024];
  if (!gather_runtime_take_error(runtimeError, sizeof(runtimeError)))
    return false;
  setError(error, errorSize, runtimeError);
  return true;
}

/// Runs the function `name` of `signature` on `args`; its result buffers
/// live as long as the returned call. Null with `error` set on a failure.
static std::unique_ptr<gather::JitCall>
runFunction(GatherProgram *program, const std::string &name,
            const Signature &signature, const CallArguments &args, char *error,
            size_t errorSize) {
  std::vector<int64_t> resultRanks;
  for (const TensorInfo &info : signature.results)
    resultRanks.push_back(info.shape.size());
  gather::PackedEntry function = entryFunction(program, name, error, errorSize);
  if (!function)
    return nullptr;
  auto call = std::make_unique<gather::JitCall>(
      args.data, args.shapes, args.elementSizes, resultRanks, program->onGpu);
  call->invoke(function);
  if (takeRuntimeError(error, errorSize))
    return nullptr;
  return call;
}

/// gatherProgramRun of the function `name` of `signature`.
static int run(GatherProgram *program, const std::string &name,
               const Signature &signature, void *const *inputs,
               const int64_t *const *inputShapes, void **resultData,
               int64_t **resultShapes, char *error, size_t errorSize) {
  CallArguments args;
  if (!collectInputs(signature, inputs, inputShapes, args, error, errorSize))
    return 1;
  gather::ScopedOmpThreads threads(program->threads);
  std::unique_ptr<gather::JitCall> call =
      runFunction(program, name, signature, args, error, errorSize);
  if (!call)
    return 1;
  // Results: a host buffer of the compiled code's own, row-major
  // contiguous, is handed over as it is (an output of 100 MB costs no copy
  // and no fresh pages); any other is copied into a contiguous host buffer
  // (the compiled buffers are freed with the call).
  for (size_t r = 0; r < signature.results.size(); ++r) {
    const TensorInfo &info = signature.results[r];
    const int64_t *desc = call->result(r);
    int64_t rank = info.shape.size();
    int64_t count = 1;
    resultShapes[r] =
        static_cast<int64_t *>(std::malloc(sizeof(int64_t) * (rank + 1)));
    for (int64_t d = 0; d < rank; ++d) {
      resultShapes[r][d] = desc[3 + d];
      count *= desc[3 + d];
    }
    if (call->isOwnContiguousHostResult(r)) {
      char *data =
          reinterpret_cast<char *>(desc[1]) + desc[2] * info.elementSize;
      handOver(data, reinterpret_cast<void *>(desc[0]));
      call->releaseResult(r);
      resultData[r] = data;
      continue;
    }
    resultData[r] = std::malloc(std::max<int64_t>(count, 1) * info.elementSize);
    gather::copyResultToHost(desc, rank, info.elementSize, program->onGpu,
                             static_cast<char *>(resultData[r]));
  }
  return 0;
}

extern "C" int gatherProgramRun(GatherProgram *program, void *const *inputs,
                                const int64_t *const *inputShapes,
                                void **resultData, int64_t **resultShapes,
                                char *error, size_t errorSize) {
  std::shared_lock<std::shared_mutex> selected(program->selection);
  return run(program, program->entry(), program->signature(), inputs,
             inputShapes, resultData, resultShapes, error, errorSize);
}

extern "C" int gatherProgramRunEntry(GatherProgram *program, const char *entry,
                                     void *const *inputs,
                                     const int64_t *const *inputShapes,
                                     void **resultData, int64_t **resultShapes,
                                     char *error, size_t errorSize) {
  const auto *function = runnable(program, entry, error, errorSize);
  return function ? run(program, function->first, function->second, inputs,
                        inputShapes, resultData, resultShapes, error, errorSize)
                  : 1;
}

extern "C" void gatherFree(void *pointer) { std::free(takeOver(pointer)); }

extern "C" int gatherProgramWritesInPlace(const GatherProgram *program) {
  return program->intoEntries.count(program->entry()) ? 1 : 0;
}

/// The elements of a row-major contiguous array of `shape`.
static int64_t elementCount(ArrayRef<int64_t> shape) {
  int64_t count = 1;
  for (int64_t size : shape)
    count *= size;
  return count;
}

/// Whether any two of the non-empty byte ranges overlap.
static bool anyOverlap(std::vector<std::pair<uintptr_t, uintptr_t>> ranges) {
  llvm::erase_if(ranges,
                 [](auto range) { return range.first == range.second; });
  llvm::sort(ranges);
  for (size_t i = 1; i < ranges.size(); ++i)
    if (ranges[i].first < ranges[i - 1].second)
      return true;
  return false;
}

static std::string sizeMismatch(size_t r, size_t d, int64_t got, int64_t want) {
  return "output " + std::to_string(r) + ": dimension " + std::to_string(d) +
         " is " + std::to_string(got) + " but the result's is " +
         std::to_string(want);
}

/// gatherProgramRunInto of the function `name` of `signature`.
static int runInto(GatherProgram *program, const std::string &name,
                   const Signature &signature, void *const *inputs,
                   const int64_t *const *inputShapes, void *const *outputs,
                   const int64_t *const *outputShapes, char *error,
                   size_t errorSize) {
  CallArguments args;
  if (!collectInputs(signature, inputs, inputShapes, args, error, errorSize))
    return 1;
  gather::ScopedOmpThreads threads(program->threads);
  std::vector<SmallVector<int64_t>> outShapes;
  for (size_t r = 0; r < signature.results.size(); ++r) {
    const TensorInfo &info = signature.results[r];
    outShapes.emplace_back(outputShapes[r],
                           outputShapes[r] + info.shape.size());
    for (size_t d = 0; d < info.shape.size(); ++d)
      if (outShapes[r][d] < 0 ||
          (info.shape[d] >= 0 && info.shape[d] != outShapes[r][d])) {
        setError(error, errorSize,
                 sizeMismatch(r, d, outShapes[r][d], info.shape[d]));
        return 1;
      }
  }
  // In place only where the buffers are apart: the entry's buffers are
  // `restrict`, and a result written early would change an input.
  std::vector<std::pair<uintptr_t, uintptr_t>> ranges;
  auto addRange = [&](void *data, ArrayRef<int64_t> shape, int64_t size) {
    auto start = reinterpret_cast<uintptr_t>(data);
    ranges.emplace_back(start, start + elementCount(shape) * size);
  };
  for (size_t i = 0; i < args.data.size(); ++i)
    addRange(args.data[i], args.shapes[i], args.elementSizes[i]);
  for (size_t r = 0; r < outShapes.size(); ++r)
    addRange(outputs[r], outShapes[r], signature.results[r].elementSize);
  bool inPlace = program->intoEntries.count(name) && !anyOverlap(ranges);

  if (inPlace) {
    if (program->shapeEntries.count(name)) {
      // The dynamic sizes of the results, in order, before anything runs.
      std::string shapeName = name + gather::kShapeEntrySuffix.str();
      gather::PackedEntry shapeFunction =
          entryFunction(program, shapeName, error, errorSize);
      if (!shapeFunction)
        return 1;
      std::vector<int64_t> shapeRank = {1};
      gather::JitCall shapeCall(args.data, args.shapes, args.elementSizes,
                                shapeRank, /*onDevice=*/false);
      shapeCall.invoke(shapeFunction);
      if (takeRuntimeError(error, errorSize))
        return 1;
      const int64_t *desc = shapeCall.result(0);
      const int64_t *sizes =
          reinterpret_cast<const int64_t *>(desc[1]) + desc[2];
      int64_t next = 0;
      for (size_t r = 0; r < outShapes.size(); ++r)
        for (size_t d = 0; d < outShapes[r].size(); ++d) {
          if (signature.results[r].shape[d] >= 0)
            continue;
          int64_t want = sizes[next++];
          if (outShapes[r][d] != want) {
            setError(error, errorSize,
                     sizeMismatch(r, d, outShapes[r][d], want));
            return 1;
          }
        }
    }
    std::string intoName = name + gather::kIntoEntrySuffix.str();
    gather::PackedEntry intoFunction =
        entryFunction(program, intoName, error, errorSize);
    if (!intoFunction)
      return 1;
    for (size_t r = 0; r < outShapes.size(); ++r) {
      args.data.push_back(outputs[r]);
      args.shapes.push_back(outShapes[r]);
      args.elementSizes.push_back(signature.results[r].elementSize);
    }
    gather::JitCall call(args.data, args.shapes, args.elementSizes,
                         ArrayRef<int64_t>(), /*onDevice=*/false);
    call.invoke(intoFunction);
    return takeRuntimeError(error, errorSize) ? 1 : 0;
  }

  // Computed into buffers of the compiled code's own, then copied: the
  // outputs are written only once every result is known to fit.
  std::unique_ptr<gather::JitCall> call =
      runFunction(program, name, signature, args, error, errorSize);
  if (!call)
    return 1;
  for (size_t r = 0; r < outShapes.size(); ++r)
    for (size_t d = 0; d < outShapes[r].size(); ++d)
      if (call->result(r)[3 + d] != outShapes[r][d]) {
        setError(error, errorSize,
                 sizeMismatch(r, d, outShapes[r][d], call->result(r)[3 + d]));
        return 1;
      }
  for (size_t r = 0; r < outShapes.size(); ++r)
    gather::copyResultToHost(call->result(r), outShapes[r].size(),
                             signature.results[r].elementSize, program->onGpu,
                             static_cast<char *>(outputs[r]));
  return 0;
}

extern "C" int gatherProgramRunInto(GatherProgram *program, void *const *inputs,
                                    const int64_t *const *inputShapes,
                                    void *const *outputs,
                                    const int64_t *const *outputShapes,
                                    char *error, size_t errorSize) {
  std::shared_lock<std::shared_mutex> selected(program->selection);
  return runInto(program, program->entry(), program->signature(), inputs,
                 inputShapes, outputs, outputShapes, error, errorSize);
}

extern "C" int gatherProgramRunIntoEntry(GatherProgram *program,
                                         const char *entry, void *const *inputs,
                                         const int64_t *const *inputShapes,
                                         void *const *outputs,
                                         const int64_t *const *outputShapes,
                                         char *error, size_t errorSize) {
  const auto *function = runnable(program, entry, error, errorSize);
  return function
             ? runInto(program, function->first, function->second, inputs,
                       inputShapes, outputs, outputShapes, error, errorSize)
             : 1;
}
