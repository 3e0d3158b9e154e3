/* Helpers for the loop tests: a hit counter per logical iteration, so that
 * "every iteration ran exactly once" is one call. */
#ifndef LOOP_CHECK_H
#define LOOP_CHECK_H

#include "kite_test.h"

#define MAX_ITERS 20000

static int hits[MAX_ITERS + 1];  /* last slot: out-of-range iterations */

static inline void hits_reset(void) { memset(hits, 0, sizeof hits); }

static inline void hit(unsigned long long k) {
  if (k > MAX_ITERS) k = MAX_ITERS;
  __atomic_fetch_add(&hits[k], 1, __ATOMIC_RELAXED);
}

/* Every one of n iterations exactly once, nothing else. */
static inline int hits_ok(unsigned long long n, const char* what) {
  int bad = 0;
  for (unsigned long long k = 0; k < n && k < MAX_ITERS; ++k)
    if (hits[k] != 1) {
      if (bad < 3) fprintf(stderr, "%s: iteration %llu ran %d times\n", what, k, hits[k]);
      ++bad;
    }
  for (unsigned long long k = n; k <= MAX_ITERS; ++k)
    if (hits[k] != 0) {
      if (bad < 3) fprintf(stderr, "%s: unexpected iteration slot %llu (%d)\n", what, k, hits[k]);
      ++bad;
    }
  if (bad) __atomic_add_fetch(&kite_test_failures, 1, __ATOMIC_RELAXED);
  return bad == 0;
}

#endif
