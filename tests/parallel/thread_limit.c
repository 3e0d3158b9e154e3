// kite-test-threads: 1 2 4 8
// kite-test-env: OMP_THREAD_LIMIT=3 OMP_MAX_ACTIVE_LEVELS=4
// kite-test-libs: pthread
/* OMP_THREAD_LIMIT=3 bounds the whole contention group: no team, and no set
 * of concurrently running nested teams, may hold more than 3 threads. Each
 * outer thread starts an inner region at the same time as the others (they
 * rendezvous inside the inner regions, so all inner teams are alive at once);
 * the sum of the inner team sizes is the group's thread count. */
#include "kite_test.h"

#include <pthread.h>

#include "par_util.h"

#define LIMIT 3

/* Each user thread is the initial thread of its own contention group, with
 * its own limit: two of them at once both get full teams of LIMIT. */
static int groups_in, group_sizes[2];

static void* group_main(void* arg) {
  int g = (int)(long)arg;
#pragma omp parallel num_threads(LIMIT)
  {
    if (omp_get_thread_num() == 0) {
      group_sizes[g] = omp_get_num_threads();
      __atomic_add_fetch(&groups_in, 1, __ATOMIC_ACQ_REL);
    }
    par_wait_at_least(&groups_in, 2, 2.0);
  }
  return NULL;
}

int main(void) {
  KITE_TEST_BEGIN();
  omp_set_dynamic(0);
  CHECK_EQ_LONG(omp_get_thread_limit(), LIMIT);

  int outer = -1;
#pragma omp parallel num_threads(8)
  {
    if (omp_get_thread_num() == 0) outer = omp_get_num_threads();
    CHECK_EQ_LONG(omp_get_thread_limit(), LIMIT);
  }
  CHECK(outer >= 1 && outer <= LIMIT);
  CHECK_EQ_LONG(outer, LIMIT);  /* nothing else is running: all 3 granted */

  /* Both outer threads fork an inner region at about the same time; each
   * inner team stays alive until every outer thread has forked, so all inner
   * teams exist at once and the sum of their sizes is the number of threads
   * the group runs. (thread_limit_race.c forces the worst interleaving.) */
  for (int round = 0; round < 200; ++round) {
    int entered = 0, ready = 0, outer_n = 0;
    int inner[2] = {0, 0};
#pragma omp parallel num_threads(2)
    {
      int o = omp_get_thread_num(), n = omp_get_num_threads();
      if (o == 0) __atomic_store_n(&outer_n, n, __ATOMIC_RELEASE);
      __atomic_add_fetch(&ready, 1, __ATOMIC_ACQ_REL);
      par_wait_at_least(&ready, n, 2.0);
#pragma omp parallel num_threads(3)
      {
        if (omp_get_thread_num() == 0) {
          inner[o] = omp_get_num_threads();
          __atomic_add_fetch(&entered, 1, __ATOMIC_ACQ_REL);
        }
        /* Keep every inner team whole until every outer thread forked. */
        par_wait_at_least(&entered, __atomic_load_n(&outer_n, __ATOMIC_ACQUIRE), 2.0);
      }
    }
    if (inner[0] + inner[1] > LIMIT) {
      fprintf(stderr,
              "round %d: the two outer threads' inner teams ran at the same time with %d and "
              "%d threads: %d threads in one contention group, OMP_THREAD_LIMIT=%d\n",
              round, inner[0], inner[1], inner[0] + inner[1], LIMIT);
      CHECK(inner[0] + inner[1] <= LIMIT);
      break;
    }
  }

  pthread_t g[2];
  for (long i = 0; i < 2; ++i) CHECK(pthread_create(&g[i], NULL, group_main, (void*)i) == 0);
  for (int i = 0; i < 2; ++i) pthread_join(g[i], NULL);
  CHECK_EQ_LONG(group_sizes[0], LIMIT);
  CHECK_EQ_LONG(group_sizes[1], LIMIT);

  /* A region after the nested ones gets the full limit again: the group's
   * accounting was returned. */
  int after = -1;
#pragma omp parallel num_threads(LIMIT)
#pragma omp master
  after = omp_get_num_threads();
  CHECK_EQ_LONG(after, LIMIT);
  KITE_TEST_END();
}
