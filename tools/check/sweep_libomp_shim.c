/* Preloaded (before LLVM's libomp) by tools/check/sweep.py when it runs
 * Kite's test programs on libomp: every test first proves it runs on Kite
 * (kite_runtime_version and omp_get_thread_num from one object, see
 * tests/common/kite_test.h) and exits 3 otherwise, before any OpenMP event.
 * This object answers that proof and forwards omp_get_thread_num to the
 * next definition (libomp's), so the program goes on and the checker sees
 * libomp's events. A test may still fail later on a Kite-only expectation;
 * the sweep records its exit status. */
#define _GNU_SOURCE
#include <dlfcn.h>

const char *kite_runtime_version(void) { return "kite (sweep shim over LLVM libomp)"; }

int omp_get_thread_num(void) {
  static int (*next)(void);
  if (!next) next = (int (*)(void))dlsym(RTLD_NEXT, "omp_get_thread_num");
  return next ? next() : 0;
}
