/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/* paired.py's turns with no Python in them (`paired.py --from-c` builds and
   runs this): each workload's gather compiled by the C API
   (gatherProgramCreateWithFlags, results written in place) and called by
   gatherProgramRunInto for the CPU TARGET, against baseline.cpp's loops
   (libbaseline.so's baseline_call) and the memcpy of the output, in an order
   drawn afresh each turn, each timed call after WARM untimed calls of its own,
   all on the same input buffers and the library's output. The inputs start
   `offset` bytes past a 64-byte boundary (numpy's arrays of these sizes sit 16
   past one). Every contender's output is compared with numpy's result
   (NAME_want.bin) before and after the turns.

     paired_c LIBBASELINE DIR THREADS TURNS WARM OFFSET TARGET NAME...

   DIR holds, per workload, NAME.mlir (the gather as @main(data, indices)),
   NAME_data.bin, NAME_idx.bin, NAME_want.bin and NAME.txt (the output's
   byte count). Prints one markdown row per workload: the gather's median
   time and each contender's time / the gather's, median [quartiles] over
   the turns. */
#include "gather-c/Gather.h"

#include <dlfcn.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

enum { Loops = 4, Contenders = Loops + 2 }; /* gather, 4 loops, memcpy */

static double now(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return t.tv_sec + t.tv_nsec * 1e-9;
}

static int compareDoubles(const void *a, const void *b) {
  double x = *(const double *)a, y = *(const double *)b;
  return x < y ? -1 : x > y;
}

/* The file DIR/NAME SUFFIX, whole, at `offset` past a 64-byte boundary;
   its size in *size. */
static char *readFile(const char *dir, const char *name, const char *suffix,
                      size_t offset, size_t *size) {
  char path[4096];
  snprintf(path, sizeof(path), "%s/%s%s", dir, name, suffix);
  FILE *f = fopen(path, "rb");
  if (!f) {
    fprintf(stderr, "paired_c: cannot open %s\n", path);
    exit(1);
  }
  fseek(f, 0, SEEK_END);
  *size = (size_t)ftell(f);
  fseek(f, 0, SEEK_SET);
  char *raw = aligned_alloc(64, (*size + offset + 64) / 64 * 64);
  char *data = raw + offset;
  if (fread(data, 1, *size, f) != *size) {
    fprintf(stderr, "paired_c: cannot read %s\n", path);
    exit(1);
  }
  fclose(f);
  data[*size] = 0;
  return data;
}

