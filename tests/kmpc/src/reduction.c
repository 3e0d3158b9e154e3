// Reductions (__kmpc_reduce, __kmpc_reduce_nowait and their ends): on
// parallel, on loops with and without nowait, several variables at once,
// several operators and types, user-defined.
#include "kite_test.h"

#define N 2000

#pragma omp declare reduction(lmax : long : omp_out = omp_in > omp_out ? omp_in : omp_out) \
    initializer(omp_priv = -1000000)

int main(void) {
  KITE_TEST_BEGIN();
  int nt = omp_get_max_threads();

  int s = 0;
#pragma omp parallel reduction(+ : s)
  s += omp_get_thread_num() + 1;
  CHECK_EQ_LONG(s, nt * (nt + 1) / 2);

  long sum = 0;
  int mx = -1, mn = 1 << 30;
  double prod = 1.0;
#pragma omp parallel for reduction(+ : sum) reduction(max : mx) reduction(min : mn) \
    reduction(* : prod) schedule(dynamic, 7)
  for (int i = 0; i < N; i++) {
    sum += i;
    if (i > mx) mx = i;
    if (i + 5 < mn) mn = i + 5;
    if (i % 500 == 0) prod *= 2.0;
  }
  CHECK_EQ_LONG(sum, (long)N * (N - 1) / 2);
  CHECK_EQ_LONG(mx, N - 1);
  CHECK_EQ_LONG(mn, 5);
  CHECK(prod == 16.0);

  // Worksharing reductions inside one region: blocking, then nowait.
  long a = 0, b = 0, c = 0;
  unsigned bits = 0, all = ~0u;
  int any = 0;
#pragma omp parallel
  {
#pragma omp for reduction(+ : a)
    for (int i = 0; i < N; i++) a += 2;
    // After the blocking form every thread sees the total.
    if (a != 2L * N) {
#pragma omp atomic
      c += 1000000;
    }
#pragma omp for reduction(+ : b) reduction(| : bits) reduction(& : all) nowait
    for (int i = 0; i < 32; i++) {
      b += i;
      bits |= 1u << i;
      all &= ~(1u << (i % 16));
    }
#pragma omp for reduction(- : c) reduction(|| : any) schedule(guided)
    for (int i = 0; i < 100; i++) {
      c -= 1;
      any = any || i == 77;
    }
  }
  CHECK_EQ_LONG(a, 2L * N);
  CHECK_EQ_LONG(b, 31 * 32 / 2);
  CHECK(bits == ~0u);
  CHECK(all == 0xffff0000u);
  CHECK_EQ_LONG(c, -100);
  CHECK_EQ_LONG(any, 1);

  long best = -5;
#pragma omp parallel for reduction(lmax : best)
  for (int i = 0; i < N; i++)
    if ((i * 37) % N > best) best = (i * 37) % N;
  CHECK_EQ_LONG(best, N - 1);

  // Many reductions in a row reuse the per-reduction lock words.
  long total = 0;
  for (int r = 0; r < 200; r++) {
    long t = 0;
#pragma omp parallel for reduction(+ : t)
    for (int i = 0; i < 10; i++) t += i;
    total += t;
  }
  CHECK_EQ_LONG(total, 200 * 45);

  KITE_TEST_END();
}
