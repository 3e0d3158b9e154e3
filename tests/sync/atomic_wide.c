/* Atomic updates of types no x86-64 instruction updates atomically
 * (long double, __int128, __float128): gcc brackets them with
 * GOMP_atomic_start/GOMP_atomic_end. (gcc rejects complex types in
 * "omp atomic".) Sums must be exact; captured values must be distinct.
 * clang calls libatomic for them instead (no runtime call).
 * kite-test-threads: 1 2 4 8
 * kite-test-libs: atomic
 */
#include "kite_test.h"

enum { kIters = 20000 };

static long double ld_sum;
static __int128 i128_sum;
static __float128 f128_sum;
static long double ticket;
static unsigned char seen[8 * kIters];

int main(void) {
  KITE_TEST_BEGIN();
  int nthreads = 0;
#pragma omp parallel
  {
    if (omp_get_thread_num() == 0) nthreads = omp_get_num_threads();
    for (int i = 0; i < kIters; ++i) {
#pragma omp atomic
      ld_sum += 1.0L;
#pragma omp atomic
      i128_sum += ((__int128)1 << 70);
#pragma omp atomic
      f128_sum += 0.5Q;
      long double mine;
#pragma omp atomic capture
      mine = ticket++;
      long idx = (long)mine;
      if (idx >= 0 && idx < (long)sizeof seen) __atomic_fetch_add(&seen[idx], 1, __ATOMIC_RELAXED);
    }
  }
  const long total = (long)nthreads * kIters;
  CHECK(ld_sum == (long double)total);
  CHECK(i128_sum == (__int128)total << 70);
  CHECK(f128_sum == (__float128)total / 2);
  CHECK(ticket == (long double)total);
  long unique = 0;
  for (long i = 0; i < total; ++i) unique += seen[i] == 1;
  CHECK_EQ_LONG(unique, total);
  KITE_TEST_END();
}
