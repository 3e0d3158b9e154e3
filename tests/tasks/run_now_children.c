/* Tasks their creator runs at once (if(0), and the tasks a producer with a
 * deep queue runs inline) whose own children are deferred: the children,
 * their dependences and grandchildren, and a taskgroup around them, all
 * complete with the right results while the task that created them has
 * already returned from its body.
 * kite-test-threads: 1 2 4 8
 * kite-test-timeout: 120 */
#include "kite_test.h"

#define PRODUCED 2000
#define CHILDREN 3

static long leaves, chain_errors, grandchildren;

static void child_work(int* chain, int k) {
  /* Children of one task are ordered by their dependences on `chain`. */
  if (*chain != k) __atomic_add_fetch(&chain_errors, 1, __ATOMIC_RELAXED);
  *chain = k + 1;
  __atomic_add_fetch(&leaves, 1, __ATOMIC_RELAXED);
}

static void produce(int i) {
  int chain = 0;
  for (int k = 0; k < CHILDREN; ++k) {
#pragma omp task depend(inout : chain) firstprivate(k) shared(chain)
    child_work(&chain, k);
  }
  if (i % 7 == 0) {
#pragma omp task
    {
#pragma omp task
      __atomic_add_fetch(&grandchildren, 1, __ATOMIC_RELAXED);
    }
  }
  /* `chain` lives in this task's frame: wait for the children using it. */
#pragma omp taskwait
  if (chain != CHILDREN) __atomic_add_fetch(&chain_errors, 1, __ATOMIC_RELAXED);
}

static long deferred_children;

static void spawn_and_leave(void) {
  /* Children outlive their parent's body: nothing waits for them here. */
  for (int k = 0; k < 4; ++k) {
#pragma omp task
    __atomic_add_fetch(&deferred_children, 1, __ATOMIC_RELAXED);
  }
}

int main(void) {
  KITE_TEST_BEGIN();
  long in_group = 0;
#pragma omp parallel
#pragma omp single
  {
    /* taskgroup, not taskwait: the grandchildren must be waited for. */
#pragma omp taskgroup
    for (int i = 0; i < PRODUCED; ++i) {
#pragma omp task firstprivate(i)
      produce(i);
    }
    CHECK_EQ_LONG(leaves, (long)PRODUCED * CHILDREN);
    CHECK_EQ_LONG(grandchildren, (PRODUCED + 6) / 7);

    /* Undeferred parents (if(0)) whose children are deferred. */
#pragma omp taskgroup
    for (int i = 0; i < 500; ++i) {
#pragma omp task if (0)
      spawn_and_leave();
    }
    CHECK_EQ_LONG(deferred_children, 500L * 4);

    /* The same inside a taskgroup: the group ends after the grandchildren. */
#pragma omp taskgroup
    {
      for (int i = 0; i < 1000; ++i) {
#pragma omp task
        {
#pragma omp task
          __atomic_add_fetch(&in_group, 1, __ATOMIC_RELAXED);
        }
      }
    }
    CHECK_EQ_LONG(in_group, 1000);
  }
  CHECK_EQ_LONG(chain_errors, 0);
  KITE_TEST_END();
}
