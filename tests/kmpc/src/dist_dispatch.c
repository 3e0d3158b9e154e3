// __kmpc_dist_dispatch_init_*: distribute parallel for with a dynamic
// schedule. Each team takes its block of the loop, its threads share the
// block through __kmpc_dispatch_next_*; every iteration runs once, and the
// team with the loop's end is told it has the last block.
#include <omp.h>
#include <stdint.h>
#include <string.h>

#include "kite_test.h"

typedef struct ident ident_t;
void __kmpc_dist_dispatch_init_4(ident_t*, int, int, int*, int, int, int, int);
int __kmpc_dispatch_next_4(ident_t*, int, int*, int*, int*, int*);
void __kmpc_dist_dispatch_init_8(ident_t*, int, int, int*, int64_t, int64_t, int64_t, int64_t);
int __kmpc_dispatch_next_8(ident_t*, int, int*, int64_t*, int64_t*, int64_t*);
void __kmpc_dispatch_deinit(ident_t*, int);
int __kmpc_global_thread_num(ident_t*);

#define N 997
#define TEAMS 3
enum { kSchDynamicChunked = 35, kSchGuidedChunked = 36 };

static int hits[N];
static int team_of[N];
static int last_teams;

int main(void) {
  KITE_TEST_BEGIN();
#pragma omp teams num_teams(TEAMS)
  {
    int team = omp_get_team_num();
#pragma omp parallel
    {
      int gtid = __kmpc_global_thread_num(NULL);
      int team_last = 0;
      __kmpc_dist_dispatch_init_4(NULL, gtid, kSchDynamicChunked, &team_last, 0, N - 1, 1, 4);
      int last, lb, ub, st;
      while (__kmpc_dispatch_next_4(NULL, gtid, &last, &lb, &ub, &st)) {
        for (int i = lb; i <= ub; i += st) {
          __atomic_add_fetch(&hits[i], 1, __ATOMIC_RELAXED);
          team_of[i] = team;
        }
      }
      __kmpc_dispatch_deinit(NULL, gtid);  // clang 19+ ends each dynamic loop with it
      if (team_last && omp_get_thread_num() == 0)
        __atomic_add_fetch(&last_teams, 1, __ATOMIC_RELAXED);
    }
  }
  for (int i = 0; i < N; ++i) CHECK(hits[i] == 1);
  // Teams own contiguous blocks in team order.
  for (int i = 1; i < N; ++i) CHECK(team_of[i] >= team_of[i - 1]);
  CHECK_EQ_LONG(last_teams, 1);

  // Downward, 64-bit, guided.
  memset(hits, 0, sizeof hits);
#pragma omp teams num_teams(TEAMS)
#pragma omp parallel
  {
    int gtid = __kmpc_global_thread_num(NULL);
    int team_last = 0;
    __kmpc_dist_dispatch_init_8(NULL, gtid, kSchGuidedChunked, &team_last, 10 * (int64_t)(N - 1),
                                0, -10, 2);
    int last;
    int64_t lb, ub, st;
    while (__kmpc_dispatch_next_8(NULL, gtid, &last, &lb, &ub, &st))
      for (int64_t v = lb; v >= ub; v += st) __atomic_add_fetch(&hits[v / 10], 1, __ATOMIC_RELAXED);
    __kmpc_dispatch_deinit(NULL, gtid);
  }
  for (int i = 0; i < N; ++i) CHECK(hits[i] == 1);
  KITE_TEST_END();
}
