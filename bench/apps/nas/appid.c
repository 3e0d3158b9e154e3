/* Which OpenMP runtime this process really runs on, printed as one line
 * "runtime: <kite|omp|gomp|unknown> <library> team <n>" by every program of
 * bench/apps/nas (C and Fortran: app_runtime_report_ is the gfortran name).
 * The runner (bench/apps/nas/run) refuses a run whose line names another
 * runtime than its variant, or a team of another size.
 * Kite: kite_runtime_version exists and omp_get_thread_num comes from the
 * same shared object (as tests/common/kite_test.h proves it). */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <omp.h>
#include <stdio.h>
#include <string.h>

void app_runtime_report(void) {
  int team = 0;
#pragma omp parallel
  {
#pragma omp single
    team = omp_get_num_threads();
  }
  const char *name = "unknown", *lib = "?";
  void *ver = dlsym(RTLD_DEFAULT, "kite_runtime_version");
  void *probe = dlsym(RTLD_DEFAULT, "omp_get_thread_num");
  Dl_info a, b;
  if (probe && dladdr(probe, &b) && b.dli_fname) lib = b.dli_fname;
  if (ver && dladdr(ver, &a) && probe && a.dli_fbase == b.dli_fbase) {
    const char *(*fn)(void) = (const char *(*)(void))ver;
    name = strncmp(fn(), "kite ", 5) == 0 ? "kite" : "unknown";
  } else if (strstr(lib, "libomp")) {
    name = "omp";
  } else if (strstr(lib, "libgomp")) {
    name = "gomp";
  }
  printf("runtime: %s %s team %d\n", name, lib, team);
  fflush(stdout);
}

void app_runtime_report_(void) { app_runtime_report(); }
