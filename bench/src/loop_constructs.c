/* Test kernels of the worksharing loops: the loop constructs with one
 * iteration per thread (the cost of starting and ending a loop), and the
 * schedule sweep with iters_per_thread iterations per thread and a chunk
 * size taken from `arg` (the cost of handing out chunks). */
#include "constructs.h"

void k_for_static(const bench_params* p, long inner, long arg) {
  (void)arg;
  int n = p->threads;
#pragma omp parallel num_threads(n)
  for (long j = 0; j < inner; ++j) {
#pragma omp for schedule(static)
    for (int i = 0; i < n; ++i) bench_delay();
  }
}

void k_for_static_chunk(const bench_params* p, long inner, long arg) {
  (void)arg;
  int n = p->threads;
#pragma omp parallel num_threads(n)
  for (long j = 0; j < inner; ++j) {
#pragma omp for schedule(static, 1)
    for (int i = 0; i < n; ++i) bench_delay();
  }
}

void k_for_dynamic(const bench_params* p, long inner, long arg) {
  (void)arg;
  int n = p->threads;
#pragma omp parallel num_threads(n)
  for (long j = 0; j < inner; ++j) {
#pragma omp for schedule(dynamic, 1)
    for (int i = 0; i < n; ++i) bench_delay();
  }
}

void k_for_guided(const bench_params* p, long inner, long arg) {
  (void)arg;
  int n = p->threads;
#pragma omp parallel num_threads(n)
  for (long j = 0; j < inner; ++j) {
#pragma omp for schedule(guided, 1)
    for (int i = 0; i < n; ++i) bench_delay();
  }
}

/* Combined construct: a region and a loop per instance (reference: serial). */
void k_parallel_for(const bench_params* p, long inner, long arg) {
  (void)arg;
  int n = p->threads;
  for (long j = 0; j < inner; ++j) {
#pragma omp parallel for num_threads(n) schedule(static)
    for (int i = 0; i < n; ++i) bench_delay();
  }
}

/* Every iteration passes through its ordered region in turn: `inner`
 * ordered regions, serialised, against `inner` delays on one thread. */
void k_ordered(const bench_params* p, long inner, long arg) {
  (void)arg;
#pragma omp parallel for num_threads(p->threads) schedule(static, 1) ordered
  for (long j = 0; j < inner; ++j) {
#pragma omp ordered
    bench_delay();
  }
}

/* --- schedule sweep ------------------------------------------------------ */

void ref_sched(const bench_params* p, long inner, long arg) {
  (void)arg;
  int per = p->iters_per_thread;
#pragma omp parallel num_threads(p->threads)
  for (long j = 0; j < inner; ++j)
    for (int i = 0; i < per; ++i) bench_delay();
}

void k_sched_static(const bench_params* p, long inner, long chunk) {
  int total = p->iters_per_thread * p->threads, c = (int)chunk;
#pragma omp parallel num_threads(p->threads)
  for (long j = 0; j < inner; ++j) {
#pragma omp for schedule(static, c)
    for (int i = 0; i < total; ++i) bench_delay();
  }
}

void k_sched_dynamic(const bench_params* p, long inner, long chunk) {
  int total = p->iters_per_thread * p->threads, c = (int)chunk;
#pragma omp parallel num_threads(p->threads)
  for (long j = 0; j < inner; ++j) {
#pragma omp for schedule(dynamic, c)
    for (int i = 0; i < total; ++i) bench_delay();
  }
}

void k_sched_guided(const bench_params* p, long inner, long chunk) {
  int total = p->iters_per_thread * p->threads, c = (int)chunk;
#pragma omp parallel num_threads(p->threads)
  for (long j = 0; j < inner; ++j) {
#pragma omp for schedule(guided, c)
    for (int i = 0; i < total; ++i) bench_delay();
  }
}
