/* kite profile known answer: a lock held long in one function and briefly
 * elsewhere. For 0.35 s of wall time, thread 0 holds the lock 8 ms
 * (@longhold) then works 0.5 ms outside it; thread 1 holds it 0.5 ms
 * (@shorthold) then works 0.5 ms outside it. Whoever gets the lock when,
 * thread 1 spends most of its time waiting for thread 0's long holds:
 * about 7.5 of every 8.5 ms, i.e. lock blame ~44 % of the thread time,
 * on @longhold. Both threads stop at the same deadline, so no barrier
 * waiting comes in. */
#include <omp.h>
#include <stdio.h>

#include "spin.h"

static omp_lock_t lock;

static void long_holder(void) {
  omp_set_lock(&lock);
  SPIN_MS(8.0); /* @longhold */
  omp_unset_lock(&lock);
}

static void short_holder(void) {
  omp_set_lock(&lock);
  SPIN_MS(0.5); /* @shorthold */
  omp_unset_lock(&lock);
}

int main(void) {
  omp_init_lock(&lock);
  double deadline = kp_now() + 0.35;
  int rounds[2] = {0, 0};
#pragma omp parallel num_threads(2)
  {
    int me = omp_get_thread_num();
    while (kp_now() < deadline) {
      if (me == 0)
        long_holder();
      else
        short_holder();
      SPIN_MS(0.5);
      rounds[me]++;
    }
  }
  omp_destroy_lock(&lock);
  printf("done %d %d\n", rounds[0], rounds[1]);
  return 0;
}
