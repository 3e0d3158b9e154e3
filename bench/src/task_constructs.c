/* Test kernels of the tasking constructs. Each task body is one delay, and
 * every kernel gives the team `inner` delays per thread in total, so with
 * perfect distribution it lasts as long as its reference (`inner` delays
 * per thread in one region); the rest is spawning, scheduling and waiting.
 * The dependence chain is serial by nature: its reference is serial too. */
#include "constructs.h"

/* One thread creates all tasks; the region's closing barrier runs them. */
void k_task_one_producer(const bench_params* p, long inner, long arg) {
  (void)arg;
  long count = inner * p->threads;
#pragma omp parallel num_threads(p->threads)
#pragma omp single
  for (long j = 0; j < count; ++j) {
#pragma omp task
    bench_delay();
  }
}

void k_task_all_producers(const bench_params* p, long inner, long arg) {
  (void)arg;
#pragma omp parallel num_threads(p->threads)
  for (long j = 0; j < inner; ++j) {
#pragma omp task
    bench_delay();
  }
}

/* Every thread spawns a task and waits for it, `inner` times. */
void k_taskwait(const bench_params* p, long inner, long arg) {
  (void)arg;
#pragma omp parallel num_threads(p->threads)
  for (long j = 0; j < inner; ++j) {
#pragma omp task
    bench_delay();
#pragma omp taskwait
  }
}

void k_taskgroup(const bench_params* p, long inner, long arg) {
  (void)arg;
#pragma omp parallel num_threads(p->threads)
  for (long j = 0; j < inner; ++j) {
#pragma omp taskgroup
    {
#pragma omp task
      bench_delay();
    }
  }
}

/* One thread runs `inner` taskloops of one iteration per thread each. */
void k_taskloop(const bench_params* p, long inner, long arg) {
  (void)arg;
  int n = p->threads;
#pragma omp parallel num_threads(n)
#pragma omp single
  for (long j = 0; j < inner; ++j) {
#pragma omp taskloop grainsize(1)
    for (int i = 0; i < n; ++i) bench_delay();
  }
}

/* A chain of `inner` tasks, each depending on the one before. */
void k_task_dep_chain(const bench_params* p, long inner, long arg) {
  (void)arg;
  int token = 0;
#pragma omp parallel num_threads(p->threads)
#pragma omp single
  for (long j = 0; j < inner; ++j) {
#pragma omp task depend(inout : token) shared(token)
    {
      bench_delay();
      token++;
    }
  }
  __asm__ volatile("" : : "r"(token));
}
