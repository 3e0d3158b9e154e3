/* An undeferred task waiting for its dependences (if(0) task with depend,
 * taskwait depend), whose last predecessor another thread completes: that
 * thread's release lets the creator run, complete and free the waiting task
 * at once, and the creator's next task may reuse the freed block. The
 * completing thread must not touch the waiting task after its release.
 * It did (it read the task's flags to decide how to make it ready): a task
 * created in the recycled block was queued a second time and ran twice,
 * after which the team's task counts were off and the run hung (a plain
 * build, 2-8 threads on 2 cores: about one run in a hundred). A
 * thread-sanitizer build reported that read against the creator's writes
 * on every run. Checked here: every task ran exactly once and after what
 * it depends on, and the run ends.
 * kite-test-threads: 2 4 8 */
#include "kite_test.h"

#define ROUNDS 3000
#define SPIN_LIMIT 200000

static int runs[ROUNDS];
static int order_errors;
static int waited;

static void producer_body(int* x, int* started, int i) {
  __atomic_store_n(started, 1, __ATOMIC_RELEASE);
  for (volatile int k = 0; k < 50; ++k) {
  }
  *x = i;
  __atomic_add_fetch(&runs[i], 1, __ATOMIC_RELAXED);
}

static void round_trip(int i) {
  int x = -1, started = 0;
#pragma omp task depend(out : x) shared(x, started) firstprivate(i)
  producer_body(&x, &started, i);
  /* Leave the producer to another thread: this one does not run tasks
   * while it spins here (it gives up after a while, and runs it itself). */
  for (int k = 0; k < SPIN_LIMIT && !__atomic_load_n(&started, __ATOMIC_ACQUIRE); ++k) {
  }
  if (i % 2) {
#pragma omp task if(0) depend(in : x) shared(x) firstprivate(i)
    {
      if (x != i) __atomic_add_fetch(&order_errors, 1, __ATOMIC_RELAXED);
      __atomic_add_fetch(&waited, 1, __ATOMIC_RELAXED);
    }
  } else {
#pragma omp taskwait depend(in : x)
    if (x != i) __atomic_add_fetch(&order_errors, 1, __ATOMIC_RELAXED);
    __atomic_add_fetch(&waited, 1, __ATOMIC_RELAXED);
  }
}

int main(void) {
  KITE_TEST_BEGIN();
#pragma omp parallel
#pragma omp single
  {
    CHECK(omp_get_num_threads() > 1);
    for (int i = 0; i < ROUNDS; ++i) round_trip(i);
  }
  int wrong = 0;
  for (int i = 0; i < ROUNDS; ++i)
    if (runs[i] != 1) {
      if (wrong++ < 5) fprintf(stderr, "producer %d ran %d times\n", i, runs[i]);
    }
  CHECK_EQ_LONG(wrong, 0);
  CHECK_EQ_LONG(order_errors, 0);
  CHECK_EQ_LONG(waited, ROUNDS);
  KITE_TEST_END();
}
