//===- Jit.h - JIT-compile a gather module ---------------------*- C++ -*-===//
//
// Part of the gather project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// The one JIT path of the project: gather-run and the C API (and through it
// the Python package) compile with it.
//
//===----------------------------------------------------------------------===//

#ifndef GATHER_RUNNER_JIT_H
#define GATHER_RUNNER_JIT_H

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/DialectRegistry.h"
#include "llvm/Support/Error.h"

#include <memory>
#include <string>
#include <vector>

namespace llvm::orc {
class LLJIT;
} // namespace llvm::orc

namespace mlir::gather {

struct JitOptions {
  /// "cpu" or "gpu" (the GPU must have been initialized with
  /// gather_gpu_init).
  std::string device = "cpu";
  /// CPU only: OpenMP-parallel outer loops, and the scf reference lowering.
  bool parallel = true;
  bool reference = false;
  /// CPU only: fuse elementwise consumers into the gathers' loops.
  bool fuseConsumers = true;
  /// CPU only: lower each gather written more than once only once, as a
  /// function (gather-outline-duplicates).
  bool outlineDuplicates = true;
  /// Raise gather-like linalg.generic ops into gather ops first.
  bool raiseLinalg = true;
  /// CPU only: the CPU to plan and generate code for (the pipeline's
  /// target-cpu): native, or a CPU name LLVM knows of the host's
  /// architecture.
  std::string targetCpu = "native";
  /// CPU only: the vector register width the lowering plans with; 0: the
  /// target's.
  int64_t vectorBits = 0;
  /// CPU only: plan for this machine (the pipeline's on-host): a named
  /// targetCpu gives only the instruction set, the caches, cores and tuning
  /// being the host's. False plans as ahead of time (the name's default
  /// caches and tuning).
  bool onHost = true;
  /// CPU only: a textual pass pipeline (on builtin.module) run instead of
  /// --gather-cpu-pipeline, for comparisons with other lowerings (upstream
  /// MLIR's own, for one); it must lower the module to the LLVM dialect with
  /// the functions' tensors bufferized at their boundaries.
  std::string pipeline;
  /// LLVM optimization and code generation level, 0 to 3 (another is an
  /// error). Lower levels compile faster (the batched differential tests
  /// use 1).
  int optLevel = 3;
  /// CPU only: also compile `<name>__into` and `<name>__shape` for the
  /// public functions (--gather-destination-entries).
  bool destinationEntries = false;
  /// Verify the module after every pass of the pipeline, not only its
  /// output: a pass that breaks the IR is then named. Off, a large
  /// module's pipeline takes about a third less time.
  bool verifyEach = false;
  /// Threads that optimize and generate machine code; 0: one per core. A
  /// large module is split into partitions compiled concurrently.
  unsigned compileThreads = 0;
};

/// The packed C interface of a compiled function (`_mlir_ciface_<entry>`
/// taking a pointer to each argument slot).
using PackedEntry = void (*)(void **);

/// A JIT-compiled module: ORC's LLJIT holding its machine code, which stays
/// valid while this lives.
class JitProgram {
public:
  /// Seconds each compilation phase took, the LLVM instructions it
  /// compiled (after MergeFunctions) and into how many modules they were
  /// split.
  struct Times {
    double pipeline = 0, translation = 0, machineCode = 0;
    unsigned instructions = 0, partitions = 1;
  };

  explicit JitProgram(std::unique_ptr<llvm::orc::LLJIT> jit);
  ~JitProgram();
  JitProgram(const JitProgram &) = delete;
  JitProgram &operator=(const JitProgram &) = delete;

  /// The packed interface `_mlir_<name>` the compilation added for each C
  /// interface `<name>` = `_mlir_ciface_<function>`.
  llvm::Expected<PackedEntry> lookupPacked(StringRef name);
  /// Runs the module's constructors (the GPU module loads) once.
  llvm::Error initialize();

