/* mergesort: task-parallel merge sort, the shape of divide-and-conquer task
 * programs (BOTS sort, cilksort): a task per half down to a cutoff, a
 * taskwait before each merge, and the merges of large halves split into
 * tasks as well. Many small tasks: create, schedule and wait events.
 *
 * Sorts N pseudo-random 32-bit keys ROUNDS times (a fresh array each
 * round) and checks that the result is ordered and a permutation of the
 * input (order-independent checksums).
 * Usage: mergesort [N [CUTOFF [ROUNDS]]]   (default 4000000 2048 3: about 1 s at 2 threads) */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static long cutoff;

static int cmp_u32(const void *a, const void *b) {
  uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
  return (x > y) - (x < y);
}

/* First index in a[0..n) whose key is >= v. */
static long lower_bound(const uint32_t *a, long n, uint32_t v) {
  long lo = 0, hi = n;
  while (lo < hi) {
    long mid = lo + (hi - lo) / 2;
    if (a[mid] < v)
      lo = mid + 1;
    else
      hi = mid;
  }
  return lo;
}

/* Merges sorted a[0..na) and b[0..nb) into out; a large merge splits at
 * the middle of the longer run and merges the two halves as tasks. */
static void merge(const uint32_t *a, long na, const uint32_t *b, long nb, uint32_t *out) {
  if (na + nb <= 4 * cutoff) {
    long i = 0, j = 0, k = 0;
    while (i < na && j < nb) out[k++] = b[j] < a[i] ? b[j++] : a[i++];
    while (i < na) out[k++] = a[i++];
    while (j < nb) out[k++] = b[j++];
    return;
  }
  if (na < nb) {
    const uint32_t *t = a;
    a = b, b = t;
    long tn = na;
    na = nb, nb = tn;
  }
  long ma = na / 2, mb = lower_bound(b, nb, a[ma]);
#pragma omp task
  merge(a, ma, b, mb, out);
  merge(a + ma, na - ma, b + mb, nb - mb, out + ma + mb);
#pragma omp taskwait
}

/* Sorts a[0..n) using tmp[0..n) as scratch; the result is in a. */
static void sort(uint32_t *a, uint32_t *tmp, long n) {
  if (n <= cutoff) {
    qsort(a, (size_t)n, sizeof *a, cmp_u32);
    return;
  }
  long h = n / 2;
#pragma omp task
  sort(a, tmp, h);
  sort(a + h, tmp + h, n - h);
#pragma omp taskwait
  merge(a, h, a + h, n - h, tmp);
  memcpy(a, tmp, sizeof *a * (size_t)n);
}

int main(int argc, char **argv) {
  long n = argc > 1 ? atol(argv[1]) : 4000000;
  cutoff = argc > 2 ? atol(argv[2]) : 2048;
  int rounds = argc > 3 ? atoi(argv[3]) : 3;
  if (n < 1 || cutoff < 16 || rounds < 1) {
    fprintf(stderr, "usage: mergesort [N>=1 [CUTOFF>=16 [ROUNDS>=1]]]\n");
    return 2;
  }
  uint32_t *a = malloc(sizeof *a * (size_t)n), *tmp = malloc(sizeof *a * (size_t)n);
  int ok = 1;
  uint64_t state = 88172645463325252ull;
  for (int r = 0; r < rounds; ++r) {
    uint64_t sum = 0, sq = 0;
    for (long k = 0; k < n; ++k) { /* xorshift64 */
      state ^= state << 13, state ^= state >> 7, state ^= state << 17;
      a[k] = (uint32_t)(state >> 32);
      sum += a[k], sq += (uint64_t)a[k] * a[k];
    }
#pragma omp parallel
#pragma omp single
    sort(a, tmp, n);
    uint64_t sum2 = 0, sq2 = 0;
    for (long k = 0; k < n; ++k) {
      if (k && a[k - 1] > a[k]) ok = 0;
      sum2 += a[k], sq2 += (uint64_t)a[k] * a[k];
    }
    if (sum2 != sum || sq2 != sq) ok = 0;
  }
  printf("mergesort: n=%ld cutoff=%ld rounds=%d: %s\n", n, cutoff, rounds, ok ? "OK" : "FAILED");
  free(a), free(tmp);
  return ok ? 0 : 1;
}
