/* One program run from several threads at once through the C API: valid
   calls (gatherProgramRun and gatherProgramRunInto, results compared with
   a plain C gather), calls that fail with an index out of range (each gets
   its own error; these run @same by name, gatherProgramRunEntry), and a
   thread that selects between two entries of the same signature and
   semantics while the others run. The loops are long
   enough to run as OpenMP regions on two threads. */
// RUN: gather-capi-concurrent-test 2>&1 | FileCheck %s
// CHECK: run: 2000 right, 0 wrong, 0 failed
// CHECK-NEXT: run into: 2000 right, 0 wrong, 0 failed
// CHECK-NEXT: failing: 2000 with their own error, 0 other, 0 returned
// CHECK-NEXT: selections: 400 done, 0 failed
// CHECK-NEXT: unknown entry: rc=1 no public function 'nope' in the program's
// module

#include "gather-c/Gather.h"

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define ROWS 1000
#define COLS 8
#define IDS 4096
#define CALLS 2000

static const char *kModule =
    "func.func @main(%d: tensor<?x8xf32>, %i: tensor<?xi64>) -> "
    "tensor<?x8xf32> {\n"
    "  %c0 = arith.constant 0 : index\n"
    "  %n = tensor.dim %i, %c0 : tensor<?xi64>\n"
    "  %init = tensor.empty(%n) : tensor<?x8xf32>\n"
    "  %0 = gather.block %d[%i] axis = 0 into %init : tensor<?x8xf32>, "
    "tensor<?xi64> into tensor<?x8xf32>\n"
    "  return %0 : tensor<?x8xf32>\n"
    "}\n"
    "func.func @same(%d: tensor<?x8xf32>, %i: tensor<?xi64>) -> "
    "tensor<?x8xf32> {\n"
    "  %c0 = arith.constant 0 : index\n"
    "  %n = tensor.dim %i, %c0 : tensor<?xi64>\n"
    "  %init = tensor.empty(%n) : tensor<?x8xf32>\n"
    "  %0 = gather.block %d[%i] axis = 0 into %init : tensor<?x8xf32>, "
    "tensor<?xi64> into tensor<?x8xf32>\n"
    "  return %0 : tensor<?x8xf32>\n"
    "}\n";

static GatherProgram *program;
static float table[ROWS * COLS];
static long long goodIds[IDS], badIds[IDS];
static float expected[IDS * COLS];
static const int64_t tableShape[2] = {ROWS, COLS}, idsShape[1] = {IDS},
                     outShape[2] = {IDS, COLS};

typedef struct {
  int right, wrong, failed, other;
  char firstMessage[512];
} Counts;

static Counts runCounts, intoCounts, failCounts, selectCounts;

static void *runValid(void *unused) {
  (void)unused;
  void *inputs[2] = {table, goodIds};
  const int64_t *shapes[2] = {tableShape, idsShape};
  char error[512];
  for (int c = 0; c < CALLS; ++c) {
    void *data[1];
    int64_t *sizes[1];
    if (gatherProgramRun(program, inputs, shapes, data, sizes, error,
                         sizeof(error))) {
      ++runCounts.failed;
      continue;
    }
    int same = sizes[0][0] == IDS && sizes[0][1] == COLS &&
               memcmp(data[0], expected, sizeof(expected)) == 0;
    ++*(same ? &runCounts.right : &runCounts.wrong);
    gatherFree(data[0]);
    gatherFree(sizes[0]);
  }
  return NULL;
}

static void *runValidInto(void *unused) {
  (void)unused;
  static float out[IDS * COLS];
  void *inputs[2] = {table, goodIds};
  const int64_t *shapes[2] = {tableShape, idsShape};
  void *outputs[1] = {out};
  const int64_t *outShapes[1] = {outShape};
  char error[512];
  for (int c = 0; c < CALLS; ++c) {
    memset(out, 0, sizeof(out));
    if (gatherProgramRunInto(program, inputs, shapes, outputs, outShapes, error,
                             sizeof(error))) {
      ++intoCounts.failed;
      continue;
    }
    ++*(memcmp(out, expected, sizeof(out)) == 0 ? &intoCounts.right
                                                : &intoCounts.wrong);
  }
  return NULL;
}

static void *runFailing(void *unused) {
  (void)unused;
  void *inputs[2] = {table, badIds};
  const int64_t *shapes[2] = {tableShape, idsShape};
  char error[512];
  for (int c = 0; c < CALLS; ++c) {
    void *data[1];
    int64_t *sizes[1];
    if (!gatherProgramRunEntry(program, "same", inputs, shapes, data, sizes,
                               error, sizeof(error))) {
      ++failCounts.wrong;
      gatherFree(data[0]);
      gatherFree(sizes[0]);
      continue;
    }
    if (strstr(error, "index 1000 at indices[3001] is out of range"))
      ++failCounts.right;
    else if (failCounts.other++ == 0)
      snprintf(failCounts.firstMessage, sizeof(failCounts.firstMessage), "%s",
               error);
  }
  return NULL;
}

static void *selectEntries(void *unused) {
  (void)unused;
  char error[512];
  for (int c = 0; c < 400; ++c) {
    if (gatherProgramSelect(program, c % 2 ? "main" : "same", error,
                            sizeof(error)))
      ++selectCounts.failed;
    else
      ++selectCounts.right;
  }
  return NULL;
}

int main(void) {
  unsigned state = 12345;
  for (int k = 0; k < ROWS * COLS; ++k) {
    state = state * 1103515245u + 12345u;
    table[k] = (float)(state >> 8) / 65536.0f;
  }
  for (int k = 0; k < IDS; ++k) {
    state = state * 1103515245u + 12345u;
    goodIds[k] = badIds[k] = (long long)((state >> 8) % ROWS);
    memcpy(&expected[k * COLS], &table[goodIds[k] * COLS],
           COLS * sizeof(float));
  }
  badIds[3001] = ROWS;
  char error[2048];
  GatherProgramOptions options;
  gatherProgramOptionsInit(&options);
  options.threads = 2;
  options.flags = GATHER_PROGRAM_DESTINATION_ENTRIES;
  program = gatherProgramCreateWithOptions(kModule, "main", &options, error,
                                           sizeof(error));
  if (!program) {
    printf("compile failed: %s\n", error);
    return 1;
  }
  pthread_t threads[4];
  void *(*bodies[4])(void *) = {runValid, runValidInto, runFailing,
                                selectEntries};
  for (int t = 0; t < 4; ++t)
    pthread_create(&threads[t], NULL, bodies[t], NULL);
  for (int t = 0; t < 4; ++t)
    pthread_join(threads[t], NULL);
  printf("run: %d right, %d wrong, %d failed\n", runCounts.right,
         runCounts.wrong, runCounts.failed);
  printf("run into: %d right, %d wrong, %d failed\n", intoCounts.right,
         intoCounts.wrong, intoCounts.failed);
  printf("failing: %d with their own error, %d other, %d returned\n",
         failCounts.right, failCounts.other, failCounts.wrong);
  if (failCounts.other)
    printf("first other error: %s\n", failCounts.firstMessage);
  printf("selections: %d done, %d failed\n", selectCounts.right,
         selectCounts.failed);
  void *inputs[2] = {table, goodIds};
  const int64_t *shapes[2] = {tableShape, idsShape};
  void *data[1];
  int64_t *sizes[1];
  int rc = gatherProgramRunEntry(program, "nope", inputs, shapes, data, sizes,
                                 error, sizeof(error));
  printf("unknown entry: rc=%d %s\n", rc, error);
  gatherProgramDestroy(program);
  return 0;
}
