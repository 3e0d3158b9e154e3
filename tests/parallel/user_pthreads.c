// kite-test-threads: 1 2 4
// kite-test-libs: pthread
/* Several user pthreads start parallel regions at the same time. Each is an
 * initial thread of its own contention group: level 0 outside, full teams of
 * the size it asks for, its own thread numbering, and no thread shared
 * between two teams that run concurrently. */
#include "kite_test.h"

#include <pthread.h>

#define USERS 4
#define REGIONS 300

struct user {
  int index;
  int failures;
  long sum;
};


static void* user_main(void* arg) {
  struct user* u = (struct user*)arg;
  if (omp_get_level() != 0 || omp_in_parallel() || omp_get_thread_num() != 0) u->failures++;
  omp_set_dynamic(0);
  omp_set_num_threads(2 + u->index % 2); /* this thread's own nthreads-var */
  for (int r = 0; r < REGIONS; ++r) {
    int want = 1 + (r + u->index) % 3;
    int size = 0, count = 0;
    long sum = 0;
#pragma omp parallel num_threads(want) reduction(+ : sum)
    {
      if (omp_get_thread_num() == 0) size = omp_get_num_threads();
      if (omp_get_level() != 1) __atomic_add_fetch(&u->failures, 1, __ATOMIC_RELAXED);
      __atomic_add_fetch(&count, 1, __ATOMIC_RELAXED);
      sum += omp_get_thread_num() + 1;
    }
    if (size != want || count != want || sum != (long)want * (want + 1) / 2) {
      fprintf(stderr, "user %d region %d: asked %d, team %d, ran %d, sum %ld\n", u->index, r,
              want, size, count, sum);
      u->failures++;
      break;
    }
    u->sum += sum;
    /* Default-sized region: this thread's nthreads-var, not another's. */
    int dsize = 0;
#pragma omp parallel
    if (omp_get_thread_num() == 0) dsize = omp_get_num_threads();
    if (dsize != 2 + u->index % 2) {
      fprintf(stderr, "user %d: default team %d, expected %d\n", u->index, dsize,
              2 + u->index % 2);
      u->failures++;
      break;
    }
  }
  return NULL;
}

int main(void) {
  KITE_TEST_BEGIN();
  /* The main thread runs a region first so that the runtime has a hot team
   * and pool before the user threads arrive. */
  int main_size = 0;
#pragma omp parallel num_threads(3)
  if (omp_get_thread_num() == 0) main_size = omp_get_num_threads();
  CHECK_EQ_LONG(main_size, 3);

  pthread_t th[USERS];
  struct user users[USERS];
  for (int i = 0; i < USERS; ++i) {
    users[i].index = i;
    users[i].failures = 0;
    users[i].sum = 0;
    CHECK(pthread_create(&th[i], NULL, user_main, &users[i]) == 0);
  }
  /* The main thread keeps running regions while the others do. */
  for (int r = 0; r < REGIONS; ++r) {
    int count = 0;
#pragma omp parallel num_threads(2)
    __atomic_add_fetch(&count, 1, __ATOMIC_RELAXED);
    if (count != 2) {
      CHECK_EQ_LONG(count, 2);
      break;
    }
  }
  for (int i = 0; i < USERS; ++i) {
    pthread_join(th[i], NULL);
    CHECK_EQ_LONG(users[i].failures, 0);
    long expect = 0;
    for (int r = 0; r < REGIONS; ++r) {
      int w = 1 + (r + i) % 3;
      expect += (long)w * (w + 1) / 2;
    }
    CHECK_EQ_LONG(users[i].sum, expect);
  }
  /* User threads that exited gave their workers back: a second wave of
   * threads still gets full teams. */
  for (int i = 0; i < USERS; ++i) {
    users[i].index = i;
    users[i].failures = 0;
    users[i].sum = 0;
    CHECK(pthread_create(&th[i], NULL, user_main, &users[i]) == 0);
  }
  for (int i = 0; i < USERS; ++i) {
    pthread_join(th[i], NULL);
    CHECK_EQ_LONG(users[i].failures, 0);
  }
  KITE_TEST_END();
}
