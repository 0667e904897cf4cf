//===- gather-run.cpp - compile and JIT-run gather functions on .npy ------===//
//
// Part of the gather project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//   gather-run FILE.mlir [--entry NAME] --input a.npy ... --output out.npy ...
//              [--threads N] [--bench N] [--reference] [--no-fusion]
//              [--no-raise] [--pipeline TEXT] [--vector-bits N]
//              [--device cpu|gpu] [--compile-threads N] [--compile-times]
//              [--verify-each]
//
// Compiles the function with --gather-cpu-pipeline (or, with --device gpu,
// --gather-gpu-pipeline for the GPU found at run time), JIT-compiles it
// (lib/Runner/Jit.cpp: ORC's LLJIT, large modules on several threads), runs
// it on numpy arrays and writes the results as .npy. Any
// bad input gets a one-line error and exit status 1.
//
//===----------------------------------------------------------------------===//

#include "Npy.h"
#include "gather/ABI/DestinationEntries.h"
#include "gather/Compat/Passes.h"
#include "gather/Target/CpuTarget.h"

#include "gather/Conversion/Passes.h"
#include "gather/Dialect/Gather/IR/GatherDialect.h"
#include "gather/Dialect/Gather/Transforms/Passes.h"
#include "gather/Runner/Jit.h"
#include "gather/Runtime/GatherGpuRuntime.h"
#include "gather/Runtime/GatherRuntime.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/InitAllDialects.h"
#include "mlir/InitAllExtensions.h"
#include "mlir/InitAllPasses.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Support/FileUtilities.h"
#include "mlir/Target/LLVMIR/Dialect/All.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/InitLLVM.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/TargetSelect.h"
#include "llvm/Support/raw_ostream.h"

#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <dlfcn.h>

using namespace mlir;
namespace npy = ::gather::npy;

static llvm::cl::opt<std::string> inputFile(llvm::cl::Positional,
                                            llvm::cl::desc("<file.mlir>"),
                                            llvm::cl::Optional);
static llvm::cl::opt<std::string>
    entryName("entry", llvm::cl::desc("Function to run (default: the only "
                                      "public function, or 'main')"));
static llvm::cl::list<std::string>
    inputs("input", llvm::cl::desc("An argument, in order (.npy)"));
static llvm::cl::list<std::string>
    outputs("output", llvm::cl::desc("Where to write a result (.npy)"));
// --threads N is taken out of argv before LLVM's parser runs: libLLVM
// already registers an option named "threads".
static int threads = 0;
static llvm::cl::opt<int> benchLaunches(
    "bench-launches",
    llvm::cl::desc("With --bench on the GPU: time each kernel (and the "
                   "device copy) as the mean of N launches back to back "
                   "between CUDA events, so that the launch latency hides "
                   "behind the kernels before it (default 1: one launch)"),
    llvm::cl::init(1));
static llvm::cl::opt<int>
    bench("bench",
          llvm::cl::desc("Run N times and print the median kernel "
                         "time (compilation excluded)"),
          llvm::cl::init(0));
static llvm::cl::opt<bool>
    reference("reference", llvm::cl::desc("Use the scf reference lowering"),
              llvm::cl::init(false));
static llvm::cl::opt<std::string>
    device("device",
           llvm::cl::desc("cpu (default), or gpu: the NVIDIA GPU of this "
                          "machine through the CUDA driver"),
           llvm::cl::init("cpu"));
static llvm::cl::opt<bool> noFusion(
    "no-fusion",
    llvm::cl::desc("Do not fuse elementwise consumers into the gathers' "
                   "loops (the unfused pipeline, for comparison)"),
    llvm::cl::init(false));
static llvm::cl::opt<bool> noOutline(
    "no-outline",
    llvm::cl::desc("Lower every gather where it is written, also those "
                   "written more than once (gather-outline-duplicates "
                   "off: the compile time of that many distinct gathers)"),
    llvm::cl::init(false));