int main(int argc, char **argv) {
  if (argc < 9) {
    fprintf(stderr, "usage: paired_c LIBBASELINE DIR THREADS TURNS WARM "
                    "OFFSET TARGET NAME...\n");
    return 2;
  }
  const char *dir = argv[2];
  int threads = atoi(argv[3]), turns = atoi(argv[4]), warm = atoi(argv[5]);
  size_t offset = (size_t)atoi(argv[6]);
  const char *target = argv[7];
  void *library = dlopen(argv[1], RTLD_NOW);
  if (!library) {
    fprintf(stderr, "paired_c: %s\n", dlerror());
    return 1;
  }
  int (*openWorkload)(const char *, const char *, int, const void *,
                      const void *) =
      (int (*)(const char *, const char *, int, const void *,
               const void *))dlsym(library, "baseline_open");
  int (*call)(int) = (int (*)(int))dlsym(library, "baseline_call");
  const void *(*output)(void) =
      (const void *(*)(void))dlsym(library, "baseline_output");
  if (!openWorkload || !call || !output) {
    fprintf(stderr, "paired_c: %s lacks the baseline_* entries\n", argv[1]);
    return 1;
  }
  const char *names[Contenders] = {
      "gather",       "C++ unchecked",        "C++ checked",
      "C++ prefetch", "C++ checked prefetch", "memcpy"};
  printf("| workload | gather (ms) |");
  for (int c = 1; c < Contenders; ++c)
    printf(" %s / gather |", names[c]);
  printf("\n| --- | ---: |");
  for (int c = 1; c < Contenders; ++c)
    printf(" ---: |");
  printf("\n");
  for (int w = 8; w < argc; ++w) {
    const char *name = argv[w];
    size_t size, dataBytes, idxBytes, wantBytes;
    char *text = readFile(dir, name, ".mlir", 0, &size);
    char *data = readFile(dir, name, "_data.bin", offset, &dataBytes);
    char *idx = readFile(dir, name, "_idx.bin", offset, &idxBytes);
    char *want = readFile(dir, name, "_want.bin", 0, &wantBytes);
    char error[4096];
    GatherProgram *program = gatherProgramCreateForTarget(
        text, "main", "cpu", threads, 3, GATHER_PROGRAM_DESTINATION_ENTRIES,
        target, error, sizeof(error));
    if (!program) {
      fprintf(stderr, "paired_c: %s: %s\n", name, error);
      return 1;
    }
    if (openWorkload(name, dir, threads, data, idx)) {
      fprintf(stderr, "paired_c: the C++ library does not know %s\n", name);
      return 1;
    }
    char *out = (char *)output();
    int64_t shapes[3][8];
    const int64_t *inputShapes[2] = {shapes[0], shapes[1]};
    for (int i = 0; i < 2; ++i)
      for (int64_t d = 0; d < gatherProgramInputRank(program, i); ++d)
        shapes[i][d] = gatherProgramInputDim(program, i, d);
    /* The output's sizes: the static result type's, from NAME.txt. */
    char *dims = readFile(dir, name, ".txt", 0, &size);
    int rank = 0;
    for (char *p = strtok(dims, " \n"); p && rank < 8; p = strtok(NULL, " \n"))
      shapes[2][rank++] = atoll(p);
    void *inputs[2] = {data, idx};
    void *outputs[1] = {out};
    const int64_t *outputShapes[1] = {shapes[2]};
    for (int check = 0; check < 2; ++check)
      for (int c = 0; c < Contenders - 1; ++c) {
        memset(out, 0xA5, wantBytes);
        if (c == 0 ? gatherProgramRunInto(program, inputs, inputShapes, outputs,
                                          outputShapes, error, sizeof(error))
                   : !call(c - 1)) {
          fprintf(stderr, "paired_c: %s: %s failed: %s\n", name, names[c],
                  c == 0 ? error : "a bad index");
          return 1;
        }
        if (memcmp(out, want, wantBytes)) {
          fprintf(stderr, "paired_c: %s: %s differs from numpy\n", name,
                  names[c]);
          return 1;
        }
        if (check == 0 && c == 0 && !gatherProgramWritesInPlace(program)) {
          fprintf(stderr, "paired_c: %s: the gather does not write in place\n",
                  name);
          return 1;
        }
      }
    double *times = malloc(sizeof(double) * Contenders * turns);
    unsigned seed = 1;
    for (int t = 0; t < turns; ++t) {
      int order[Contenders];
      for (int c = 0; c < Contenders; ++c)
        order[c] = c;
      for (int c = Contenders - 1; c > 0; --c) {
        int j = rand_r(&seed) % (c + 1), k = order[c];
        order[c] = order[j];
        order[j] = k;
      }
      for (int k = 0; k < Contenders; ++k) {
        int c = order[k];
        double start = 0;
        for (int rep = 0; rep <= warm; ++rep) { /* warm untimed, one timed */
          start = now();
          if (c == 0)
            gatherProgramRunInto(program, inputs, inputShapes, outputs,
                                 outputShapes, error, sizeof(error));
          else
            call(c - 1);
        }
        times[c * turns + t] = now() - start;
      }
    }
    /* (memcpy leaves the output holding the data's first bytes: the
       gather's result is checked last.) */
    memset(out, 0xA5, wantBytes);
    gatherProgramRunInto(program, inputs, inputShapes, outputs, outputShapes,
                         error, sizeof(error));
    if (memcmp(out, want, wantBytes)) {
      fprintf(stderr,
              "paired_c: %s: the gather differs from numpy after the "
              "turns\n",
              name);
      return 1;
    }
    double *ratios = malloc(sizeof(double) * turns);
    double *sorted = malloc(sizeof(double) * turns);
    memcpy(sorted, times, sizeof(double) * turns);
    qsort(sorted, turns, sizeof(double), compareDoubles);
    printf("| %s | %.3f |", name, sorted[turns / 2] * 1e3);
    for (int c = 1; c < Contenders; ++c) {
      for (int t = 0; t < turns; ++t)
        ratios[t] = times[c * turns + t] / times[t];
      qsort(ratios, turns, sizeof(double), compareDoubles);
      printf(" %.2f [%.2f, %.2f] |", ratios[turns / 2], ratios[turns / 4],
             ratios[3 * turns / 4]);
    }
    printf("\n");
    fflush(stdout);
    gatherProgramDestroy(program);
    free(ratios);
    free(sorted);
    free(times);
  }
  return 0;
}