  Times times;

private:
  std::unique_ptr<llvm::orc::LLJIT> jit;
  bool initialized = false;
};

/// Everything a gather module may contain or be lowered through, and the
/// translations to LLVM IR. Also registers the gather passes and pipelines.
void registerJitDialectsAndPasses(DialectRegistry &registry);

/// The widest vector registers of the host CPU in bits, as LLVM reports
/// its features: 512 with AVX-512F, 256 with AVX, else 128
/// (hostCpuTarget().vectorBits).
int64_t hostVectorBits();

/// Lowers `module` in place with --gather-cpu-pipeline or (device gpu)
/// --gather-gpu-pipeline for the current GPU, gives `entry` and every other
/// public function a C interface (_mlir_ciface_<name>) and JIT-compiles
/// the module to machine code (all of it, before returning). The run-time
/// hooks (__gather_runtime_error, the mgpu* GPU runtime) resolve to the
/// copies linked into this process. On failure returns null and sets
/// `error` (diagnostics go to the context's handlers).
std::unique_ptr<JitProgram> compileForJit(ModuleOp module, StringRef entry,
                                          const JitOptions &options,
                                          std::string &error);

/// The function a runner calls: `name` when given (a defined function),
/// else a public "main", else the only public function. Null with `error`
/// set otherwise.
func::FuncOp findEntryFunction(ModuleOp module, StringRef name,
                               std::string &error);

/// Looks `entry`'s packed C interface up once (an ORC lookup takes locks and
/// hash lookups: microseconds, as much as a small gather) and runs the
/// module's initializers if that has not happened yet.
llvm::Expected<PackedEntry> lookupEntry(JitProgram &program, StringRef entry);

/// The number of threads the calling thread's OpenMP loops start, set for
/// the scope and restored after it: each program runs on the threads it was
/// created for, whatever another program of the process asked for
/// (OMP_NUM_THREADS is read once, when libomp starts). `threads` 0, or no
/// libomp loaded yet (no CPU program compiled with parallel loops): no
/// effect.
class ScopedOmpThreads {
public:
  explicit ScopedOmpThreads(int threads);
  ~ScopedOmpThreads();
  ScopedOmpThreads(const ScopedOmpThreads &) = delete;
  ScopedOmpThreads &operator=(const ScopedOmpThreads &) = delete;

private:
  /// The calling thread's count before the scope; 0: nothing to restore.
  int previous = 0;
};

/// One call of `_mlir_ciface_<entry>` on row-major host arrays: builds the
/// argument descriptors (on `device` "gpu" the arguments are first copied
/// to device buffers, freed with the call), invokes, and owns the result
/// buffers the compiled code allocated until freeResults() (also run by
/// invoke() for the previous results, and by the destructor).
class JitCall {
public:
  JitCall(ArrayRef<void *> argData, ArrayRef<SmallVector<int64_t>> argShapes,
          ArrayRef<int64_t> argElementSizes, ArrayRef<int64_t> resultRanks,
          bool onDevice);
  ~JitCall();
  JitCall(const JitCall &) = delete;
  JitCall &operator=(const JitCall &) = delete;

  /// Runs the function (looked up with lookupEntry). Run-time check
  /// failures are read from the gather runtime by the caller.
  void invoke(PackedEntry function);

  /// The descriptor of result `r` (allocated and aligned pointers, offset,
  /// sizes, strides).
  const int64_t *result(size_t r) const {
    return resultStorage.data() + resultOffsets[r];
  }

  /// Frees the result buffers that alias no argument and no earlier result.
  void freeResults();

  /// Whether result `r` is a host buffer of its own (no argument and no
  /// other result shares it) laid out row-major contiguous: one that can be
  /// handed to the caller instead of copied.
  bool isOwnContiguousHostResult(size_t r) const;

  /// Hands result `r`'s buffer to the caller, who frees its allocated
  /// pointer (result(r)[0]) with std::free: freeResults() leaves it.
  void releaseResult(size_t r) { released[r] = true; }

private:
  bool isShared(size_t r) const;

  bool onDevice;
  std::vector<void *> argData, deviceInputs;
  std::vector<std::vector<int64_t>> argDescs;
  std::vector<size_t> resultOffsets;
  std::vector<int64_t> ranks, resultStorage;
  std::vector<bool> released;
  bool haveResults = false;
};

/// A ranked memref descriptor as the C interface lays it out (allocated and
/// aligned pointers, offset, sizes, strides; 8 bytes each) for a row-major
/// contiguous buffer.
std::vector<int64_t> makeContiguousDescriptor(void *data,
                                              ArrayRef<int64_t> shape);

/// Words of a rank-`rank` descriptor.
inline int64_t descriptorWords(int64_t rank) { return 3 + 2 * rank; }

/// Copies the elements a result descriptor (`desc`, rank `rank`) points to,
/// through its strides, into `out` (row-major contiguous, sized for the
/// descriptor's sizes). With `onDevice` the descriptor's memory is device
/// memory: the span its strides cover is copied to the host first.
void copyResultToHost(const int64_t *desc, int64_t rank, int64_t elementSize,
                      bool onDevice, char *out);

} // namespace mlir::gather

#endif // GATHER_RUNNER_JIT_H
