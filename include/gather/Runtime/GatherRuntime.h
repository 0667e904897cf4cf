/*===- GatherRuntime.h - run-time support for compiled gathers ----*- C -*-===*\
|*                                                                            *|
|* Part of the gather project, under the Apache License v2.0 with LLVM       *|
|* Exceptions. See LICENSE for license information.                          *|
|* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception                   *|
|*                                                                            *|
|* Compiled gathers call __gather_runtime_error when a run-time check fails   *|
|* (an index out of bounds under out_of_bounds = error, or operand shapes     *|
|* that do not broadcast). By default it prints the message, which names the  *|
|* op and its source location, and exits with status 1. An embedder (the JIT  *|
|* runner, the Python package) can ask it to record the first error instead.  *|
|*                                                                            *|
\*===----------------------------------------------------------------------===*/

#ifndef GATHER_RUNTIME_GATHERRUNTIME_H
#define GATHER_RUNTIME_GATHERRUNTIME_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Called by compiled code. `site` is the address of a NUL-terminated
   "op at file" string, `line` and `column` complete the location (0 when
   unknown), `kind` is a mlir::gather::RuntimeErrorKind
   (gather/Dialect/Gather/IR/RuntimeErrorKind.h) and `details` the address
   of `count` int64_t values whose meaning depends on the kind. */
void __gather_runtime_error(int64_t site, int64_t line, int64_t column,
                            int64_t kind, int64_t count, int64_t details);

/* The allocation function of JIT-compiled code (the runner binds the
   module's `malloc` to it): malloc, and for 4 MiB or more, transparent huge
   pages asked for with madvise, as numpy does for its arrays. An output of
   48 MiB written once per call then takes 24 page faults instead of
   12,288. Freed with free or gather_runtime_free. While the calling
   thread has a return point (gather_runtime_set_assert_return) and errors
   are recorded, the block is listed as the call's until freed. */
void *gather_runtime_malloc(size_t size);

/* The free function of JIT-compiled code (the runner binds the module's
   `free` to it): takes the block off the call's list, then free. */
void gather_runtime_free(void *pointer);

/* The huge-page advice of gather_runtime_malloc for a block allocated
   elsewhere (gather-run's input arrays): for 4 MiB or more, the whole pages
   inside [pointer, pointer + size) advised with MADV_HUGEPAGE. Smaller
   blocks, and systems without madvise, are left as they are. */
void gather_runtime_advise_huge_pages(void *pointer, size_t size);

/* 0: print and exit(1) (default); 1: record the first error and return. */
void gather_runtime_set_record_errors(int record);

/* Called by compiled code after a loop whose body holds an assert that
   skips what it guards (mlir::gather::kAssertBarrier): where such an
   assert failed in a parallel region while errors are recorded, and the
   caller is outside any, returns to the caller's return point (freeing the
   call's blocks, as below), or without one prints the message and ends the
   process. Otherwise returns. */
void __gather_runtime_assert_barrier(void);

/* Called by compiled code before an OpenMP parallel region that can report
   (mlir::gather::kErrorStateOf, the CPU pipeline's
   gather-parallel-error-state): the error state of the calling thread's
   call, which every thread of the region then adopts. */
void *__gather_runtime_error_state(void);

/* Called by each thread of such a region at its start with the state above
   and at its end with what the first call returned
   (mlir::gather::kAdoptErrorState): the thread's reports go to `state`
   (null: its own, or, on a worker, one the callers share). Returns the
   state it replaced. */
void *__gather_runtime_adopt_error_state(void *state);

/* Called by the report of a failed index check before it scans the
   indices for the invalid value (mlir::gather::kErrorRecorded): nonzero
   where errors are recorded and the calling thread's call (the state it
   reports to) has recorded one already, which the scan's report would not
   replace; the report then skips its scan. */
int32_t __gather_runtime_error_recorded(void);

/* Where a failed cf.assert of compiled code returns to on the calling
   thread, instead of ending the process: `target` points to a jmp_buf
   that the caller set with setjmp around its call of compiled code (null:
   none). Where errors are recorded and the assert failed on this thread
   outside any OpenMP parallel region, the hook records it and longjmps
   there (the rest of the call is skipped; the blocks it allocated with
   gather_runtime_malloc on this thread and did not free are freed);
   an assert in a loop body that skips what it guards is recorded, and
   the barrier after its loop returns there; otherwise it prints the
   message and ends the process (the CPU pipeline keeps every loop that
   may reach another assert out of parallel regions:
   gather-serial-leaving-loops). Each call of this
   function ends the listing of the outgoing target's blocks (its call
   returned them, or they belong to the caller), so calls with return
   points do not nest. Returns the previous target. The JIT's calls
   (gather-run, the C API, Python) set one. */
void *gather_runtime_set_assert_return(void *target);

/* Copies the error message recorded by the calls of this thread (empty if
   none) into `buffer` and clears it; returns 1 if there was an error. Each
   thread's calls record their own errors, their parallel regions' included,
   so threads that call compiled code at once take only their own. */
int gather_runtime_take_error(char *buffer, int64_t size);

#ifdef __cplusplus
}
#endif

#endif /* GATHER_RUNTIME_GATHERRUNTIME_H */
