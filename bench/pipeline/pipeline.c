/* Times the LU-shaped pipelined sweep of pipeline_kernel.h on whatever
 * runtime the program was loaded with, and checks its answer.
 *   pipeline ROWS COLS REPS   (threads: OMP_NUM_THREADS)
 * Prints one line: runtime threads seconds-per-sweep (median of REPS) ok. */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "pipeline_kernel.h"

static double now(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

static int cmp_double(const void* a, const void* b) {
  double x = *(const double*)a, y = *(const double*)b;
  return (x > y) - (x < y);
}

int main(int argc, char** argv) {
  long rows = argc > 1 ? atol(argv[1]) : 2000;
  long cols = argc > 2 ? atol(argv[2]) : 4096;
  int reps = argc > 3 ? atoi(argv[3]) : 5;
  if (rows < 1 || cols < 1 || reps < 1 || reps > 1000) {
    fprintf(stderr, "usage: pipeline [ROWS COLS REPS] (positive; REPS <= 1000)\n");
    return 2;
  }
  const size_t cells = (size_t)(rows + 1) * (size_t)(cols + 1);
  unsigned* want = calloc(cells, sizeof(unsigned));
  unsigned* got = calloc(cells, sizeof(unsigned));
  double* t = calloc((size_t)reps, sizeof(double));
  if (!want || !got || !t) {
    fprintf(stderr, "pipeline: out of memory\n");
    return 2;
  }
  pipeline_boundary(want, rows, cols);
  pipeline_reference(want, rows, cols);
  const char* (*kite)(void) = (const char* (*)(void))dlsym(RTLD_DEFAULT, "kite_runtime_version");
  Dl_info where;
  const char* lib = dladdr((void*)&omp_get_thread_num, &where) && where.dli_fname ? where.dli_fname : "?";
  const char* runtime = kite ? kite() : strstr(lib, "libomp") ? "libomp" : strstr(lib, "libgomp") ? "libgomp" : lib;
  int threads = omp_get_max_threads(), team = 0, ok = 1;
  for (int r = 0; r < reps; ++r) {
    memset(got, 0, cells * sizeof(unsigned));
    pipeline_boundary(got, rows, cols);
    double t0 = now();
    team = pipeline_sweep(got, rows, cols, threads);
    t[r] = now() - t0;
    if (memcmp(got, want, cells * sizeof(unsigned)) != 0) ok = 0;
  }
  qsort(t, (size_t)reps, sizeof(double), cmp_double);
  printf("%s threads=%d seconds=%.6f min=%.6f %s\n", runtime, team, t[reps / 2], t[0],
         ok ? "verified" : "WRONG");
  free(want);
  free(got);
  free(t);
  return ok ? 0 : 1;
}
