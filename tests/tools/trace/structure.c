/* kite trace: a program whose structure is known, traced by
 * tests/tools/trace/check_trace.py. Each construct the checker looks for is
 * marked with a comment "@name" on its line; the checker finds the line
 * numbers in this file, so the marks can move.
 *
 *  - parallel region, 3 threads, REPS times, each with a dynamic loop of
 *    ITERS iterations and a critical section per thread;
 *  - a region with tasks: a chain t1 -> t2 -> t3 through depend clauses
 *    (2 dependence edges) and FREE independent tasks;
 *  - locks: each of 2 threads sets (through an inlined function) and
 *    unsets one lock LOCKS times;
 *  - a nested region (2 x 2 threads).
 * It prints the runtime it ran on (checked against the trace). */
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>

#define REPS 4
#define ITERS 1000
#define FREE 6
#define LOCKS 50

static volatile double sink;
static int chain_made;

/* Always inlined: the trace must name it, and where it was inlined. */
static inline __attribute__((always_inline)) void take(omp_lock_t *l) {
  omp_set_lock(l); /* @take */
}

static void work(int n) {
  double s = 0;
  for (int i = 0; i < n; ++i) s += i * 0.5;
  sink = s;
}

int main(void) {
  long total = 0;
  for (int rep = 0; rep < REPS; ++rep) {
#pragma omp parallel num_threads(3) reduction(+ : total) /* @parallel */
    {
#pragma omp for schedule(dynamic, 10) /* @loop */
      for (int i = 0; i < ITERS; ++i) total += i;
#pragma omp critical /* @critical */
      work(100);
    }
  }
  if (total != (long)REPS * ITERS * (ITERS - 1) / 2) {
    fprintf(stderr, "wrong loop total %ld\n", total);
    return 1;
  }

  int x = 0, y = 0, z = 0;
#pragma omp parallel num_threads(2) /* @taskregion */
#pragma omp single
  {
#pragma omp task depend(out : x) /* @t1 */
    {
      /* Finish only once t2 and t3 exist, so both edges are real at their
       * creation (bounded: a runtime may run t1 at t2's creation point). */
      double until = omp_get_wtime() + 1.0;
      while (!__atomic_load_n(&chain_made, __ATOMIC_ACQUIRE) && omp_get_wtime() < until)
        work(100);
      x = 1;
    }
#pragma omp task depend(in : x) depend(out : y) /* @t2 */
    y = x + 1;
#pragma omp task depend(in : y) /* @t3 */
    z = y + 1;
    __atomic_store_n(&chain_made, 1, __ATOMIC_RELEASE);
    for (int i = 0; i < FREE; ++i) {
#pragma omp task /* @free */
      work(5000);
    }
#pragma omp taskwait /* @taskwait */
  }
  if (z != 3) {
    fprintf(stderr, "wrong dependence chain result %d\n", z);
    return 1;
  }

  omp_lock_t lock;
  omp_init_lock(&lock);
  int counter = 0;
#pragma omp parallel num_threads(2) /* @lockregion */
  for (int i = 0; i < LOCKS; ++i) {
    take(&lock); /* @set */
    counter++;
    work(200);
    omp_unset_lock(&lock);
  }
  omp_destroy_lock(&lock);
  if (counter != 2 * LOCKS) return 1;

  omp_set_max_active_levels(2);
#pragma omp parallel num_threads(2) /* @outer */
  {
#pragma omp parallel num_threads(2) /* @inner */
    work(1000);
  }
  printf("done\n");
  return 0;
}
