/* A C caller of code compiled ahead of time (Inputs/assert-after-alloc.mlir,
   with C wrappers) that sets a return point around each call, as the JIT
   does: a call whose assert fails returns there with the error recorded.
   Prints whether 50 such calls, each after allocating a 4 MiB output, left
   the heap grown by less than one output. Built with the pipeline's
   runtime-allocator the compiled code allocates through the run-time
   library, which frees the call's blocks on the way out; without it, each
   failed call leaks its output. */
#include "gather/Runtime/GatherRuntime.h"

#include <malloc.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

typedef struct {
  float *allocated, *aligned;
  int64_t offset, sizes[2], strides[2];
} Floats2;
typedef struct {
  int64_t *allocated, *aligned;
  int64_t offset, sizes[1], strides[1];
} Ints1;

void _mlir_ciface_main(Floats2 *result, Floats2 *table, Ints1 *a, Ints1 *b);

/* The sanitizer's count where its allocator replaces glibc's. */
extern size_t __sanitizer_get_current_allocated_bytes(void)
    __attribute__((weak));

static size_t heapInUse(void) {
  if (__sanitizer_get_current_allocated_bytes)
    return __sanitizer_get_current_allocated_bytes();
  struct mallinfo2 info = mallinfo2();
  return info.uordblks + info.hblkhd;
}

/* 1 if the call returned, 0 if a failed assert left it. */
static int call(Floats2 *result, Floats2 *table, Ints1 *a, Ints1 *b) {
  jmp_buf here;
  void *previous = gather_runtime_set_assert_return(&here);
  volatile int returned = 0;
  if (setjmp(here) == 0) {
    _mlir_ciface_main(result, table, a, b);
    returned = 1;
  }
  gather_runtime_set_assert_return(previous);
  return returned;
}

static Ints1 ints(int64_t *data, int64_t n) {
  Ints1 m = {data, data, 0, {n}, {1}};
  return m;
}

enum { Rows = 1000, Cols = 16, N = 1 << 16 };

int main(void) {
  gather_runtime_set_record_errors(1);
  static float tableData[Rows * Cols];
  static int64_t aData[N], bData[N];
  srand(1);
  for (int i = 0; i < Rows * Cols; ++i)
    tableData[i] = (float)i;
  for (int i = 0; i < N; ++i) {
    aData[i] = rand() % Rows;
    bData[i] = rand() % N;
  }
  Floats2 table = {tableData, tableData, 0, {Rows, Cols}, {Cols, 1}};
  Ints1 a = ints(aData, N), b = ints(bData, N), shortB = ints(bData, 5);

  Floats2 result;
  int right = call(&result, &table, &a, &b) && result.sizes[0] == N &&
              result.sizes[1] == Cols;
  for (int64_t i = 0; right && i < N; ++i)
    for (int64_t c = 0; c < Cols; ++c)
      right &=
          result.aligned[i * Cols + c] == tableData[aData[bData[i]] * Cols + c];
  printf("valid call: %s\n", right ? "right" : "wrong");
  free(result.allocated);

  size_t before = heapInUse();
  int failed = 0;
  char message[512];
  for (int k = 0; k < 50; ++k)
    if (!call(&result, &table, &a, &shortB) &&
        gather_runtime_take_error(message, sizeof message))
      ++failed;
  size_t grown = heapInUse() - before;
  printf("%d of 50 calls failed: %s\n", failed, message);
  printf("heap growth under one output: %s\n",
         grown < (size_t)N * Cols * sizeof(float) ? "yes" : "no");
  return 0;
}
