/* kite trace: a long run (LOCKS lock/unset pairs per thread: millions of
 * events) that must stay within its memory bound. Prints its peak resident
 * size (ru_maxrss, KiB) at the end: "maxrss <kib>". */
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/resource.h>

int main(int argc, char **argv) {
  long locks = argc > 1 ? atol(argv[1]) : 500000;
  omp_lock_t lock;
  omp_init_lock(&lock);
  long count = 0;
#pragma omp parallel num_threads(2)
  for (long i = 0; i < locks; ++i) {
    omp_set_lock(&lock);
    count++;
    omp_unset_lock(&lock);
  }
  omp_destroy_lock(&lock);
  struct rusage ru;
  getrusage(RUSAGE_SELF, &ru);
  printf("count %ld maxrss %ld\n", count, ru.ru_maxrss);
  return count == 2 * locks ? 0 : 1;
}
