/* ep: embarrassingly parallel, the shape of NPB EP. 2^M pairs of uniform
 * numbers from a 64-bit linear congruential generator (each block of pairs
 * starts from its own jump-ahead seed, so the numbers do not depend on the
 * thread count), turned into Gaussian pairs by the polar method, counted in
 * square annuli (threadprivate counters, merged with atomics) and summed
 * (a reduction). One long parallel region with a dynamic loop.
 *
 * Verified against analytic answers: the accepted fraction is pi/4, the
 * Gaussian sums are zero and the fraction in annulus 0 is erf(1/sqrt 2)^2,
 * each within 6 standard deviations; the annulus counts add up exactly to
 * the accepted pairs.
 * Usage: ep [M]   (default 27) */
#include <math.h>
#include <omp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

void app_runtime_report(void);

#define NQ 10
#define BLOCK_LOG 16
static const uint64_t A = 6364136223846793005ULL, C = 1442695040888963407ULL;

static long q[NQ];
#pragma omp threadprivate(q)

/* The generator's state after k steps from s: x -> A^k x + C (A^k - 1)/(A - 1),
 * both factors by repeated squaring. */
static uint64_t skip(uint64_t s, uint64_t k) {
  uint64_t mul = 1, add = 0, a = A, c = C;
  while (k) {
    if (k & 1) {
      mul *= a;
      add = add * a + c;
    }
    c *= a + 1;
    a *= a;
    k >>= 1;
  }
  return mul * s + add;
}

static inline double uniform(uint64_t *s) {
  *s = A * *s + C;
  return (double)(*s >> 11) * (1.0 / 9007199254740992.0);
}

int main(int argc, char **argv) {
  int m = argc > 1 ? atoi(argv[1]) : 27;
  if (m < BLOCK_LOG || m > 40) {
    fprintf(stderr, "ep: M must be in %d..40\n", BLOCK_LOG);
    return 2;
  }
  app_runtime_report();
  long nblocks = 1L << (m - BLOCK_LOG), per = 1L << BLOCK_LOG;
  double sx = 0, sy = 0, t0 = omp_get_wtime();
  long total[NQ] = {0};
#pragma omp parallel reduction(+ : sx, sy)
  {
    for (int i = 0; i < NQ; ++i) q[i] = 0;
#pragma omp for schedule(dynamic, 4)
    for (long b = 0; b < nblocks; ++b) {
      uint64_t s = skip(271828183ULL, (uint64_t)(2 * b * per));
      for (long i = 0; i < per; ++i) {
        double x = 2 * uniform(&s) - 1, y = 2 * uniform(&s) - 1, t = x * x + y * y;
        if (t <= 1.0 && t > 0.0) {
          double f = sqrt(-2.0 * log(t) / t), gx = x * f, gy = y * f;
          double mx = fmax(fabs(gx), fabs(gy));
          int l = (int)mx;
          q[l < NQ ? l : NQ - 1]++;
          sx += gx;
          sy += gy;
        }
      }
    }
    for (int i = 0; i < NQ; ++i) {
#pragma omp atomic
      total[i] += q[i];
    }
  }
  double secs = omp_get_wtime() - t0;
  double n = (double)nblocks * per;
  long acc = 0;
  for (int i = 0; i < NQ; ++i) acc += total[i];
  double p = M_PI / 4, sd_p = sqrt(p * (1 - p) / n);
  double e1 = erf(1 / sqrt(2.0)), p0 = e1 * e1, sd_0 = sqrt(p0 * (1 - p0) / acc);
  double frac = acc / n, frac0 = total[0] / (double)acc;
  int ok = fabs(frac - p) < 6 * sd_p && fabs(sx) < 6 * sqrt((double)acc) && fabs(sy) < 6 * sqrt((double)acc) &&
           fabs(frac0 - p0) < 6 * sd_0 && total[NQ - 1] < total[NQ - 2] + 1;
  printf("ep: M=%d pairs %.0f accepted %ld (%.6f, pi/4 %.6f) sx %.3f sy %.3f annulus0 %.6f (expect %.6f) time %.3f s\n",
         m, n, acc, frac, p, sx, sy, frac0, p0, secs);
  printf("%s\n", ok ? "OK" : "FAILED");
  return ok ? 0 : 1;
}
