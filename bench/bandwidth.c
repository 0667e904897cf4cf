/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/* What this machine's caches and memory deliver, for reading the memcpy
   goal of W1 and W2 (bench/README.md) as bytes moved against bandwidth
   where the VM has no hardware counters:
     - a read of a buffer of 4 MiB to 512 MiB, cyclic (the same buffer again
       and again, as a benchmark's repeated calls read their data), on one
       thread: the rate falls from the caches' to memory's where the buffer
       stops fitting in the caches, which need not be where the OS says the
       L3 ends (a VM may report a part's L3 and run on another);
     - a copy with non-temporal stores (the memcpy reference's form for
       outputs of W1's and W2's size) and a read alone, on every thread
       (OMP_NUM_THREADS), of W1's output bytes (25.2 MB), W2's (32.8 MB)
       and 512 MiB (past any cache).
   Best of ROUNDS (default 15) each. Buffers are 2 MiB aligned and advised
   for transparent huge pages, as the compiled code's large allocations.

     cc -O2 -march=native -fopenmp bench/bandwidth.c -o /tmp/bandwidth
     OMP_NUM_THREADS=2 /tmp/bandwidth [ROUNDS] */
#include <immintrin.h>
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#if defined(__AVX512F__)
typedef __m512i Vec;
#define LOAD(p) _mm512_load_si512((const void *)(p))
#define STREAM(p, v) _mm512_stream_si512((void *)(p), (v))
#define ADD(a, b) _mm512_add_epi64((a), (b))
#define ZERO() _mm512_setzero_si512()
#elif defined(__AVX2__)
typedef __m256i Vec;
#define LOAD(p) _mm256_load_si256((const __m256i *)(p))
#define STREAM(p, v) _mm256_stream_si256((__m256i *)(p), (v))
#define ADD(a, b) _mm256_add_epi64((a), (b))
#define ZERO() _mm256_setzero_si256()
#else
#error "bandwidth.c needs AVX2 or AVX-512 (-march=native on x86-64)"
#endif

enum { Step = 8 * sizeof(Vec) }; /* bytes per iteration: 8 registers */

static volatile long long sink;

/* Reads bytes [0, n) of `s`, n a multiple of Step. */
static long long readRange(const char *s, size_t n) {
  Vec a = ZERO(), b = ZERO();
  for (size_t i = 0; i < n; i += Step)
    for (int u = 0; u < 8; u += 2) {
      a = ADD(a, LOAD(s + i + u * sizeof(Vec)));
      b = ADD(b, LOAD(s + i + (u + 1) * sizeof(Vec)));
    }
  long long lanes[sizeof(Vec) / sizeof(long long)];
  memcpy(lanes, &a, sizeof(a));
  long long t = lanes[0];
  memcpy(lanes, &b, sizeof(b));
  return t + lanes[0];
}

static void readAll(const char *s, size_t n) {
  long long total = 0;
#pragma omp parallel reduction(+ : total)
  {
    int t = omp_get_thread_num(), threads = omp_get_num_threads();
    size_t chunk = (n / threads) / Step * Step;
    total += readRange(s + t * chunk, chunk);
  }
  sink = total;
}

static void copyStreaming(char *d, const char *s, size_t n) {
#pragma omp parallel
  {
    int t = omp_get_thread_num(), threads = omp_get_num_threads();
    size_t chunk = (n / threads) / Step * Step, begin = t * chunk;
    for (size_t i = begin; i < begin + chunk; i += Step) {
      Vec r[8];
      for (int u = 0; u < 8; ++u)
        r[u] = LOAD(s + i + u * sizeof(Vec));
      for (int u = 0; u < 8; ++u)
        STREAM(d + i + u * sizeof(Vec), r[u]);
    }
    _mm_sfence();
  }
}

int main(int argc, char **argv) {
  int rounds = argc > 1 ? atoi(argv[1]) : 15;
  if (rounds < 1) {
    fprintf(stderr, "ROUNDS must be positive\n");
    return 1;
  }
  size_t big = (size_t)512 << 20;
  char *s = aligned_alloc(1 << 21, big), *d = aligned_alloc(1 << 21, big);
  if (!s || !d) {
    fprintf(stderr, "cannot allocate 2 x 512 MiB\n");
    return 1;
  }
  madvise(s, big, MADV_HUGEPAGE);
  madvise(d, big, MADV_HUGEPAGE);
  memset(s, 1, big);
  memset(d, 2, big);

  printf(
      "cyclic read, one thread, best of %d\n| MiB | GB/s |\n| ---: | ---: |\n",
      rounds);
  const int mib[] = {4, 8, 16, 24, 32, 40, 48, 64, 96, 128, 256, 512};
  for (size_t k = 0; k < sizeof(mib) / sizeof(mib[0]); ++k) {
    size_t n = (size_t)mib[k] << 20;
    double best = 1e30;
    sink = readRange(s, n); /* once untimed: the buffer's lines in place */
    for (int r = 0; r < rounds; ++r) {
      double t = omp_get_wtime();
      sink = readRange(s, n);
      t = omp_get_wtime() - t;
      best = t < best ? t : best;
    }
    printf("| %d | %.1f |\n", mib[k], n / best / 1e9);
  }

  printf("\n%d threads, best of %d\n| bytes | streaming copy (ms) | GB/s "
         "read + written | read (ms) | GB/s |\n| ---: | ---: | ---: | ---: | "
         "---: |\n",
         omp_get_max_threads(), rounds);
  const size_t sizes[] = {25165824 /* W1 */, 32768000 /* W2 */, big};
  for (int k = 0; k < 3; ++k) {
    size_t n = sizes[k];
    double copy = 1e30, read = 1e30;
    copyStreaming(d, s, n);
    for (int r = 0; r < rounds; ++r) {
      double t = omp_get_wtime();
      copyStreaming(d, s, n);
      t = omp_get_wtime() - t;
      copy = t < copy ? t : copy;
      t = omp_get_wtime();
      readAll(s, n);
      t = omp_get_wtime() - t;
      read = t < read ? t : read;
    }
    printf("| %zu | %.3f | %.1f | %.3f | %.1f |\n", n, copy * 1e3,
           2.0 * n / copy / 1e9, read * 1e3, n / read / 1e9);
  }
  free(s);
  free(d);
  return 0;
}
