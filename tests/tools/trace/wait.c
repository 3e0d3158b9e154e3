/* kite trace: a program to signal. It records LOCKS lock/unset pairs per
 * thread in one parallel region (argument 1, default 1000), prints
 * "ready <pid>" and then waits for a signal; never signalled, it gives up
 * after 100 s with status 9, so a broken test cannot hang. */
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

int main(int argc, char **argv) {
  long locks = argc > 1 ? atol(argv[1]) : 1000;
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
  printf("ready %d count %ld\n", (int)getpid(), count);
  fflush(stdout);
  for (int i = 0; i < 100; ++i) sleep(1);
  return 9;
}
