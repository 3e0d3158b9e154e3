/* is: integer sort, the shape of NPB IS. N keys in [0, 2^KEYLOG), drawn as
 * the sum of four uniforms (a bell-shaped histogram, like NPB's). Each of
 * ITERS iterations changes two keys and sorts all of them by buckets:
 * every thread counts its static block of keys into its own bucket
 * histogram (a nowait loop), a single computes where each thread's share of
 * each bucket goes, every thread scatters its block there (the same static
 * partition), and the buckets are then sorted by counting, one explicit
 * task per group of buckets created from a single (the task-parallel part).
 *
 * Verified after the last iteration: the output is non-decreasing and is a
 * permutation of the input (the key histogram, recomputed serially from the
 * input, equals the output's; the sums of keys are equal).
 * Usage: is [LOG2_N [ITERS]]   (default 23 10; keys < 2^20) */
#include <omp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void app_runtime_report(void);

#define KEYLOG 20
#define BUCKETLOG 10
#define NB (1 << BUCKETLOG)
#define MAXT 256

static long n;
static int *key, *tmp, *sorted;
static long (*cnt)[NB], bstart[NB + 1];

static void sort_bucket(long b) {
  /* counting sort of bucket b (keys b << shift .. (b+1) << shift) from tmp into sorted */
  int shift = KEYLOG - BUCKETLOG, lo = (int)(b << shift), w = 1 << shift;
  long c[1 << (KEYLOG - BUCKETLOG)];
  memset(c, 0, sizeof(c));
  for (long i = bstart[b]; i < bstart[b + 1]; ++i) c[tmp[i] - lo]++;
  long pos = bstart[b];
  for (int v = 0; v < w; ++v)
    for (long k = 0; k < c[v]; ++k) sorted[pos++] = lo + v;
}

static void one_sort(void) {
  int shift = KEYLOG - BUCKETLOG;
#pragma omp parallel
  {
    int t = omp_get_thread_num(), nt = omp_get_num_threads();
    memset(cnt[t], 0, sizeof(cnt[t]));
#pragma omp for schedule(static) nowait
    for (long i = 0; i < n; ++i) cnt[t][key[i] >> shift]++;
#pragma omp barrier
#pragma omp single
    {
      long pos = 0;
      for (int b = 0; b < NB; ++b) {
        bstart[b] = pos;
        for (int u = 0; u < nt; ++u) {
          long c = cnt[u][b];
          cnt[u][b] = pos;
          pos += c;
        }
      }
      bstart[NB] = pos;
    }
#pragma omp for schedule(static)
    for (long i = 0; i < n; ++i) tmp[cnt[t][key[i] >> shift]++] = key[i];
#pragma omp single
    {
      for (long b = 0; b < NB; b += 16) {
#pragma omp task firstprivate(b)
        for (long c = b; c < b + 16; ++c) sort_bucket(c);
      }
#pragma omp taskwait
    }
  }
}

int main(int argc, char **argv) {
  int lg = argc > 1 ? atoi(argv[1]) : 23, iters = argc > 2 ? atoi(argv[2]) : 10;
  if (lg < 12 || lg > 30 || iters < 1) {
    fprintf(stderr, "is: need LOG2_N in 12..30 and ITERS >= 1\n");
    return 2;
  }
  app_runtime_report();
  if (omp_get_max_threads() > MAXT) {
    fprintf(stderr, "is: at most %d threads\n", MAXT);
    return 2;
  }
  n = 1L << lg;
  key = malloc(sizeof(int) * n);
  tmp = malloc(sizeof(int) * n);
  sorted = malloc(sizeof(int) * n);
  cnt = malloc(sizeof(long) * NB * MAXT);
  uint64_t s = 314159265;
  for (long i = 0; i < n; ++i) {
    int k = 0;
    for (int j = 0; j < 4; ++j) {
      s = s * 6364136223846793005ULL + 1442695040888963407ULL;
      k += (int)(s >> (64 - KEYLOG + 2));
    }
    key[i] = k;
  }
  double t0 = omp_get_wtime();
  for (int it = 1; it <= iters; ++it) {
    key[it] = it;
    key[it + iters] = (1 << KEYLOG) - it;
    one_sort();
  }
  double secs = omp_get_wtime() - t0;
  long *h1 = calloc(1 << KEYLOG, sizeof(long));
  int ok = 1;
  long long s1 = 0, s2 = 0;
  for (long i = 0; i < n; ++i) {
    h1[key[i]]++;
    s1 += key[i];
    s2 += sorted[i];
    if (i && sorted[i] < sorted[i - 1]) ok = 0;
  }
  for (long i = 0; i < n; ++i)
    if (sorted[i] < 0 || sorted[i] >= (1 << KEYLOG) || --h1[sorted[i]] < 0) ok = 0;
  ok = ok && s1 == s2;
  printf("is: n=2^%d iters=%d min %d median %d max %d time %.3f s\n", lg, iters, sorted[0], sorted[n / 2],
         sorted[n - 1], secs);
  printf("%s\n", ok ? "OK" : "FAILED");
  return ok ? 0 : 1;
}