static llvm::cl::opt<bool> noRaise(
    "no-raise",
    llvm::cl::desc("Do not raise gather-like linalg.generic ops into gather "
                   "ops (they then lower as upstream lowers them)"),
    llvm::cl::init(false));
static llvm::cl::opt<std::string> pipeline(
    "pipeline",
    llvm::cl::desc("A textual pass pipeline on builtin.module run instead of "
                   "--gather-cpu-pipeline (to time another lowering, such as "
                   "upstream MLIR's own, with the same runner); it must "
                   "reach the LLVM dialect"),
    llvm::cl::init(""));
static llvm::cl::opt<std::string> targetCpu(
    "target-cpu",
    llvm::cl::desc("The CPU the code is planned and generated for: native "
                   "(the host) or a CPU name LLVM knows of the host's "
                   "architecture (x86-64-v3 for AVX2, ...) whose features "
                   "the host has"),
    llvm::cl::init("native"));
static llvm::cl::opt<bool> onHost(
    "on-host",
    llvm::cl::desc("Plan for this machine: a named --target-cpu gives only "
                   "the instruction set, the caches, cores and tuning being "
                   "the host's (default); =false plans as ahead-of-time "
                   "compilation does, with the name's default caches and "
                   "tuning"),
    llvm::cl::init(true));
static llvm::cl::opt<bool> printTarget(
    "print-target",
    llvm::cl::desc("Print the target description the CPU lowering plans "
                   "with (--target-cpu, --vector-bits) and exit"),
    llvm::cl::init(false));
static llvm::cl::opt<int64_t> vectorBits(
    "vector-bits",
    llvm::cl::desc("The vector register width the CPU lowering targets "
                   "(512: AVX-512, 256: AVX2); default: the host's"),
    llvm::cl::init(0));
static llvm::cl::opt<bool> destinationEntries(
    "destination-entries",
    llvm::cl::desc("Compile with gather-destination-entries, as the C API's "
                   "programs for out= are: the function then computes its "
                   "results through its __into entry"),
    llvm::cl::init(false));
static llvm::cl::opt<unsigned> compileThreads(
    "compile-threads",
    llvm::cl::desc("Threads that run LLVM's optimization and code generation "
                   "on the partitions of a large module (default 0: one per "
                   "core; 1: the whole module on one thread)"),
    llvm::cl::init(0));
static llvm::cl::opt<bool> verifyEach(
    "verify-each",
    llvm::cl::desc("Verify the module after every pass of the pipeline (as "
                   "gather-opt does), not only its input and output, so "
                   "that a pass that breaks the IR is named"),
    llvm::cl::init(false));
static llvm::cl::opt<bool> compileTimes(
    "compile-times",
    llvm::cl::desc("Print the seconds of each compilation phase (MLIR "
                   "pipeline, translation to LLVM IR, machine code) on "
                   "stderr"),
    llvm::cl::init(false));
static llvm::cl::opt<bool>
    sequential("sequential", llvm::cl::desc("Do not parallelize with OpenMP"),
               llvm::cl::init(false));

[[noreturn]] static void fail(const llvm::Twine &message) {
  llvm::errs() << "gather-run: error: " << message << "\n";
  llvm::errs().flush();
  std::exit(1);
}

static std::string typeString(Type type) {
  std::string text;
  llvm::raw_string_ostream os(text);
  os << type;
  return text;
}

/// The dtypes an element type accepts from .npy (signless integers take
/// either signedness) and the dtype it is written as.
static bool dtypeMatches(Type elementType, npy::DType dtype) {
  using D = npy::DType;
  if (elementType.isF16())
    return dtype == D::F16;
  if (elementType.isF32())
    return dtype == D::F32;
  if (elementType.isF64())
    return dtype == D::F64;
  if (elementType.isInteger(1))
    return dtype == D::Bool;
  if (elementType.isInteger(8))
    return dtype == D::I8 || dtype == D::U8;
  if (elementType.isInteger(16))
    return dtype == D::I16 || dtype == D::U16;
  if (elementType.isInteger(32))
    return dtype == D::I32 || dtype == D::U32;
  if (elementType.isInteger(64) || elementType.isIndex())
    return dtype == D::I64 || dtype == D::U64;
  return false;
}

