/* kite profile efficiency known answer: a lock convoy. Two threads take
 * one lock TURNS times each, doing all their work (4 ms of CPU time) while
 * holding it: at any moment one works and the other waits (for the lock,
 * or at the end for the other's last turns if the lock was unfair). The
 * hold is long next to a lock hand-off to a sleeping waiter (tens of
 * microseconds on this VM), which no thread works through either.
 * Expected: synchronization 0.5, parallel efficiency 0.5, load balance 1
 * (both threads do the same work). */
#include <omp.h>
#include <stdio.h>

#include "spin.h"

#define TURNS 150

int main(void) {
  omp_lock_t lock;
  omp_init_lock(&lock);
  long turns[2] = {0, 0};
#pragma omp parallel num_threads(2)
  {
    int me = omp_get_thread_num();
    for (int t = 0; t < TURNS; ++t) {
      omp_set_lock(&lock);
      SPIN_MS(4.0);
      omp_unset_lock(&lock);
      ++turns[me];
    }
  }
  omp_destroy_lock(&lock);
  printf("done (%ld and %ld turns)\n", turns[0], turns[1]);
  return 0;
}
