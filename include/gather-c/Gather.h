/*===- Gather.h - C API of the gather project ---------------------*- C -*-===*\
|*                                                                            *|
|* Part of the gather project, under the Apache License v2.0 with LLVM       *|
|* Exceptions. See LICENSE for license information.                          *|
|* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception                   *|
|*                                                                            *|
|* Two parts:                                                                 *|
|*  - the dialect handle for the MLIR C API (mlirGetDialectHandle__gather__), *|
|*    to register the gather dialect in a context created through the MLIR  *|
|*    C API;                                                                  *|
|*  - compile-and-run entry points over the JIT that gather-run uses: a       *|
|*    module's function is compiled once for the CPU (or GPU) and run on     *|
|*    contiguous host buffers any number of times.                            *|
|* Errors never abort the process: every call that can fail returns a status  *|
|* and writes a message (compiler diagnostics with their locations, or the    *|
|* run-time error naming the gather op and its location).                     *|
|*                                                                            *|
\*===----------------------------------------------------------------------===*/

#ifndef GATHER_C_GATHER_H
#define GATHER_C_GATHER_H

#include "mlir-c/IR.h"

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

MLIR_DECLARE_CAPI_DIALECT_REGISTRATION(Gather, gather);

typedef struct GatherProgram GatherProgram;

/* Compiles function `entry` (NULL: the only public function, or "main") of
   the module in `mlirText` for `device` ("cpu" or "gpu"). `threads` > 0: the
   CPU's OpenMP loops run on that many threads in each call of this program
   (set on the calling thread for the call and restored after it, whatever
   other programs use); 0: libomp's default (OMP_NUM_THREADS, or one per
   core). Returns NULL on failure with
   the diagnostics in `error`. */
GatherProgram *gatherProgramCreate(const char *mlirText, const char *entry,
                                   const char *device, int threads, char *error,
                                   size_t errorSize);
/* The same with LLVM's optimization level `optLevel` (0 to 3;
   gatherProgramCreate uses 3): lower levels compile faster. */
GatherProgram *gatherProgramCreateWithOptLevel(const char *mlirText,
                                               const char *entry,
                                               const char *device, int threads,
                                               int optLevel, char *error,
                                               size_t errorSize);
/* Flags of gatherProgramCreateWithFlags. */
/* Also compiles, for every public function, an entry that writes the results
   into the caller's buffers (the gather-destination-entries pass), which
   gatherProgramRunInto calls: no result allocation and no copy. A function
   whose results that entry computes in place then allocates them and calls
   it (one compiled body); any other function keeps its own body as well,
   and takes longer to compile. */
#define GATHER_PROGRAM_DESTINATION_ENTRIES 1u
/* Leaves gather-like linalg.generic ops as they are, where the pipelines
   otherwise raise them into gather ops first (convert-linalg-to-gather). */
#define GATHER_PROGRAM_NO_RAISE 2u
/* Leaves the consumers of gathers unfused, where the pipelines otherwise
   fuse elementwise and reduction consumers into the gathers' loops
   (gather-fuse-consumers, gather-fuse-device-consumers): gather-run's
   --no-fusion. */
#define GATHER_PROGRAM_NO_FUSION 4u

/* gatherProgramCreateWithOptLevel with `flags` (GATHER_PROGRAM_*). */
GatherProgram *gatherProgramCreateWithFlags(const char *mlirText,
                                            const char *entry,
                                            const char *device, int threads,
                                            int optLevel, unsigned flags,
                                            char *error, size_t errorSize);
/* gatherProgramCreateWithFlags for the CPU `targetCpu` (NULL or "native":
   the host; or a CPU name LLVM knows of the host's architecture, such as
   "x86-64-v3" for AVX2):
   the lowering plans with its target description and LLVM generates code
   for it. A CPU with features this host lacks is an error. */
GatherProgram *gatherProgramCreateForTarget(const char *mlirText,
                                            const char *entry,
                                            const char *device, int threads,
                                            int optLevel, unsigned flags,
                                            const char *targetCpu, char *error,
                                            size_t errorSize);

/* Every setting of a compilation, for gatherProgramCreateWithOptions. Fill
   it with gatherProgramOptionsInit, then change fields: a later version
   adds fields at the end, and `structSize` tells it which ones the caller
   knows. */
typedef struct GatherProgramOptions {
  /* sizeof(GatherProgramOptions) of the caller's header. */
  size_t structSize;
  /* "cpu" (default) or "gpu". */
  const char *device;
  /* > 0: the threads of the CPU's OpenMP loops in this program's calls; 0
     (default): libomp's default (OMP_NUM_THREADS, or one per core). */
  int threads;
  /* LLVM's optimization level, 0 to 3 (default 3); another is an error. */
  int optLevel;
  /* GATHER_PROGRAM_* (default 0). */
  unsigned flags;
  /* NULL (default) or "native": the host; else a CPU name as for
     gatherProgramCreateForTarget. */
  const char *targetCpu;
  /* Threads LLVM optimizes and generates machine code on (a large module is
     split into partitions compiled concurrently); 0 (default): one per
     core; negative: an error. */
  int compileThreads;
  /* Nonzero: verify the module after every pass of the pipeline, which
     names a pass that breaks the IR; 0 (default): its input and output
     only, which compiles large modules faster. */
  int verifyEach;
} GatherProgramOptions;

/* The defaults above, with structSize set (NULL: does nothing). */
void gatherProgramOptionsInit(GatherProgramOptions *options);

