/* A pipelined sweep in the shape of NPB's LU (its SSOR sweeps): the
 * columns of a grid are split into one block per thread, and each row is
 * swept left to right, so thread t may start row i only after thread t-1
 * has finished row i. The threads wait for each other through flags,
 * spinning on `#pragma omp flush` as LU does (clang makes each flush a
 * __kmpc_flush call; gcc inlines a fence). The flags are read and written
 * with atomic constructs, so the program has no data race.
 *
 * Every cell depends on its left and upper neighbours: a result computed
 * out of order differs from the serial one (pipeline_reference). */
#ifndef KITE_PIPELINE_KERNEL_H
#define KITE_PIPELINE_KERNEL_H

#include <omp.h>
#include <stdlib.h>

/* One cell from its neighbours: integer arithmetic, so runs compare exactly. */
static inline unsigned pipeline_cell(unsigned up, unsigned left, long i, long j) {
  return (up * 31u + left * 17u + (unsigned)(i * 7 + j * 3)) % 1000003u;
}

/* grid is (rows + 1) x (cols + 1); row 0 and column 0 are the boundary. */
static void pipeline_reference(unsigned* grid, long rows, long cols) {
  const long w = cols + 1;
  for (long i = 1; i <= rows; ++i)
    for (long j = 1; j <= cols; ++j)
      grid[i * w + j] = pipeline_cell(grid[(i - 1) * w + j], grid[i * w + j - 1], i, j);
}

static void pipeline_boundary(unsigned* grid, long rows, long cols) {
  const long w = cols + 1;
  for (long j = 0; j <= cols; ++j) grid[j] = (unsigned)(j * 13 + 1);
  for (long i = 1; i <= rows; ++i) grid[i * w] = (unsigned)(i * 11 + 5);
}

/* Sweeps the grid with `threads` threads; returns the team size used.
 * ready[t] (a cache line apart) is LU's isync[t], the hand-shake between
 * threads t and t+1: 1 when t finished a row that t+1 has not yet taken.
 * Both sides spin: t+1 until a row is ready, t until t+1 took the last. */
static int pipeline_sweep(unsigned* grid, long rows, long cols, int threads) {
  enum { kStride = 16 };
  int* ready = (int*)calloc((size_t)threads * kStride, sizeof(int));
  const long w = cols + 1;
  int team = 0;
#pragma omp parallel num_threads(threads)
  {
    const int n = omp_get_num_threads();
    const int t = omp_get_thread_num();
#pragma omp single
    team = n;
    const long lo = 1 + cols * t / n, hi = 1 + cols * (t + 1) / n;
    for (long i = 1; i <= rows; ++i) {
      if (t > 0) {
        /* LU's sync_left: wait for the left neighbour's row i, take it. */
        int* flag = &ready[(t - 1) * kStride];
        for (;;) {
          int v;
#pragma omp atomic read
          v = *flag;
          if (v == 1) break;
#pragma omp flush
        }
#pragma omp flush
#pragma omp atomic write
        *flag = 0;
#pragma omp flush
      }
      for (long j = lo; j < hi; ++j)
        grid[i * w + j] = pipeline_cell(grid[(i - 1) * w + j], grid[i * w + j - 1], i, j);
      if (t < n - 1) {
        /* LU's sync_right: wait until the right neighbour took the last
         * row, then hand it this one. */
        int* flag = &ready[t * kStride];
#pragma omp flush
        for (;;) {
          int v;
#pragma omp atomic read
          v = *flag;
          if (v == 0) break;
#pragma omp flush
        }
#pragma omp flush
#pragma omp atomic write
        *flag = 1;
#pragma omp flush
      }
    }
  }
  free(ready);
  return team;
}

#endif
