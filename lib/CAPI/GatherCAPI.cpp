//===- GatherCAPI.cpp - C API of the gather project -----------------------===//

#include "gather-c/Gather.h"

#include "gather/Dialect/Gather/IR/GatherDialect.h"
#include "gather/Runner/Jit.h"
#include "gather/Runtime/GatherGpuRuntime.h"
#include "gather/Runtime/GatherRuntime.h"

#include "mlir/CAPI/Registration.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/Parser/Parser.h"
#include "llvm/Support/raw_ostream.h"

#include <cstdlib>
#include <cstring>
#include <string>
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

struct GatherProgram {
  MLIRContext context;
  OwningOpRef<ModuleOp> module;
  std::unique_ptr<ExecutionEngine> engine;
  std::string entry;
  bool onGpu = false;
  std::vector<TensorInfo> inputs, results;

  explicit GatherProgram(const DialectRegistry &registry)
      : context(registry) {}
};

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
    why = "element type of " + text + " is not supported (f16, f32, f64, "
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

extern "C" GatherProgram *gatherProgramCreate(const char *mlirText,
                                              const char *entry,
                                              const char *device, int threads,
                                              char *error, size_t errorSize) {
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
    os
       << (diag.getSeverity() == DiagnosticSeverity::Error ? "error: " : "")
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
  program->module = parseSourceString<ModuleOp>(
      mlirText ? mlirText : "", &context, /*sourceName=*/"<gather module>");
  if (!program->module)
    return fail("the module does not parse or verify");
  // The entry: as named, else the only public function, else main.
  func::FuncOp function;
  if (entry && *entry) {
    function = program->module->lookupSymbol<func::FuncOp>(entry);
    if (!function)
      return fail(std::string("no function '") + entry + "'");
  } else {
    int publicCount = 0;
    for (auto f : program->module->getOps<func::FuncOp>())
      if (f.isPublic() && !f.isExternal()) {
        function = f;
        ++publicCount;
      }
    if (publicCount != 1)
      function = program->module->lookupSymbol<func::FuncOp>("main");
    if (!function)
      return fail("cannot choose the function to run: name it");
  }
  program->entry = function.getName().str();
  std::string why;
  for (Type type : function.getFunctionType().getInputs()) {
    program->inputs.emplace_back();
    if (!describe(type, program->inputs.back(), why))
      return fail("argument " + std::to_string(program->inputs.size() - 1) +
                  ": " + why);
  }
  for (Type type : function.getFunctionType().getResults()) {
    program->results.emplace_back();
    if (!describe(type, program->results.back(), why))
      return fail("result " + std::to_string(program->results.size() - 1) +
                  ": " + why);
  }
  if (threads > 0)
    setenv("OMP_NUM_THREADS", std::to_string(threads).c_str(), 1);
  gather::JitOptions options;
  options.device = deviceName;
  std::string jitError;
  program->engine = gather::compileForJit(*program->module, program->entry,
                                          options, jitError);
  if (!program->engine)
    return fail(jitError);
  // Run-time errors are returned, not printed with exit(1).
  gather_runtime_set_record_errors(1);
  return program.release();
}

extern "C" void gatherProgramDestroy(GatherProgram *program) {
  delete program;
}

extern "C" int gatherProgramNumInputs(const GatherProgram *program) {
  return static_cast<int>(program->inputs.size());
}
extern "C" int gatherProgramNumResults(const GatherProgram *program) {
  return static_cast<int>(program->results.size());
}
extern "C" const char *gatherProgramInputElementType(const GatherProgram *p,
                                                     int i) {
  return p->inputs[i].elementType.c_str();
}
extern "C" int64_t gatherProgramInputRank(const GatherProgram *p, int i) {
  return static_cast<int64_t>(p->inputs[i].shape.size());
}
extern "C" int64_t gatherProgramInputDim(const GatherProgram *p, int i,
                                         int64_t d) {
  return p->inputs[i].shape[d];
}
extern "C" const char *gatherProgramResultElementType(const GatherProgram *p,
                                                      int i) {
  return p->results[i].elementType.c_str();
}
extern "C" int64_t gatherProgramResultRank(const GatherProgram *p, int i) {
  return static_cast<int64_t>(p->results[i].shape.size());
}

