// kite-test-threads: 1 2 4 8
// kite-test-env: OMP_MAX_TASK_PRIORITY=10
/* priority clause: values up to and beyond max-task-priority-var are
 * accepted, every task runs exactly once, and dependences still order
 * tasks of different priorities. */
#include "kite_test.h"

int main(void) {
  KITE_TEST_BEGIN();
  CHECK_EQ_LONG(omp_get_max_task_priority(), 10);
  int hits[600] = {0};
  long chain = 0;
  int chain_ok = 1;
#pragma omp parallel shared(hits, chain, chain_ok)
#pragma omp single
  {
    for (int i = 0; i < 600; ++i) {
#pragma omp task priority(i % 20) firstprivate(i) shared(hits)
      __atomic_add_fetch(&hits[i], 1, __ATOMIC_RELAXED);
    }
    for (int i = 0; i < 100; ++i) {
      /* A low-priority task must still run before a later high one that
       * depends on it. */
#pragma omp task priority(i % 2 ? 0 : 10) depend(inout: chain) firstprivate(i) shared(chain, chain_ok)
      {
        if (chain != i) chain_ok = 0;
        chain = i + 1;
      }
    }
#pragma omp taskwait
  }
  int bad = 0;
  for (int i = 0; i < 600; ++i) bad += hits[i] != 1;
  CHECK_EQ_LONG(bad, 0);
  CHECK(chain_ok);
  CHECK_EQ_LONG(chain, 100);

  /* One thread: queued tasks start highest priority first (Kite honours
   * the hint exactly when one thread picks from a full queue). */
  if (omp_get_max_threads() == 1) {
    int order[40], n = 0;
#pragma omp parallel shared(order, n)
#pragma omp single
    {
      for (int i = 0; i < 40; ++i) {
#pragma omp task priority(1 + i % 8) firstprivate(i) shared(order, n)
        order[n++] = 1 + i % 8;
      }
#pragma omp taskwait
    }
    CHECK_EQ_LONG(n, 40);
    int inversions = 0;
    for (int i = 1; i < n; ++i) inversions += order[i] > order[i - 1];
    CHECK_EQ_LONG(inversions, 0);
  }
  KITE_TEST_END();
}
