/* Test kernels of the synchronisation constructs. Each runs `inner`
 * instances; per-thread work is the same number of delays as its reference
 * kernel (named in constructs.c), so the difference is the construct. */
#include <omp.h>

#include "constructs.h"

/* Fork/join: one region per instance, one delay per thread inside. */
void k_parallel(const bench_params* p, long inner, long arg) {
  (void)arg;
  for (long j = 0; j < inner; ++j) {
#pragma omp parallel num_threads(p->threads)
    bench_delay();
  }
}

void k_barrier(const bench_params* p, long inner, long arg) {
  (void)arg;
#pragma omp parallel num_threads(p->threads)
  for (long j = 0; j < inner; ++j) {
    bench_delay();
#pragma omp barrier
  }
}

void k_single(const bench_params* p, long inner, long arg) {
  (void)arg;
#pragma omp parallel num_threads(p->threads)
  for (long j = 0; j < inner; ++j) {
#pragma omp single
    bench_delay();
  }
}

/* The serialising constructs share `inner` instances among the team; their
 * reference is `inner` delays on one thread. */
void k_critical(const bench_params* p, long inner, long arg) {
  (void)arg;
  long share = inner / p->threads;
#pragma omp parallel num_threads(p->threads)
  for (long j = 0; j < share; ++j) {
#pragma omp critical
    bench_delay();
  }
}

void k_lock(const bench_params* p, long inner, long arg) {
  (void)arg;
  long share = inner / p->threads;
  omp_lock_t lock;
  omp_init_lock(&lock);
#pragma omp parallel num_threads(p->threads)
  for (long j = 0; j < share; ++j) {
    omp_set_lock(&lock);
    bench_delay();
    omp_unset_lock(&lock);
  }
  omp_destroy_lock(&lock);
}

/* Atomic updates: every thread updates the one shared variable `inner`
 * times, between delays; the reference is the same delays in one region. */
static double atomic_target;
static long double atomic_target_wide;

/* gcc turns this into an inline compare-and-swap loop: no runtime call, so
 * every runtime should measure the same. A control for machine noise. */
void k_atomic(const bench_params* p, long inner, long arg) {
  (void)arg;
#pragma omp parallel num_threads(p->threads)
  for (long j = 0; j < inner; ++j) {
#pragma omp atomic
    atomic_target += 1.0;
    bench_delay();
  }
}

/* A long double update has no lock-free form here, so gcc brackets it with
 * GOMP_atomic_start/GOMP_atomic_end: the runtime's atomic lock. */
void k_atomic_runtime(const bench_params* p, long inner, long arg) {
  (void)arg;
#pragma omp parallel num_threads(p->threads)
  for (long j = 0; j < inner; ++j) {
#pragma omp atomic
    atomic_target_wide += 1.0L;
    bench_delay();
  }
}

/* One region with a reduction per instance (compare with `parallel`). */
void k_reduction(const bench_params* p, long inner, long arg) {
  (void)arg;
  long total = 0;
  for (long j = 0; j < inner; ++j) {
#pragma omp parallel num_threads(p->threads) reduction(+ : total)
    {
      bench_delay();
      total += 1;
    }
  }
  __asm__ volatile("" : : "r"(total));
}
