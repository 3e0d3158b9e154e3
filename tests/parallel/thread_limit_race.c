// kite-test-threads: 2
// kite-test-env: OMP_THREAD_LIMIT=3 OMP_MAX_ACTIVE_LEVELS=4
// kite-test-libs: dl pthread
/* Two threads of one contention group fork nested teams at the same time
 * under OMP_THREAD_LIMIT=3: together the two inner teams may hold at most 3
 * threads, whatever the interleaving. A runtime that reads the group's free
 * thread count, then assembles the team, then reserves the threads, lets a
 * second fork in between see the same free count.
 *
 * That window is too narrow to hit by timing alone on a loaded machine, so
 * this program widens it: it interposes pthread_mutex_lock and, on the
 * primary thread only while it forks its inner team, sleeps for a moment
 * inside the runtime's fork and tells the other thread to fork now. A runtime
 * that takes no mutex during the fork is not slowed, and the other thread
 * then forks after it (the test still passes when the runtime is right). */
#include "kite_test.h"

#include <pthread.h>
#include <time.h>

#include "par_util.h"

#define LIMIT 3

static __thread int slow_down_this_thread;
static int slowed; /* the primary is asleep inside the runtime's fork */

int pthread_mutex_lock(pthread_mutex_t* m) {
  static int (*real)(pthread_mutex_t*);
  if (!real) real = (int (*)(pthread_mutex_t*))dlsym(RTLD_NEXT, "pthread_mutex_lock");
  if (slow_down_this_thread) {
    slow_down_this_thread = 0;
    __atomic_store_n(&slowed, 1, __ATOMIC_RELEASE);
    struct timespec nap = {0, 20000000};
    nanosleep(&nap, NULL);
  }
  return real(m);
}

int main(void) {
  KITE_TEST_BEGIN();
  omp_set_dynamic(0);
  CHECK_EQ_LONG(omp_get_thread_limit(), LIMIT);
  int widened = 0;
  for (int round = 0; round < 10; ++round) {
    int entered = 0, outer_n = 0;
    int inner[2] = {0, 0};
    __atomic_store_n(&slowed, 0, __ATOMIC_RELAXED);
#pragma omp parallel num_threads(2)
    {
      int o = omp_get_thread_num(), n = omp_get_num_threads();
      if (o == 0) {
        __atomic_store_n(&outer_n, n, __ATOMIC_RELEASE);
        slow_down_this_thread = 1;
      } else {
        /* Fork while the primary is inside its fork, or once its inner team
         * exists if the runtime gave us no hook to wait on. */
        for (int i = 0; i < 2000 && !__atomic_load_n(&slowed, __ATOMIC_ACQUIRE) &&
                        !__atomic_load_n(&entered, __ATOMIC_ACQUIRE);
             ++i) {
          struct timespec nap = {0, 50000};
          nanosleep(&nap, NULL);
        }
      }
#pragma omp parallel num_threads(3)
      {
        slow_down_this_thread = 0;
        if (omp_get_thread_num() == 0) {
          inner[o] = omp_get_num_threads();
          __atomic_add_fetch(&entered, 1, __ATOMIC_ACQ_REL);
        }
        /* Keep every inner team whole until every outer thread forked. */
        par_wait_at_least(&entered, __atomic_load_n(&outer_n, __ATOMIC_ACQUIRE), 2.0);
      }
      if (o == 0) slow_down_this_thread = 0;
    }
    widened += __atomic_load_n(&slowed, __ATOMIC_ACQUIRE);
    if (inner[0] + inner[1] > LIMIT) {
      fprintf(stderr,
              "round %d: two concurrent inner teams of %d and %d threads: %d threads in one "
              "contention group with OMP_THREAD_LIMIT=%d\n",
              round, inner[0], inner[1], inner[0] + inner[1], LIMIT);
      CHECK(inner[0] + inner[1] <= LIMIT);
      break;
    }
    CHECK(inner[0] >= 1 && inner[1] >= 1);
  }
  printf("fork window widened in %d rounds\n", widened);
  KITE_TEST_END();
}
