/* kite profile known answer: a lock held long in one function and briefly
 * elsewhere. In each of REPS rounds, thread 0 takes the lock and holds it
 * 8 ms (@longhold); thread 1 works 1 ms, then waits about 7 ms for the lock
 * and holds it 0.5 ms (@shorthold); a barrier ends the round. Expected:
 * lock-wait blame on @longhold, 7/(2*8.5) = 41 % of the thread time. */
#include <omp.h>
#include <stdio.h>

#include "spin.h"

#define REPS 40

static omp_lock_t lock;
static volatile int taken;  /* the round whose lock thread 0 has taken */

static void long_holder(int round) {
  omp_set_lock(&lock);
  __atomic_store_n(&taken, round, __ATOMIC_RELEASE);
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
#pragma omp parallel num_threads(2)
  for (int r = 0; r < REPS; ++r) {
    if (omp_get_thread_num() == 0) {
      long_holder(r + 1);
    } else {
      SPIN_MS(1.0);
      while (__atomic_load_n(&taken, __ATOMIC_ACQUIRE) != r + 1) {
      } /* thread 0 takes the lock first */
      short_holder();
    }
#pragma omp barrier
  }
  omp_destroy_lock(&lock);
  printf("done\n");
  return 0;
}
