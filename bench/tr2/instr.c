/* Instructions one construct costs, counted by callgrind (bench/tr2/count):
 * `instr KERNEL N` runs the kernel N times on one thread, so the count
 * does not depend on how threads are scheduled, and the difference between
 * two values of N divided by their difference is the cost of one. */
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static omp_lock_t lock;
static int sink;

int main(int argc, char** argv) {
  if (argc != 3) {
    fprintf(stderr, "usage: instr parallel|barrier|lock|critical N\n");
    return 2;
  }
  const char* k = argv[1];
  long n = atol(argv[2]);
  omp_init_lock(&lock);
  if (strcmp(k, "parallel") == 0) {
    for (long i = 0; i < n; ++i) {
#pragma omp parallel num_threads(1)
      sink += 1;
    }
  } else if (strcmp(k, "barrier") == 0) {
#pragma omp parallel num_threads(1)
    for (long i = 0; i < n; ++i) {
#pragma omp barrier
    }
  } else if (strcmp(k, "lock") == 0) {
    for (long i = 0; i < n; ++i) {
      omp_set_lock(&lock);
      sink += 1;
      omp_unset_lock(&lock);
    }
  } else if (strcmp(k, "critical") == 0) {
    for (long i = 0; i < n; ++i) {
#pragma omp critical
      sink += 1;
    }
  } else {
    fprintf(stderr, "instr: unknown kernel %s\n", k);
    return 2;
  }
  omp_destroy_lock(&lock);
  return sink < 0;
}
