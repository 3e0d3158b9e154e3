// kite-test-threads: 1 2 4
// kite-test-cflags: -rdynamic -Wno-unused-function
/* OMPT mutex events of the __kmpc_atomic_* entry points that take the
 * atomic lock (long double, complex, the generic 16-byte form,
 * __kmpc_atomic_start/end): per thread, acquire / acquired / released with
 * ompt_mutex_atomic, the wait_atomic state, one wait id shared with
 * GOMP_atomic_start (one lock), and return addresses at the program's call
 * sites. An entry point on a 4-byte object (a CAS loop) reports nothing.
 * Kite's omp-tools.h comes first (the recorder uses 5.1 names). */
#include "../../../include/omp-tools.h"
#include "kite_test.h"
#include <complex.h>
#include <stdint.h>

#include "../../ompt/support/mutex_recorder.h"

typedef struct kmpc_ident ident_t;
void __kmpc_atomic_float10_add(ident_t*, int, long double*, long double);
double _Complex __kmpc_atomic_cmplx8_mul_cpt(ident_t*, int, double _Complex*, double _Complex,
                                             int);
void __kmpc_atomic_cmplx4_add_cpt(ident_t*, int, float _Complex*, float _Complex,
                                  float _Complex*, int);
void __kmpc_atomic_16(ident_t*, int, void*, void*, void (*)(void*, void*, void*));
void __kmpc_atomic_fixed4_add(ident_t*, int, int32_t*, int32_t);
void __kmpc_atomic_start(void);
void __kmpc_atomic_end(void);
void GOMP_atomic_start(void);
void GOMP_atomic_end(void);

static long double sum10, sum16, sum_start, sum_gomp;
static double _Complex prod8 = 1.0;
static float _Complex sum4;
static int32_t count4;

static void add_f80(void* out, void* a, void* b) {
  *(long double*)out = *(long double*)a + *(long double*)b;
}

/* The empty asm after each call keeps it a call (not a tail jump), so the
 * return address lies in the function named as the site. */
#define KEEP_CALL() __asm__ volatile("" ::: "memory")

__attribute__((noinline)) void site_float10(void) {
  __kmpc_atomic_float10_add(0, 0, &sum10, 1.0L);
  KEEP_CALL();
}
__attribute__((noinline)) void site_cmplx8(void) {
  __kmpc_atomic_cmplx8_mul_cpt(0, 0, &prod8, 1.0 * I, 1);
  KEEP_CALL();
}
__attribute__((noinline)) void site_cmplx4(void) {
  float _Complex out;
  __kmpc_atomic_cmplx4_add_cpt(0, 0, &sum4, 1.0f, &out, 0);
  KEEP_CALL();
}
__attribute__((noinline)) void site_generic16(void) {
  long double one = 1.0L;
  __kmpc_atomic_16(0, 0, &sum16, &one, add_f80);
  KEEP_CALL();
}
__attribute__((noinline)) void site_start_end(void) {
  __kmpc_atomic_start();
  sum_start += 1.0L;
  __kmpc_atomic_end();
  KEEP_CALL();
}
__attribute__((noinline)) void site_gomp(void) {
  GOMP_atomic_start();
  sum_gomp += 1.0L;
  GOMP_atomic_end();
  KEEP_CALL();
}
__attribute__((noinline)) void site_cas(void) {
  __kmpc_atomic_fixed4_add(0, 0, &count4, 1);
  KEEP_CALL();
}

#define ROUNDS 10
#define PER_ROUND 18 /* six locked regions of three events; the CAS none */

static rec_thread* buffers[64];
static int starts[64];

static void expect_region(const rec_event* e, uint64_t wait_id, void* site) {
  MX_EXPECT(&e[0], MX_ACQUIRE, ompt_mutex_atomic, wait_id, site);
  CHECK(e[0].n == omp_sync_hint_none);
  CHECK(e[0].state == ompt_state_wait_atomic);
  CHECK(e[0].parallel_id == wait_id);
  MX_EXPECT(&e[1], MX_ACQUIRED, ompt_mutex_atomic, wait_id, site);
  CHECK(e[1].ra == e[0].ra);
  MX_EXPECT(&e[2], MX_RELEASED, ompt_mutex_atomic, wait_id, site);
}

int main(void) {
  KITE_TEST_BEGIN();
  omp_get_max_threads();
  CHECK(rec_set_result[ompt_callback_mutex_acquire] == ompt_set_always);
  int nthreads = 0;
#pragma omp parallel
  {
    int tid = omp_get_thread_num();
#pragma omp single
    nthreads = omp_get_num_threads();
    buffers[tid] = rec_me();
    starts[tid] = buffers[tid] ? buffers[tid]->count : 0;
    for (int r = 0; r < ROUNDS; ++r) {
      site_float10();
      site_cmplx8();
      site_cmplx4();
      site_cas();
      site_generic16();
      site_start_end();
      site_gomp();
    }
  }
  const long n = (long)nthreads * ROUNDS;
  CHECK(sum10 == n && sum16 == n && sum_start == n && sum_gomp == n && count4 == n);
  CHECK(sum4 == (float)n);

  uint64_t atomic_id = 0;
  for (int t = 0; t < nthreads; ++t) {
    CHECK(buffers[t] != NULL);
    if (!buffers[t]) continue;
    rec_event ev[PER_ROUND * ROUNDS + 8];
    int k = mx_events(buffers[t], starts[t], ev, PER_ROUND * ROUNDS + 8);
    CHECK(k == PER_ROUND * ROUNDS);
    if (k != PER_ROUND * ROUNDS) continue;
    if (!atomic_id) atomic_id = ev[0].task_id;
    for (int i = 0; i < k; i += PER_ROUND) {
      expect_region(&ev[i], atomic_id, site_float10);
      expect_region(&ev[i + 3], atomic_id, site_cmplx8);
      expect_region(&ev[i + 6], atomic_id, site_cmplx4);
      expect_region(&ev[i + 9], atomic_id, site_generic16);
      expect_region(&ev[i + 12], atomic_id, site_start_end);
      expect_region(&ev[i + 15], atomic_id, site_gomp);
    }
  }
  CHECK(atomic_id != 0);
  KITE_TEST_END();
}
