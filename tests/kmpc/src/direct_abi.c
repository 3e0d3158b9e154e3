// The LLVM ABI entry points called directly, with arguments clang 14 never
// produces: loops that are not normalized (other lower bounds, non-unit and
// negative steps, unsigned wrap-around ranges), and entry points of newer
// clang versions (__kmpc_push_num_teams_51, __kmpc_omp_taskwait_deps_51).
#include <stdint.h>
#include <string.h>

#include "kite_test.h"

typedef struct {
  int32_t reserved_1, flags, reserved_2, reserved_3;
  const char* psource;
} ident_t;
static ident_t loc = {0, 2, 0, 0, ";direct_abi.c;main;0;0;;"};

typedef void (*kmpc_micro)(int32_t*, int32_t*, ...);
void __kmpc_fork_call(ident_t*, int32_t, kmpc_micro, ...);
void __kmpc_fork_teams(ident_t*, int32_t, kmpc_micro, ...);
void __kmpc_push_num_teams_51(ident_t*, int32_t, int32_t, int32_t, int32_t);
void __kmpc_for_static_init_4(ident_t*, int32_t, int32_t, int32_t*, int32_t*, int32_t*,
                              int32_t*, int32_t, int32_t);
void __kmpc_for_static_init_8u(ident_t*, int32_t, int32_t, int32_t*, uint64_t*, uint64_t*,
                               int64_t*, int64_t, int64_t);
void __kmpc_for_static_fini(ident_t*, int32_t);
void __kmpc_dispatch_init_4(ident_t*, int32_t, int32_t, int32_t, int32_t, int32_t, int32_t);
int __kmpc_dispatch_next_4(ident_t*, int32_t, int32_t*, int32_t*, int32_t*, int32_t*);
void __kmpc_dispatch_init_8u(ident_t*, int32_t, int32_t, uint64_t, uint64_t, int64_t, int64_t);
int __kmpc_dispatch_next_8u(ident_t*, int32_t, int32_t*, uint64_t*, uint64_t*, int64_t*);
void __kmpc_barrier(ident_t*, int32_t);
typedef struct {
  intptr_t base_addr;
  size_t len;
  uint8_t flags;
} kmp_depend_info;
void __kmpc_omp_taskwait_deps_51(ident_t*, int32_t, int32_t, kmp_depend_info*, int32_t,
                                 kmp_depend_info*, int32_t);

#define N 301
static int hits[N];
static int lasts;

// for (i = 150; i >= -150; i -= 3) over a team, static (chunked or not).
static void static_down(int32_t* gtid, int32_t* btid, int32_t* chunkp) {
  int32_t last = 0, lb = 150, ub = -150, st = 0;
  int32_t chunk = *chunkp;
  __kmpc_for_static_init_4(&loc, *gtid, chunk ? 33 : 34, &last, &lb, &ub, &st, -3, chunk);
  if (chunk) {
    for (; lb >= -150; lb += st, ub += st)
      for (int32_t i = lb; i >= (ub < -150 ? -150 : ub); i -= 3)
        __atomic_add_fetch(&hits[i + 150], 1, __ATOMIC_RELAXED);
  } else {
    for (int32_t i = lb; i >= ub; i -= 3) __atomic_add_fetch(&hits[i + 150], 1, __ATOMIC_RELAXED);
  }
  __kmpc_for_static_fini(&loc, *gtid);
  if (last) __atomic_add_fetch(&lasts, 1, __ATOMIC_RELAXED);
  (void)btid;
}

// for (i = -100; i <= 200; i += 7) with dynamic chunks of 3.
static void dynamic_up(int32_t* gtid, int32_t* btid) {
  int32_t last = 0, lb, ub, st;
  __kmpc_dispatch_init_4(&loc, *gtid, 35, -100, 200, 7, 3);
  while (__kmpc_dispatch_next_4(&loc, *gtid, &last, &lb, &ub, &st)) {
    for (int32_t i = lb; i <= ub; i += st) __atomic_add_fetch(&hits[i + 100], 1, __ATOMIC_RELAXED);
    if (last) __atomic_add_fetch(&lasts, 1, __ATOMIC_RELAXED);
  }
  __kmpc_barrier(&loc, *gtid);
  (void)btid;
}