extern "C" int gatherProgramRun(GatherProgram *program, void *const *inputs,
                                const int64_t *const *inputShapes,
                                void **resultData, int64_t **resultShapes,
                                char *error, size_t errorSize) {
  static int64_t emptyStorage = 0;
  // Inputs: static sizes must match; on the GPU they are copied over.
  std::vector<std::vector<int64_t>> descs;
  std::vector<void *> deviceBuffers;
  auto releaseInputs = [&]() {
    for (void *buffer : deviceBuffers)
      gather_gpu_free(buffer);
  };
  for (size_t i = 0; i < program->inputs.size(); ++i) {
    const TensorInfo &info = program->inputs[i];
    std::vector<int64_t> shape(inputShapes[i],
                               inputShapes[i] + info.shape.size());
    int64_t count = 1;
    for (size_t d = 0; d < shape.size(); ++d) {
      if (shape[d] < 0 || (info.shape[d] >= 0 && info.shape[d] != shape[d])) {
        releaseInputs();
        setError(error, errorSize,
                 "input " + std::to_string(i) + ": dimension " +
                     std::to_string(d) + " is " + std::to_string(shape[d]) +
                     " but the function requires " +
                     std::to_string(info.shape[d]));
        return 1;
      }
      count *= shape[d];
    }
    void *data = inputs[i] ? inputs[i] : &emptyStorage;
    if (program->onGpu) {
      size_t bytes = count * info.elementSize;
      void *device = gather_gpu_alloc(bytes > 0 ? bytes : 8);
      gather_gpu_copy(device, data, bytes);
      deviceBuffers.push_back(device);
      data = device;
    }
    descs.push_back(gather::makeContiguousDescriptor(data, shape));
  }
  std::vector<size_t> offsets;
  size_t words = 0;
  for (const TensorInfo &info : program->results) {
    offsets.push_back(words);
    words += gather::descriptorWords(info.shape.size());
  }
  std::vector<int64_t> resultStorage(std::max<size_t>(words, 1));
  void *resultPtr = resultStorage.data();
  std::vector<void *> argPtrs;
  for (auto &desc : descs)
    argPtrs.push_back(desc.data());
  SmallVector<void *> packed;
  if (!program->results.empty())
    packed.push_back(&resultPtr);
  for (void *&ptr : argPtrs)
    packed.push_back(&ptr);
  if (llvm::Error invokeError =
          program->engine->invokePacked("_mlir_ciface_" + program->entry,
                                        packed)) {
    std::string text;
    llvm::raw_string_ostream os(text);
    os << invokeError;
    releaseInputs();
    setError(error, errorSize, "cannot run @" + program->entry + ": " + text);
    return 1;
  }
  char runtimeError[1024];
  bool failed = gather_runtime_take_error(runtimeError, sizeof(runtimeError));
  // Results: copied into contiguous host buffers; the compiled buffers are
  // freed unless they alias an input or an earlier result.
  for (size_t r = 0; r < program->results.size(); ++r) {
    const TensorInfo &info = program->results[r];
    const int64_t *desc = resultStorage.data() + offsets[r];
    int64_t rank = info.shape.size();
    if (!failed) {
      int64_t count = 1;
      resultShapes[r] =
          static_cast<int64_t *>(std::malloc(sizeof(int64_t) * (rank + 1)));
      for (int64_t d = 0; d < rank; ++d) {
        resultShapes[r][d] = desc[3 + d];
        count *= desc[3 + d];
      }
      resultData[r] = std::malloc(std::max<int64_t>(count, 1) *
                                  info.elementSize);
      gather::copyResultToHost(desc, rank, info.elementSize, program->onGpu,
                               static_cast<char *>(resultData[r]));
    }
    void *allocated = reinterpret_cast<void *>(desc[0]);
    bool shared = false;
    for (auto &in : descs)
      shared |= reinterpret_cast<void *>(in[0]) == allocated;
    for (size_t q = 0; q < r; ++q)
      shared |= resultStorage[offsets[q]] == desc[0];
    if (allocated && !shared) {
      if (program->onGpu)
        gather_gpu_free(allocated);
      else
        std::free(allocated);
    }
  }
  releaseInputs();
  if (failed) {
    setError(error, errorSize, runtimeError);
    return 1;
  }
  return 0;
}

extern "C" void gatherFree(void *pointer) { std::free(pointer); }
