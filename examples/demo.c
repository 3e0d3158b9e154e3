/* A small OpenMP program: a parallel region, a worksharing loop with a
 * reduction, and a critical section. Built against the system libgomp; run it
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
  return 0;
}
