/* kite trace --start-after/--duration/--regions: a program in timed phases,
 * each one parallel region marked "@name" on its line (cli_tests.py reads
 * the lines from here):
 *  - A, 0 to 0.6 s after the start: 2 threads taking a critical section;
 *  - B, 0.6 to 1.2 s: 2 threads, each opening a nested region of 2, then one
 *    creates tasks that take a lock, until 1.2 s;
 *  - C, 1.2 to 1.5 s: as A.
 * "The start" is taken after a first region, once the runtime (and the
 * tool) started. */
#include <omp.h>
#include <stdio.h>

static double t0;
static volatile double sink;

static double since(void) { return omp_get_wtime() - t0; }

static void work(int n) {
  double s = 0;
  for (int i = 0; i < n; ++i) s += i * 0.5;
  sink = s;
}

static void critical_until(double end) {
  while (since() < end) {
#pragma omp critical
    work(100);
    work(2000);
  }
}

static long tasks;
static omp_lock_t lock;

/* One function per phase: the call of each region has its pragma's line. */
static __attribute__((noinline)) void phase_a(void) {
#pragma omp parallel num_threads(2) /* @regionA */
  critical_until(0.6);
}

static __attribute__((noinline)) void phase_b(void) {
#pragma omp parallel num_threads(2) /* @regionB */
  {
#pragma omp parallel num_threads(2) /* @nestedB */
    work(1000);
#pragma omp single
    while (since() < 1.2) {
#pragma omp task /* @taskB */
      {
        omp_set_lock(&lock);
        work(500);
        omp_unset_lock(&lock);
        work(5000);
      }
      tasks++;
      work(5000);
    }
  }
}

static __attribute__((noinline)) void phase_c(void) {
#pragma omp parallel num_threads(2) /* @regionC */
  critical_until(1.5);
}

int main(void) {
  omp_set_max_active_levels(2);
#pragma omp parallel num_threads(2)
  work(10);
  t0 = omp_get_wtime();
  omp_init_lock(&lock);
  phase_a();
  phase_b();
  phase_c();
  omp_destroy_lock(&lock);
  printf("tasks %ld\n", tasks);
  return tasks > 0 ? 0 : 1;
}
