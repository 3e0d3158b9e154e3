// Threads that load, unload and walk libraries while they are sampled at a
// high rate: the handlers' unwinds look new code addresses up through the
// loader's lock while other threads hold it (dlopen, dlclose,
// dl_iterate_phdr). check_unwind_gate.py runs it and checks that it ends
// (no handler waits for another forever), that the samples in leaf() carry
// its callers, and what the tool says it skipped.
#define _GNU_SOURCE
#include <dlfcn.h>
#include <link.h>
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

static double now(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return t.tv_sec + t.tv_nsec * 1e-9;
}

static int count_objects(struct dl_phdr_info *info, size_t size, void *arg) {
  (void)info;
  (void)size;
  ++*(int *)arg;
  return 0;
}

__attribute__((noinline)) static double leaf(double x) {  // @leaf
  double t0 = now();
  while (now() - t0 < 200e-6) x = x * 1.0000001 + 1e-9;
  return x;
}

__attribute__((noinline)) static double middle(double x) { return leaf(x) + 1.0; }

int main(int argc, char **argv) {
  double seconds = argc > 1 ? atof(argv[1]) : 1.5;
  void *probe = dlsym(RTLD_DEFAULT, "kite_runtime_version");
  const char *(*version)(void) = (const char *(*)(void))probe;
  double sum = 0;
  long loads = 0;
#pragma omp parallel reduction(+ : sum, loads)
  {
    double end = now() + seconds;
    double x = omp_get_thread_num();
    while (now() < end) {
      // Threads 0 and 1 load and unload, the others walk the loaded objects.
      if (omp_get_thread_num() < 2) {
        void *h = dlopen("libutil.so.1", RTLD_NOW | RTLD_LOCAL);
        if (h) {
          dlclose(h);
          ++loads;
        }
      } else {
        int n = 0;
        dl_iterate_phdr(count_objects, &n);
        loads += n > 0;
      }
      x = middle(x);
    }
    sum += x;
  }
  printf("runtime: %s\nthreads: %d\nloads: %ld\nOK %g\n", version ? version() : "other",
         omp_get_max_threads(), loads, sum);
  return 0;
}
