/* A small OpenMP program: a parallel region, a worksharing loop with a
 * reduction, a critical section, and a pipeline of tasks ordered by
 * dependences (what `./run.sh demo` traces). Built against the system libgomp; run it
 * on Kite with LD_LIBRARY_PATH=<build>/gomp (see README). */
#include <dlfcn.h>
#include <omp.h>
#include <stdio.h>

int main(void) {
  const char* (*kite_version)(void) =
      (const char* (*)(void))dlsym(RTLD_DEFAULT, "kite_runtime_version");
  printf("runtime: %s\n", kite_version ? kite_version() : "not Kite (system libgomp?)");

  int team = 0;
#pragma omp parallel
  {
#pragma omp single
    team = omp_get_num_threads();
  }
  printf("parallel region: %d threads\n", team);

  const long n = 10000000;
  double sum = 0;
  double t0 = omp_get_wtime();
#pragma omp parallel for reduction(+ : sum) schedule(dynamic, 4096)
  for (long i = 0; i < n; ++i) sum += 1.0 / ((double)i + 1.0);
  double t1 = omp_get_wtime();
  printf("harmonic(%ld) = %.6f in %.3f ms\n", n, sum, (t1 - t0) * 1e3);

  int hits = 0;
#pragma omp parallel
  {
#pragma omp critical
    hits++;
  }
  printf("critical section entered %d times\n", hits);

  /* A 3-stage pipeline over 4 blocks: stage s of block b waits for stage
   * s-1 of block b (depend in/out on the block's slot). */
  enum { BLOCKS = 4, STAGES = 3 };
  double block[BLOCKS] = {0};
#pragma omp parallel
#pragma omp single
  for (int b = 0; b < BLOCKS; ++b)
    for (int s = 0; s < STAGES; ++s) {
#pragma omp task depend(inout : block[b]) firstprivate(b, s)
      {
        double x = 0;
        for (long i = 0; i < 200000 * (s + 1); ++i) x += 1.0 / (double)(i + b + 1);
        block[b] += x;
      }
    }
  double all = 0;
  for (int b = 0; b < BLOCKS; ++b) all += block[b];
  printf("pipeline of %d tasks: %.6f\n", BLOCKS * STAGES, all);
  return 0;
}
