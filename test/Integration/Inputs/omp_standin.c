// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
// The entry points of LLVM's OpenMP runtime that the CPU pipeline's parallel
// loops call, for cross_cpu.py: no libomp of another architecture installs
// beside this host's. Each parallel region runs on a team of
// GATHER_STANDIN_THREADS pthreads (default 3, so that the static shares are
// uneven), a worksharing loop splits its iterations as libomp's static
// schedule does (one contiguous block per thread, the first ones a larger
// share), and the barrier is a pthread barrier. Nested regions run on the
// calling thread alone.
#include <pthread.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdlib.h>

typedef void (*Microtask)(int32_t *, int32_t *, ...);

static __thread int32_t threadId;
static __thread int32_t teamSize = 1;
static __thread int inTeam;
static pthread_barrier_t teamBarrier;

struct Member {
  Microtask task;
  int32_t argc, id, size;
  void *args[4];
};

static void runMember(struct Member *m) {
  int32_t zero = 0;
  threadId = m->id;
  teamSize = m->size;
  inTeam = 1;
  switch (m->argc) {
  case 0:
    m->task(&threadId, &zero);
    break;
  case 1:
    m->task(&threadId, &zero, m->args[0]);
    break;
  case 2:
    m->task(&threadId, &zero, m->args[0], m->args[1]);
    break;
  case 3:
    m->task(&threadId, &zero, m->args[0], m->args[1], m->args[2]);
    break;
  default:
    m->task(&threadId, &zero, m->args[0], m->args[1], m->args[2], m->args[3]);
  }
}

static void *memberThread(void *m) {
  runMember((struct Member *)m);
  return NULL;
}

void __kmpc_fork_call(void *loc, int32_t argc, Microtask task, ...) {
  (void)loc;
  if (argc > 4)
    abort();
  struct Member first = {task, argc, 0, 1, {0}};
  va_list ap;
  va_start(ap, task);
  for (int32_t a = 0; a < argc; ++a)
    first.args[a] = va_arg(ap, void *);
  va_end(ap);
  int32_t size = 1;
  if (!inTeam) {
    const char *text = getenv("GATHER_STANDIN_THREADS");
    size = text ? atoi(text) : 3;
    if (size < 1 || size > 64)
      size = 1;
  }
  struct Member members[64];
  pthread_t threads[64];
  int32_t savedId = threadId, savedSize = teamSize, savedInTeam = inTeam;
  if (size > 1)
    pthread_barrier_init(&teamBarrier, NULL, (unsigned)size);
  for (int32_t t = 0; t < size; ++t) {
    members[t] = first;
    members[t].id = t;
    members[t].size = size;
  }
  for (int32_t t = 1; t < size; ++t)
    if (pthread_create(&threads[t], NULL, memberThread, &members[t]))
      abort();
  runMember(&members[0]);
  for (int32_t t = 1; t < size; ++t)
    pthread_join(threads[t], NULL);
  if (size > 1)
    pthread_barrier_destroy(&teamBarrier);
  threadId = savedId;
  teamSize = savedSize;
  inTeam = savedInTeam;
}

int32_t __kmpc_global_thread_num(void *loc) {
  (void)loc;
  return threadId;
}

void __kmpc_barrier(void *loc, int32_t gtid) {
  (void)loc;
  (void)gtid;
  if (teamSize > 1)
    pthread_barrier_wait(&teamBarrier);
}

void __kmpc_for_static_fini(void *loc, int32_t gtid) {
  (void)loc;
  (void)gtid;
}

// libomp's unchunked static schedule: trip count n over the team, the first
// n % size threads one iteration more; an empty share has upper = lower - 1.
#define STATIC_INIT(NAME, T, S)                                                \
  void NAME(void *loc, int32_t gtid, int32_t schedule, int32_t *last,          \
            T *lower, T *upper, S *stride, S increment, S chunk) {             \
    (void)loc, (void)gtid, (void)schedule, (void)chunk;                        \
    if (increment != 1)                                                        \
      abort();                                                                 \
    T n = *upper - *lower + 1, size = (T)teamSize, id = (T)threadId;           \
    T share = n / size, extra = n % size;                                      \
    T begin = *lower + id * share + (id < extra ? id : extra);                 \
    T count = share + (id < extra ? 1 : 0);                                    \
    *last = count > 0 && begin + count - 1 == *upper;                          \
    *stride = (S)n;                                                            \
    *lower = begin;                                                            \
    *upper = begin + count - 1;                                                \
  }
STATIC_INIT(__kmpc_for_static_init_8u, uint64_t, int64_t)
STATIC_INIT(__kmpc_for_static_init_8, int64_t, int64_t)
STATIC_INIT(__kmpc_for_static_init_4u, uint32_t, int32_t)
STATIC_INIT(__kmpc_for_static_init_4, int32_t, int32_t)
