// __kmpc_team_static_init_*: each team of a league gets chunks of the
// distribute loop round robin; together the teams run every iteration
// once, and exactly one team has the last one.
#include <omp.h>
#include <stdint.h>
#include <string.h>

#include "kite_test.h"

typedef struct ident ident_t;
void __kmpc_team_static_init_4(ident_t*, int, int*, int*, int*, int*, int, int);
void __kmpc_team_static_init_8u(ident_t*, int, int*, uint64_t*, uint64_t*, int64_t*, int64_t,
                                int64_t);

#define N 1000
#define TEAMS 3

static int hits[N];
static int lasts;

int main(void) {
  KITE_TEST_BEGIN();
  // Upward, chunk 7, int.
#pragma omp teams num_teams(TEAMS)
  {
    int last = 0, lb = 0, ub = N - 1, st = 0;
    __kmpc_team_static_init_4(NULL, 0, &last, &lb, &ub, &st, 1, 7);
    if (omp_get_num_teams() > 1 && st != 7 * omp_get_num_teams()) lasts += 1000;
    for (; lb <= N - 1; lb += st, ub += st) {
      int hi = ub < N - 1 ? ub : N - 1;
      for (int i = lb; i <= hi; ++i) __atomic_add_fetch(&hits[i], 1, __ATOMIC_RELAXED);
      if (st <= 0) break;
    }
    if (last) __atomic_add_fetch(&lasts, 1, __ATOMIC_RELAXED);
  }
  for (int i = 0; i < N; ++i) CHECK(hits[i] == 1);
  CHECK_EQ_LONG(lasts, 1);

  // Downward by 3 over uint64_t values near the top of the range.
  memset(hits, 0, sizeof hits);
  lasts = 0;
  const uint64_t top = UINT64_MAX - 5;
#pragma omp teams num_teams(TEAMS)
  {
    int last = 0;
    uint64_t lb = top, ub = top - 3 * (uint64_t)(N - 1);
    int64_t st = 0;
    __kmpc_team_static_init_8u(NULL, 0, &last, &lb, &ub, &st, -3, 5);
    const uint64_t end = top - 3 * (uint64_t)(N - 1);
    // Chunks of 5 iterations: [lb, ub] going down; the next one st away.
    while (lb >= ub && lb >= end && lb <= top) {
      for (uint64_t v = lb;; v -= 3) {
        if (v < end) break;
        __atomic_add_fetch(&hits[(top - v) / 3], 1, __ATOMIC_RELAXED);
        if (v == ub || v < 3) break;
      }
      if (lb < (uint64_t)(-st) || lb - (uint64_t)(-st) < end) break;
      lb -= (uint64_t)(-st);
      ub = ub >= (uint64_t)(-st) ? ub - (uint64_t)(-st) : 0;
    }
    if (last) __atomic_add_fetch(&lasts, 1, __ATOMIC_RELAXED);
  }
  for (int i = 0; i < N; ++i) CHECK(hits[i] == 1);
  CHECK_EQ_LONG(lasts, 1);
  KITE_TEST_END();
}
