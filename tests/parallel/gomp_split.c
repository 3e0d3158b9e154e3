// kite-test-threads: 1 2 4
/* The split form of a parallel region, as gcc before 4.9 emitted it:
 * GOMP_parallel_start starts the team and returns on the primary, which then
 * runs the body itself and joins with GOMP_parallel_end. Old binaries still
 * call these entry points, so they are called directly here. */
#include "kite_test.h"

extern void GOMP_parallel_start(void (*fn)(void*), void* data, unsigned num_threads);
extern void GOMP_parallel_end(void);
extern void GOMP_barrier(void);

struct shared {
  int count;
  int size;
  int nested_count;
  int seen[8];
  int after_barrier;
};

static void body(void* arg) {
  struct shared* s = (struct shared*)arg;
  int me = omp_get_thread_num();
  if (me == 0) s->size = omp_get_num_threads();
  if (me >= 0 && me < 8) __atomic_add_fetch(&s->seen[me], 1, __ATOMIC_RELAXED);
  __atomic_add_fetch(&s->count, 1, __ATOMIC_RELAXED);
  GOMP_barrier();
  /* After the barrier every thread has counted itself. */
  if (__atomic_load_n(&s->count, __ATOMIC_RELAXED) == omp_get_num_threads())
    __atomic_add_fetch(&s->after_barrier, 1, __ATOMIC_RELAXED);
}

static void nested_body(void* arg) {
  struct shared* s = (struct shared*)arg;
  __atomic_add_fetch(&s->nested_count, 1, __ATOMIC_RELAXED);
  CHECK_EQ_LONG(omp_get_level(), 2);
}

static void outer_body(void* arg) {
  struct shared* s = (struct shared*)arg;
  __atomic_add_fetch(&s->count, 1, __ATOMIC_RELAXED);
  GOMP_parallel_start(nested_body, s, 2);
  nested_body(s);
  GOMP_parallel_end();
  CHECK_EQ_LONG(omp_get_level(), 1);
}

int main(void) {
  KITE_TEST_BEGIN();
  omp_set_dynamic(0);
  for (unsigned want = 1; want <= 4; ++want) {
    for (int r = 0; r < 100; ++r) {
      struct shared s;
      memset(&s, 0, sizeof s);
      GOMP_parallel_start(body, &s, want);
      CHECK_EQ_LONG(omp_get_level(), 1); /* the caller is now thread 0 */
      CHECK_EQ_LONG(omp_get_thread_num(), 0);
      body(&s);
      GOMP_parallel_end();
      CHECK_EQ_LONG(omp_get_level(), 0);
      CHECK(!omp_in_parallel());
      int ok = s.size == (int)want && s.count == (int)want && s.after_barrier == (int)want;
      for (int i = 0; i < 8; ++i) ok = ok && s.seen[i] == (i < (int)want);
      if (!ok) {
        fprintf(stderr, "want %u: size %d count %d after_barrier %d\n", want, s.size, s.count,
                s.after_barrier);
        CHECK(ok);
        break;
      }
    }
  }
  /* num_threads 0 means "use nthreads-var". */
  struct shared s;
  memset(&s, 0, sizeof s);
  GOMP_parallel_start(body, &s, 0);
  body(&s);
  GOMP_parallel_end();
  CHECK_EQ_LONG(s.size, omp_get_max_threads());

  /* Nested split regions. */
  omp_set_max_active_levels(2);
  memset(&s, 0, sizeof s);
  GOMP_parallel_start(outer_body, &s, 2);
  outer_body(&s);
  GOMP_parallel_end();
  CHECK_EQ_LONG(s.count, 2);
  CHECK_EQ_LONG(s.nested_count, 4);
  KITE_TEST_END();
}
