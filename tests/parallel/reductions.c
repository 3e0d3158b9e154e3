// kite-test-threads: 1 2 4 8
/* Reduction clauses on a parallel region (gcc combines the private copies
 * with atomics or GOMP_atomic_start/end): + * max min && || on int and
 * double, repeated so lost updates would show. */
#include "kite_test.h"

int main(void) {
  KITE_TEST_BEGIN();
  for (int r = 0; r < 200; ++r) {
    int n = 0;
    int isum = 0, iprod = 1, imax = -1000, imin = 1000, iand = 1, ior = 0, iand_f = 1, ior_t = 0;
    double dsum = 0, dprod = 1, dmax = -1e9, dmin = 1e9;
#pragma omp parallel reduction(+ : isum, dsum) reduction(* : iprod, dprod) \
    reduction(max : imax, dmax) reduction(min : imin, dmin) reduction(&& : iand, iand_f) \
    reduction(|| : ior, ior_t)
    {
      int me = omp_get_thread_num();
      if (me == 0) n = omp_get_num_threads();
      isum += me + 1;
      dsum += 0.5 * (me + 1);
      iprod *= (me % 3 == 0) ? 2 : 1;
      dprod *= (me % 2 == 0) ? 1.5 : 1.0;
      imax = me * 3 > imax ? me * 3 : imax;
      dmax = -0.25 * me > dmax ? -0.25 * me : dmax;
      imin = 10 - me < imin ? 10 - me : imin;
      dmin = me + 0.5 < dmin ? me + 0.5 : dmin;
      iand = iand && (me >= 0);
      iand_f = iand_f && (me != 0);
      ior = ior || (me < 0);
      ior_t = ior_t || (me == 0);
    }
    int twos = 0, evens = 0;
    for (int t = 0; t < n; ++t) {
      twos += (t % 3 == 0);
      evens += (t % 2 == 0);
    }
    double dprod_expect = 1;
    for (int t = 0; t < evens; ++t) dprod_expect *= 1.5;
    int ok = 1;
    ok &= isum == n * (n + 1) / 2;
    ok &= dsum == 0.25 * n * (n + 1);
    ok &= iprod == (1 << twos);
    ok &= dprod == dprod_expect;
    ok &= imax == 3 * (n - 1);
    ok &= dmax == 0.0;
    ok &= imin == 10 - (n - 1);
    ok &= dmin == 0.5;
    ok &= iand == 1 && iand_f == 0 && ior == 0 && ior_t == 1;
    if (!ok) {
      fprintf(stderr,
              "round %d, %d threads: isum %d dsum %g iprod %d dprod %g imax %d dmax %g imin %d "
              "dmin %g and %d/%d or %d/%d\n",
              r, n, isum, dsum, iprod, dprod, imax, dmax, imin, dmin, iand, iand_f, ior, ior_t);
      CHECK(ok);
      break;
    }
  }
  KITE_TEST_END();
}
