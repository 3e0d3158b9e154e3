/* kite-test-threads: 1 2 4 8
 * Every schedule kind over long iteration spaces, upward and downward, with
 * odd increments, extreme bounds, empty loops and chunks larger than the
 * range: each iteration runs exactly once. */
#include "loop_check.h"

#include <limits.h>

static long chunk;

struct range { long s, e, st; };

/* Upward ranges: for (i = s; i < e; i += st); downward: i > e; i -= st.
 * Bounds stay one step away from the type's limits: the user's i += st
 * must not overflow, nor may e - s (gcc computes the trip count in the
 * loop's type; both would be undefined in C and in OpenMP). */
static const struct range up[] = {
    {0, 300, 1}, {-200, 200, 3}, {7, 8, 1}, {5, 5, 1}, {10, 0, 1},
    {LONG_MAX - 1000, LONG_MAX - 7, 7}, {LONG_MIN, LONG_MIN + 299, 1},
    {LONG_MIN / 4, LONG_MAX / 4, LONG_MAX / 100}, {0, 3000, 1000000},
};
static const struct range down[] = {
    {300, 0, 1}, {200, -200, 3}, {8, 7, 1}, {5, 5, 1}, {0, 10, 1},
    {LONG_MIN + 1000, LONG_MIN + 7, 7}, {LONG_MAX, LONG_MAX - 299, 1},
    {LONG_MAX / 4, LONG_MIN / 4, LONG_MAX / 100}, {3000, 0, 1000000},
};

static unsigned long long count_up(struct range r) {
  if (r.s >= r.e) return 0;
  unsigned long long d = (unsigned long long)r.e - (unsigned long long)r.s;
  return (d + r.st - 1) / r.st;
}
static unsigned long long count_down(struct range r) {
  if (r.s <= r.e) return 0;
  unsigned long long d = (unsigned long long)r.s - (unsigned long long)r.e;
  return (d + r.st - 1) / r.st;
}

#define LOOP_PAIR(NAME, CLAUSE)                                                 \
  static void NAME##_up(struct range r) {                                       \
    _Pragma("omp parallel") {                                                   \
      _Pragma(CLAUSE) for (long i = r.s; i < r.e; i += r.st)                    \
          hit(((unsigned long long)i - (unsigned long long)r.s) / r.st);        \
    }                                                                           \
  }                                                                             \
  static void NAME##_down(struct range r) {                                     \
    _Pragma("omp parallel") {                                                   \
      _Pragma(CLAUSE) for (long i = r.s; i > r.e; i -= r.st)                    \
          hit(((unsigned long long)r.s - (unsigned long long)i) / r.st);        \
    }                                                                           \
  }

LOOP_PAIR(stat, "omp for schedule(static)")
LOOP_PAIR(stat_c, "omp for schedule(static, chunk)")
LOOP_PAIR(dyn, "omp for schedule(dynamic)")
LOOP_PAIR(dyn_c, "omp for schedule(dynamic, chunk)")
LOOP_PAIR(mono_dyn, "omp for schedule(monotonic: dynamic, chunk)")
LOOP_PAIR(guided, "omp for schedule(guided)")
LOOP_PAIR(guided_c, "omp for schedule(guided, chunk)")
LOOP_PAIR(mono_guided, "omp for schedule(monotonic: guided, chunk)")
LOOP_PAIR(runtime, "omp for schedule(runtime)")
LOOP_PAIR(autos, "omp for schedule(auto)")
LOOP_PAIR(ord_static, "omp for ordered schedule(static)")
LOOP_PAIR(ord_dyn, "omp for ordered schedule(dynamic, chunk)")
LOOP_PAIR(ord_guided, "omp for ordered schedule(guided, chunk)")
LOOP_PAIR(ord_runtime, "omp for ordered schedule(runtime)")
LOOP_PAIR(lastpriv, "omp for lastprivate(conditional: chunk) schedule(dynamic, 2)")

typedef void (*loop_fn)(struct range);
/* chunked: the clause uses `chunk` (other kinds run once per range).
 * huge: the kind may take the huge chunk. gcc schedules static loops
 * inline, and its inline code multiplies the chunk by the team size. */
struct kind { const char* name; loop_fn up, down; int chunked, huge; };
#define KIND(N, C, H) {#N, N##_up, N##_down, C, H}
static const struct kind kinds[] = {
    KIND(stat, 0, 0), KIND(stat_c, 1, 0), KIND(dyn, 0, 1), KIND(dyn_c, 1, 1),
    KIND(mono_dyn, 1, 1), KIND(guided, 0, 1), KIND(guided_c, 1, 1), KIND(mono_guided, 1, 1),
    KIND(runtime, 0, 1), KIND(autos, 0, 0), KIND(ord_static, 0, 1), KIND(ord_dyn, 1, 1),
    KIND(ord_guided, 1, 1), KIND(ord_runtime, 0, 1),
};

static const long chunks[] = {1, 3, 64, 1000000, LONG_MAX};

/* runtime_only: only the kinds that read run-sched-var. */
static void run_all(const char* label, int runtime_only) {
  char what[160];
  for (size_t k = 0; k < sizeof kinds / sizeof kinds[0]; ++k) {
    if (runtime_only && !strstr(kinds[k].name, "runtime")) continue;
    for (size_t c = 0; c < sizeof chunks / sizeof chunks[0]; ++c) {
      chunk = chunks[c];
      if (chunk == LONG_MAX && !kinds[k].huge) continue;
      if (c > 0 && !kinds[k].chunked) continue;
      for (size_t r = 0; r < sizeof up / sizeof up[0]; ++r) {
        snprintf(what, sizeof what, "%s %s chunk=%ld up[%zu]", label, kinds[k].name, chunk, r);
        hits_reset();
        kinds[k].up(up[r]);
        hits_ok(count_up(up[r]), what);
        snprintf(what, sizeof what, "%s %s chunk=%ld down[%zu]", label, kinds[k].name, chunk, r);
        hits_reset();
        kinds[k].down(down[r]);
        hits_ok(count_down(down[r]), what);
      }
    }
  }
}

int main(void) {
  KITE_TEST_BEGIN();
  /* run-sched-var through omp_set_schedule, every kind and some chunks. */
  static const struct { omp_sched_t k; int c; } rs[] = {
      {omp_sched_static, 0},  {omp_sched_static, 5},  {omp_sched_dynamic, 0},
      {omp_sched_dynamic, 7}, {omp_sched_guided, 0},  {omp_sched_guided, 3},
      {omp_sched_auto, 0},    {(omp_sched_t)(omp_sched_dynamic | omp_sched_monotonic), 2},
  };
  for (size_t i = 0; i < sizeof rs / sizeof rs[0]; ++i) {
    omp_set_schedule(rs[i].k, rs[i].c);
    char label[32];
    snprintf(label, sizeof label, "run-sched %d,%d", (int)rs[i].k, rs[i].c);
    run_all(label, i > 0);
  }
  /* lastprivate(conditional:) uses GOMP_loop_start's shared scratch area.
   * clang 14 copies out the value of the thread that ran the last chunk,
   * not that of the last iteration that assigned it (wrong on LLVM's own
   * libomp too), so only gcc's builds check it. */
#ifndef __clang__
  for (int rep = 0; rep < 50; ++rep) {
    long last = -1;
    chunk = -1;
#pragma omp parallel
    {
#pragma omp for lastprivate(conditional: last) schedule(dynamic, 2)
      for (long i = 0; i < 1000; ++i)
        if (i % 7 == 3) last = i;
    }
    CHECK_EQ_LONG(last, 997);
  }
#endif
  KITE_TEST_END();
}