/* Compiles function `entry` (as gatherProgramCreate) with `options` (NULL:
   the defaults). The other gatherProgramCreate* functions call this. */
GatherProgram *
gatherProgramCreateWithOptions(const char *mlirText, const char *entry,
                               const GatherProgramOptions *options, char *error,
                               size_t errorSize);
void gatherProgramDestroy(GatherProgram *program);

/* The vector register width in bits that CPU programs are compiled for: the
   host's (512 with AVX-512, 256 with AVX, else 128), which the lowering's
   tiles follow (the pass option vector-bits of convert-gather-to-linalg). */
int gatherHostVectorBits(void);

/* The target description CPU programs for `targetCpu` (NULL or "native":
   the host) are planned with, as one line ("cpu=znver3 vector-bits=256
   mask-registers=0 cache-line-bytes=64 page-bytes=4096 l1d-bytes=32768
   l2-bytes=524288 l3-bytes=33554432 cores=2 ..."): a named CPU gives the
   instruction set, the host the caches, cores and tuning (programs run
   here). Returns 0, or 1 with the message in `description` (an unknown
   CPU). */
int gatherTargetDescription(const char *targetCpu, char *description,
                            size_t size);

/* Every public function of the module is compiled with the program: this
   makes `entry` the one gatherProgramRun calls (and whose signature the
   accessors below describe), without compiling again. Returns 0, or 1 with
   the message in `error` (no such function, or a signature the C API does
   not support). It waits for the runs in progress on other threads; the
   runs after it call `entry`. */
int gatherProgramSelect(GatherProgram *program, const char *entry, char *error,
                        size_t errorSize);

/* The name of the selected function (valid until the next select). */
const char *gatherProgramSelectedEntry(GatherProgram *program);

/* The signature: ranked tensors only. Element types are MLIR's names
   ("f16", "f32", "f64", "i1", "i8", "i16", "i32", "i64"); a dynamic size is
   -1. */
int gatherProgramNumInputs(const GatherProgram *program);
int gatherProgramNumResults(const GatherProgram *program);
const char *gatherProgramInputElementType(const GatherProgram *program, int i);
int64_t gatherProgramInputRank(const GatherProgram *program, int i);
int64_t gatherProgramInputDim(const GatherProgram *program, int i, int64_t d);
const char *gatherProgramResultElementType(const GatherProgram *program, int i);
int64_t gatherProgramResultRank(const GatherProgram *program, int i);

/* Threads: gatherProgramRun and gatherProgramRunInto (and their ...Entry
   forms) may run on one program from several threads at once, each call
   with its own results and its own error (tested on CPU programs; GPU
   programs not yet on a GPU). The signature accessors read the entry
   selected when they are called. */

/* Runs the program on row-major contiguous host arrays: inputs[i] points to
   the data of input i, inputShapes[i] to its sizes. Each result r comes back
   as a row-major contiguous buffer resultData[r] and its sizes
   resultShapes[r], both the caller's to free with gatherFree (and only
   with it: resultData[r] is the compiled code's own output buffer where it
   is contiguous and shared with no input and no other result, with no
   copy made, else a copy). Returns 0, or
   1 with the message in `error` (bad shapes, an out-of-bounds index under
   out_of_bounds = error, a device failure). */
int gatherProgramRun(GatherProgram *program, void *const *inputs,
                     const int64_t *const *inputShapes, void **resultData,
                     int64_t **resultShapes, char *error, size_t errorSize);
void gatherFree(void *pointer);

/* gatherProgramRun of the public function `entry` instead of the selected
   one, whatever another thread selects meanwhile: the arrays are those of
   `entry`'s signature. Returns 1 with the message in `error` as
   gatherProgramSelect does for a function it cannot run. */
int gatherProgramRunEntry(GatherProgram *program, const char *entry,
                          void *const *inputs,
                          const int64_t *const *inputShapes, void **resultData,
                          int64_t **resultShapes, char *error,
                          size_t errorSize);

/* Runs the program and writes each result r into the caller's row-major
   contiguous buffer outputs[r], whose sizes outputShapes[r] must be the
   result's (checked before anything is written; a mismatch is an error).
   Where the program was created with GATHER_PROGRAM_DESTINATION_ENTRIES,
   runs on the CPU and no output overlaps an input or another output, the
   compiled code writes into outputs[r] directly
   (gatherProgramWritesInPlace); otherwise the results are computed as by
   gatherProgramRun and copied. Returns 0, or 1 with the message in `error`;
   after a run-time error (an out-of-bounds index under out_of_bounds =
   error) the outputs written in place hold unspecified values. */
int gatherProgramRunInto(GatherProgram *program, void *const *inputs,
                         const int64_t *const *inputShapes,
                         void *const *outputs,
                         const int64_t *const *outputShapes, char *error,
                         size_t errorSize);

/* gatherProgramRunInto of the public function `entry` (as
   gatherProgramRunEntry). */
int gatherProgramRunIntoEntry(GatherProgram *program, const char *entry,
                              void *const *inputs,
                              const int64_t *const *inputShapes,
                              void *const *outputs,
                              const int64_t *const *outputShapes, char *error,
                              size_t errorSize);

/* 1 when gatherProgramRunInto writes the selected function's results into
   the caller's buffers directly (when they overlap no input), else 0. */
int gatherProgramWritesInPlace(const GatherProgram *program);

#ifdef __cplusplus
}
#endif

#endif /* GATHER_C_GATHER_H */