static std::optional<npy::DType> outputDType(Type elementType) {
  using D = npy::DType;
  if (elementType.isF16())
    return D::F16;
  if (elementType.isF32())
    return D::F32;
  if (elementType.isF64())
    return D::F64;
  if (elementType.isInteger(1))
    return D::Bool;
  if (elementType.isInteger(8))
    return D::I8;
  if (elementType.isInteger(16))
    return D::I16;
  if (elementType.isInteger(32))
    return D::I32;
  if (elementType.isInteger(64) || elementType.isIndex())
    return D::I64;
  return std::nullopt;
}

static func::FuncOp findEntry(ModuleOp module) {
  std::string error;
  func::FuncOp entry =
      mlir::gather::findEntryFunction(module, entryName, error);
  if (!entry)
    fail(error +
         (entryName.empty() ? ": use --entry NAME" : " in " + inputFile));
  return entry;
}

namespace mlir::gather::test {
void registerTestBreakIRPass();
} // namespace mlir::gather::test

int main(int argc, char **argv) {
  llvm::InitLLVM initLLVM(argc, argv);
  // For the tests of --pipeline whose output does not verify.
  mlir::gather::test::registerTestBreakIRPass();
  std::vector<char *> args;
  for (int i = 0; i < argc; ++i) {
    std::string arg = argv[i];
    std::string value;
    if (arg == "--threads" || arg == "-threads") {
      if (i + 1 >= argc)
        fail("--threads needs a value");
      value = argv[++i];
    } else if (arg.rfind("--threads=", 0) == 0) {
      value = arg.substr(10);
    } else {
      args.push_back(argv[i]);
      continue;
    }
    char *end = nullptr;
    long parsed = std::strtol(value.c_str(), &end, 10);
    if (value.empty() || *end || parsed < 1 || parsed > 4096)
      fail("--threads needs a positive integer, got '" + value + "'");
    threads = static_cast<int>(parsed);
  }
  llvm::cl::ParseCommandLineOptions(
      static_cast<int>(args.size()), args.data(),
      "gather JIT runner\n\n  --threads N  worker threads (default: "
      "OMP_NUM_THREADS, or all cores)\n");
  if (vectorBits != 0 && !mlir::gather::isValidVectorBits(vectorBits))
    fail("--vector-bits must be a positive multiple of 64 up to 4096, got " +
         llvm::Twine(vectorBits));
  if (printTarget) {
    // The description as the lowering resolves it for a module with no DLTI
    // entries.
    MLIRContext context;
    OwningOpRef<ModuleOp> module = ModuleOp::create(UnknownLoc::get(&context));
    std::string error;
    ScopedDiagnosticHandler handler(&context, [&](Diagnostic &diagnostic) {
      error = diagnostic.str();
      return success();
    });
    FailureOr<mlir::gather::CpuTarget> target =
        mlir::gather::resolveCpuTarget(*module, targetCpu, vectorBits, onHost);
    if (failed(target))
      fail(error);
    llvm::outs() << target->describe() << "\n";
    return 0;
  }
  if (inputFile.empty())
    fail("no input file (gather-run <file.mlir> ...)");

  DialectRegistry registry;
  mlir::gather::registerJitDialectsAndPasses(registry);
  MLIRContext context(registry);
  context.loadAllAvailableDialects();

  llvm::SourceMgr sourceMgr;
  {
    std::string errorMessage;
    auto file = openInputFile(inputFile, &errorMessage);
    if (!file)
      fail(errorMessage);
    sourceMgr.AddNewSourceBuffer(std::move(file), llvm::SMLoc());
  }
  SourceMgrDiagnosticHandler fileDiagHandler(sourceMgr, &context, llvm::errs());
  OwningOpRef<ModuleOp> module =
      mlir::gather::parseInputModule(sourceMgr, &context);
  if (!module)
    fail("could not parse " + inputFile);

  if (device != "cpu" && device != "gpu")
    fail("--device must be cpu or gpu, got '" + device + "'");
  bool onGpu = device == "gpu";
  if (onGpu) {
    char message[512];
    if (gather_gpu_init(message, sizeof(message)))
      fail(llvm::Twine("--device gpu: ") + message);
    if (reference || sequential || noOutline || destinationEntries ||
        !pipeline.empty())
      fail("--reference, --sequential, --no-outline, --destination-entries "
           "and --pipeline are CPU options");
  }

  func::FuncOp entry = findEntry(*module);
  FunctionType fnType = entry.getFunctionType();
  std::string name = entry.getName().str();

  // Inputs: count, dtype, rank, static sizes.
  if (inputs.size() != fnType.getNumInputs())
    fail("@" + name + " takes " + llvm::Twine(fnType.getNumInputs()) +
         " arguments, got " + llvm::Twine(inputs.size()) + " --input files");
  std::vector<npy::Array> arrays(inputs.size());
  for (auto [i, path] : llvm::enumerate(inputs)) {
    auto type = dyn_cast<RankedTensorType>(fnType.getInput(i));
    if (!type)
      fail("argument " + llvm::Twine(i) + " of @" + name + " has type " +
           typeString(fnType.getInput(i)) +
           "; only ranked tensors are supported");
    std::string error;
    if (!npy::read(path, arrays[i], error))
      fail(error);
    const npy::Array &array = arrays[i];
    if (!dtypeMatches(type.getElementType(), array.dtype))
      fail("argument " + llvm::Twine(i) + " ('" + path + "'): dtype " +
           npy::descr(array.dtype) + " does not match element type " +
           typeString(type.getElementType()));
    if (static_cast<int64_t>(array.shape.size()) != type.getRank())
      fail("argument " + llvm::Twine(i) + " ('" + path + "'): rank " +
           llvm::Twine(array.shape.size()) + " does not match " +
           typeString(type));
    for (int64_t d = 0; d < type.getRank(); ++d)
      if (!type.isDynamicDim(d) && type.getDimSize(d) != array.shape[d])
        fail("argument " + llvm::Twine(i) + " ('" + path + "'): dimension " +
             llvm::Twine(d) + " is " + llvm::Twine(array.shape[d]) + " but " +
             typeString(type) + " requires " + llvm::Twine(type.getDimSize(d)));
  }
  SmallVector<RankedTensorType> resultTypes;
  for (Type type : fnType.getResults()) {
    auto ranked = dyn_cast<RankedTensorType>(type);
    if (!ranked || !outputDType(ranked.getElementType()))
      fail("result type " + typeString(type) +
           " is not supported (ranked tensors of f16/f32/f64/i1..i64)");
    resultTypes.push_back(ranked);
  }
  if (outputs.size() > resultTypes.size())
    fail("@" + name + " has " + llvm::Twine(resultTypes.size()) +
         " results, got " + llvm::Twine(outputs.size()) + " --output files");

  // Compile.
  mlir::gather::JitOptions jitOptions;
  jitOptions.device = device;
  jitOptions.parallel = !sequential;
  jitOptions.reference = reference;
  jitOptions.fuseConsumers = !noFusion;
  jitOptions.outlineDuplicates = !noOutline;
  jitOptions.raiseLinalg = !noRaise;
  jitOptions.pipeline = pipeline;
  jitOptions.vectorBits = vectorBits;
  jitOptions.targetCpu = targetCpu;
  jitOptions.onHost = onHost;
  jitOptions.destinationEntries = destinationEntries;
  jitOptions.compileThreads = compileThreads;
  jitOptions.verifyEach = verifyEach;
  std::string jitError;
  std::unique_ptr<mlir::gather::JitProgram> program =
      mlir::gather::compileForJit(*module, name, jitOptions, jitError);
  if (!program) {
    // A failed pipeline is reported with the file it compiled.
    llvm::StringRef detail = jitError;
    if (detail.consume_front("compilation failed"))
      fail("compilation of " + inputFile + " failed" + detail);
    fail(jitError);
  }
  // After compileForJit, which loads libomp; for every call below.
  mlir::gather::ScopedOmpThreads threadsScope(threads);
  if (compileTimes) {
    const mlir::gather::JitProgram::Times &times = program->times;
    llvm::errs() << llvm::format(
        "compile: pipeline %.3f s, translation %.3f s, machine code %.3f s "
        "(%u LLVM instructions in %u module%s)\n",
        times.pipeline, times.translation, times.machineCode,
        times.instructions, times.partitions, times.partitions == 1 ? "" : "s");
  }
  gather_runtime_set_record_errors(1);

  std::vector<void *> argData;
  std::vector<SmallVector<int64_t>> argShapes;
  std::vector<int64_t> argElementSizes, resultRanks;
  for (auto &array : arrays) {
    argData.push_back(array.data.empty() ? nullptr : array.data.data());
    argShapes.emplace_back(array.shape.begin(), array.shape.end());
    argElementSizes.push_back(npy::byteSize(array.dtype));
  }
  for (RankedTensorType type : resultTypes)
    resultRanks.push_back(type.getRank());
  mlir::gather::JitCall call(argData, argShapes, argElementSizes, resultRanks,
                             onGpu);

  // Looked up once: the timed runs are the calls alone.
  llvm::Expected<mlir::gather::PackedEntry> function =
      mlir::gather::lookupEntry(*program, name);
  if (!function)
    fail("cannot run @" + name + ": " + llvm::toString(function.takeError()));
  int runs = std::max(1, static_cast<int>(bench));
  std::vector<double> times, kernelTimes;
  char errorText[1024];
  // With --destination-entries a CPU benchmark times <name>__into writing
  // into the first call's result buffers, as a caller that owns its outputs
  // (and bench/run.py's C++ loops) does: the allocating call also frees and
  // allocates its results in the timed region.
  std::unique_ptr<mlir::gather::JitCall> intoCall;
  mlir::gather::PackedEntry intoFunction = nullptr;
  if (bench > 0 && !onGpu && destinationEntries && !resultTypes.empty()) {
    call.invoke(*function);
    if (gather_runtime_take_error(errorText, sizeof(errorText)))
      fail(errorText);
    bool ownBuffers = true;
    for (size_t r = 0; r < resultTypes.size(); ++r)
      ownBuffers &= call.isOwnContiguousHostResult(r);
    llvm::Expected<mlir::gather::PackedEntry> into = mlir::gather::lookupEntry(
        *program, (name + mlir::gather::kIntoEntrySuffix).str());
    if (!into)
      llvm::consumeError(into.takeError());
    else if (ownBuffers) {
      intoFunction = *into;
      std::vector<void *> data(argData);
      std::vector<SmallVector<int64_t>> shapes(argShapes);
      std::vector<int64_t> sizes(argElementSizes);
      for (size_t r = 0; r < resultTypes.size(); ++r) {
        const int64_t *desc = call.result(r);
        int64_t rank = resultTypes[r].getRank();
        int64_t elementSize =
            npy::byteSize(*outputDType(resultTypes[r].getElementType()));
        data.push_back(reinterpret_cast<char *>(desc[1]) +
                       desc[2] * elementSize);
        shapes.emplace_back(desc + 3, desc + 3 + rank);
        sizes.push_back(elementSize);
      }
      intoCall = std::make_unique<mlir::gather::JitCall>(
          data, shapes, sizes, ArrayRef<int64_t>(), /*onDevice=*/false);
    }
  }
  for (int run = 0; run < runs; ++run) {
    auto start = std::chrono::steady_clock::now();
    if (intoCall)
      intoCall->invoke(intoFunction);
    else
      call.invoke(*function);
    auto stop = std::chrono::steady_clock::now();
    times.push_back(
        std::chrono::duration<double, std::milli>(stop - start).count());
    if (gather_runtime_take_error(errorText, sizeof(errorText)))
      fail(errorText);
  }
  // The kernels are timed in runs of their own: the events (and the
  // repeated launches) would weigh on the whole call's time above.
  if (onGpu && bench > 0) {
    gather_gpu_set_kernel_timing(std::max(1, static_cast<int>(benchLaunches)));
    for (int run = 0; run < runs; ++run) {
      call.invoke(*function);
      kernelTimes.push_back(gather_gpu_take_kernel_ms());
      if (gather_runtime_take_error(errorText, sizeof(errorText)))
        fail(errorText);
    }
    gather_gpu_set_kernel_timing(0);
  }
  if (bench > 0 && !onGpu) {
    std::sort(times.begin(), times.end());
    llvm::outs() << "median " << llvm::format("%.4f", times[times.size() / 2])
                 << " ms over " << runs << " runs (@" << name
                 << (intoCall ? mlir::gather::kIntoEntrySuffix.str() +
                                    ", into the first call's buffers"
                              : std::string())
                 << ")\n";
  }
  if (bench > 0 && onGpu) {
    // Kernel time only (events around each launch), against a
    // device-to-device copy that moves as many bytes as the gather reads
    // and writes: each output element read once and written once, plus the
    // indices (the last argument) read once.
    std::sort(times.begin(), times.end());
    std::sort(kernelTimes.begin(), kernelTimes.end());
    double kernel = kernelTimes[kernelTimes.size() / 2];
    size_t outputBytes = 0;
    for (size_t r = 0; r < resultTypes.size(); ++r) {
      const int64_t *desc = call.result(r);
      int64_t count = 1;
      for (int64_t d = 0; d < resultTypes[r].getRank(); ++d)
        count *= desc[3 + d];
      count *= npy::byteSize(*outputDType(resultTypes[r].getElementType()));
      outputBytes += count;
    }
    size_t indexBytes = arrays.empty() ? 0 : arrays.back().data.size();
    size_t moved = 2 * outputBytes + indexBytes;
    double copy = gather_gpu_time_device_copy_ms(
        moved / 2, runs, std::max(1, static_cast<int>(benchLaunches)));
    auto gbps = [](size_t bytes, double ms) {
      return ms > 0 ? bytes / (ms * 1e6) : 0.0;
    };
    llvm::outs() << "median " << llvm::format("%.4f", kernel)
                 << " ms kernel time over " << runs << " runs (@" << name
                 << ", " << gather_gpu_device_name() << ")\n";
    if (benchLaunches > 1)
      llvm::outs() << "kernel and copy times: the mean of " << benchLaunches
                   << " launches back to back\n";
    llvm::outs() << "call " << llvm::format("%.4f", times[times.size() / 2])
                 << " ms with launches and allocation\n";
    llvm::outs() << "bandwidth " << llvm::format("%.1f", gbps(moved, kernel))
                 << " GB/s for " << moved << " bytes; device copy of the "
                 << "same bytes " << llvm::format("%.4f", copy) << " ms, "
                 << llvm::format("%.1f", gbps(moved, copy))
                 << " GB/s; gather/copy bandwidth "
                 << llvm::format("%.2f", kernel > 0 ? copy / kernel : 0.0)
                 << "\n";
  }

  // Results, copied out through their strides.
  for (size_t r = 0; r < outputs.size(); ++r) {
    RankedTensorType type = resultTypes[r];
    const int64_t *desc = call.result(r);
    int64_t rank = type.getRank();
    npy::Array out;
    out.dtype = *outputDType(type.getElementType());
    out.shape.assign(desc + 3, desc + 3 + rank);
    int64_t elemSize = npy::byteSize(out.dtype);
    int64_t count = 1;
    for (int64_t dim : out.shape)
      count *= dim;
    out.data.resize(count * elemSize);
    mlir::gather::copyResultToHost(desc, rank, elemSize, onGpu,
                                   out.data.data());
    std::string error;
    if (!npy::write(outputs[r], out, error))
      fail(error);
  }
  return 0;
}