// Unsigned 64-bit loop near the top of the range, going down by 5, guided.
static void guided_u64(int32_t* gtid, int32_t* btid) {
  int32_t last = 0;
  uint64_t lb, ub;
  int64_t st;
  const uint64_t top = UINT64_MAX - 2;
  __kmpc_dispatch_init_8u(&loc, *gtid, 36, top, top - 5 * 100, -5, 2);
  while (__kmpc_dispatch_next_8u(&loc, *gtid, &last, &lb, &ub, &st)) {
    for (uint64_t i = lb;; i += (uint64_t)st) {
      __atomic_add_fetch(&hits[(top - i) / 5], 1, __ATOMIC_RELAXED);
      if (i == ub) break;
    }
  }
  (void)btid;
}

// Static unchunked 8u: lower bound 2^63, step 2^40.
static void static_u64(int32_t* gtid, int32_t* btid) {
  int32_t last = 0;
  uint64_t lb = 1ull << 63, ub = (1ull << 63) + (200ull << 40);
  int64_t st = 0;
  __kmpc_for_static_init_8u(&loc, *gtid, 34, &last, &lb, &ub, &st, 1ll << 40, 1);
  if (lb <= ub)
    for (uint64_t i = lb; i <= ub; i += 1ull << 40)
      __atomic_add_fetch(&hits[(i - (1ull << 63)) >> 40], 1, __ATOMIC_RELAXED);
  __kmpc_for_static_fini(&loc, *gtid);
  (void)btid;
}

static int teams_seen, teams_num;
static void teams_body(int32_t* gtid, int32_t* btid) {
  __atomic_add_fetch(&teams_seen, 1, __ATOMIC_RELAXED);
  if (omp_get_team_num() == 0) teams_num = omp_get_num_teams();
  (void)gtid;
  (void)btid;
}

static int count_hits(int n, int expect) {
  int bad = 0;
  for (int i = 0; i < n; i++) bad += hits[i] != expect;
  memset(hits, 0, sizeof hits);
  return bad;
}

int main(void) {
  KITE_TEST_BEGIN();
  int32_t chunk = 0;
  __kmpc_fork_call(&loc, 1, (kmpc_micro)static_down, &chunk);
  int bad = 0;
  for (int i = 0; i < N; i++) bad += hits[i] != (i % 3 == 0);
  memset(hits, 0, sizeof hits);
  CHECK_EQ_LONG(bad, 0);
  CHECK_EQ_LONG(lasts, 1);
  lasts = 0;
  chunk = 4;
  __kmpc_fork_call(&loc, 1, (kmpc_micro)static_down, &chunk);
  bad = 0;
  for (int i = 0; i < N; i++) bad += hits[i] != (i % 3 == 0);
  memset(hits, 0, sizeof hits);
  CHECK_EQ_LONG(bad, 0);
  CHECK_EQ_LONG(lasts, 1);
  lasts = 0;

  __kmpc_fork_call(&loc, 0, (kmpc_micro)dynamic_up);
  bad = 0;
  for (int i = 0; i < N; i++) bad += hits[i] != (i % 7 == 0);
  memset(hits, 0, sizeof hits);
  CHECK_EQ_LONG(bad, 0);
  CHECK_EQ_LONG(lasts, 1);

  __kmpc_fork_call(&loc, 0, (kmpc_micro)guided_u64);
  CHECK_EQ_LONG(count_hits(101, 1), 0);
  __kmpc_fork_call(&loc, 0, (kmpc_micro)static_u64);
  CHECK_EQ_LONG(count_hits(201, 1), 0);

  // taskwait depend(in: x) nowait between a writer and a reader of x, and
  // the waiting form after them.
  long x = 0, seen = -1;
#pragma omp parallel
#pragma omp single
  {
#pragma omp task depend(out : x) shared(x)
    {
      for (volatile int k = 0; k < 100000; k++) {}
      x = 42;
    }
    kmp_depend_info dep = {(intptr_t)&x, sizeof x, 1};
    __kmpc_omp_taskwait_deps_51(&loc, 0, 1, &dep, 0, NULL, 1);
#pragma omp task depend(inout : x) shared(x, seen)
    seen = x;
    kmp_depend_info dep2 = {(intptr_t)&x, sizeof x, 3};
    __kmpc_omp_taskwait_deps_51(&loc, 0, 1, &dep2, 0, NULL, 0);
    CHECK_EQ_LONG(seen, 42);
  }

  __kmpc_push_num_teams_51(&loc, 0, 2, 3, 1);
  __kmpc_fork_teams(&loc, 0, (kmpc_micro)teams_body);
  CHECK_EQ_LONG(teams_seen, 3);
  CHECK_EQ_LONG(teams_num, 3);
  KITE_TEST_END();
}
