/* ep: embarrassingly parallel, the shape of NPB EP: Gaussian pairs by the
 * polar method from a pseudo-random stream, counted in square annuli. One
 * parallel loop over independent blocks with a few reductions: almost no
 * runtime events per second, so tracing should cost next to nothing.
 *
 * Each block has its own generator, seeded from its index, so the result
 * does not depend on the thread count or the schedule; the check redoes a
 * sample of blocks serially and compares them bit for bit, and checks the
 * totals against the per-block results and the polar method's statistics.
 * Usage: ep [BLOCKS [PAIRS_PER_BLOCK]]   (default 8192 16384: about 1 s at 2 threads) */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { annuli = 10 };

typedef struct {
  double sx, sy;
  long accepted;
  long count[annuli];
} block_result;

/* splitmix64: a good 64-bit stream from any seed, one multiply-xorshift
 * chain per draw. */
static uint64_t next_u64(uint64_t *s) {
  uint64_t z = (*s += 0x9e3779b97f4a7c15ull);
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
  return z ^ (z >> 31);
}

static double uniform(uint64_t *s) { return (double)(next_u64(s) >> 11) * 0x1.0p-53; }

static void run_block(long block, long pairs, block_result *out) {
  uint64_t s = 0x243f6a8885a308d3ull ^ ((uint64_t)block * 0x9e3779b97f4a7c15ull);
  memset(out, 0, sizeof *out);
  for (long k = 0; k < pairs; ++k) {
    double x = 2.0 * uniform(&s) - 1.0, y = 2.0 * uniform(&s) - 1.0;
    double t = x * x + y * y;
    if (t > 1.0 || t == 0.0) continue;
    double f = sqrt(-2.0 * log(t) / t);
    double gx = x * f, gy = y * f;
    int l = (int)fmax(fabs(gx), fabs(gy));
    if (l < annuli) out->count[l]++;
    out->sx += gx;
    out->sy += gy;
    out->accepted++;
  }
}

int main(int argc, char **argv) {
  long blocks = argc > 1 ? atol(argv[1]) : 8192;
  long pairs = argc > 2 ? atol(argv[2]) : 16384;
  if (blocks < 1 || pairs < 1) {
    fprintf(stderr, "usage: ep [BLOCKS>=1 [PAIRS_PER_BLOCK>=1]]\n");
    return 2;
  }
  block_result *res = malloc(sizeof(block_result) * (size_t)blocks);
  double sx = 0, sy = 0;
  long accepted = 0;
#pragma omp parallel for schedule(dynamic, 16) reduction(+ : sx, sy, accepted)
  for (long b = 0; b < blocks; ++b) {
    run_block(b, pairs, &res[b]);
    sx += res[b].sx;
    sy += res[b].sy;
    accepted += res[b].accepted;
  }

  int ok = 1;
  double csx = 0, csy = 0;
  long cacc = 0, counted = 0;
  for (long b = 0; b < blocks; ++b) {
    csx += res[b].sx, csy += res[b].sy, cacc += res[b].accepted;
    for (int l = 0; l < annuli; ++l) counted += res[b].count[l];
  }
  /* Sums of doubles in another order differ in the last bits only. */
  ok &= cacc == accepted && fabs(csx - sx) < 1e-6 * (1 + fabs(sx)) && fabs(csy - sy) < 1e-6 * (1 + fabs(sy));
  ok &= counted == accepted;
  for (long k = 0; k < 16; ++k) { /* redo a sample of blocks, bit for bit */
    long b = (long)((uint64_t)(k * 2654435761u) % (uint64_t)blocks);
    block_result again;
    run_block(b, pairs, &again);
    ok &= memcmp(&again, &res[b], sizeof again) == 0;
  }
  /* The polar method accepts pi/4 of the pairs; the sums of N(0,1) draws
   * stay within a few sqrt(accepted). */
  double total = (double)blocks * (double)pairs;
  ok &= fabs((double)accepted / total - M_PI / 4) < 0.01;
  ok &= fabs(sx) < 6 * sqrt((double)accepted) && fabs(sy) < 6 * sqrt((double)accepted);
  printf("ep: blocks=%ld pairs=%ld accepted=%ld sx=%.6e sy=%.6e: %s\n", blocks, pairs, accepted, sx, sy,
         ok ? "OK" : "FAILED");
  free(res);
  return ok ? 0 : 1;
}
