/* Doacross loops report their dependences: each `ordered depend(source)`
 * dispatches ompt_callback_dependences with ompt_dependence_type_source and
 * each `ordered depend(sink: vec)` naming an iteration of the loop nest with
 * ompt_dependence_type_sink, in the implicit task's context, one item per
 * dimension whose value is that dimension's logical iteration number
 * (from 0). The source of an iteration is reported before any sink that
 * waits for it is (the sink once its wait is over). A 2-deep nest with
 * signed loops (GOMP_doacross_wait / __kmpc_doacross_wait) and a 1-deep one
 * with unsigned long long loops (gcc: GOMP_doacross_ull_*), both with
 * shifted bounds and steps, so logical numbers differ from the variables.
 * kite-test-threads: 1 2 4 */
#include "kite_test.h"
#include "support/task_recorder.h"

#define NI 7
#define NJ 5
#define NU 12

typedef struct {
  int type;
  long v[2];
  int n;
  long seq;
  int task_ok;
} dep_ev;

#define MAX_EV 4096
static dep_ev evs[MAX_EV];
static int nevs;
static long seq;

static void on_dependences(ompt_data_t* td, const ompt_dependence_t* deps, int n) {
  int k = __atomic_fetch_add(&nevs, 1, __ATOMIC_RELAXED);
  if (k >= MAX_EV) return;
  dep_ev* e = &evs[k];
  e->seq = __atomic_fetch_add(&seq, 1, __ATOMIC_SEQ_CST);
  e->n = n;
  e->type = n > 0 ? (int)deps[0].dependence_type : 0;
  for (int d = 0; d < n && d < 2; ++d) {
    e->v[d] = (long)deps[d].variable.value;
    if ((int)deps[d].dependence_type != e->type) e->type = -1;
  }
  /* The implicit task of the thread's region. */
  ompt_data_t* cur = NULL;
  int flags = 0;
  e->task_ok = rec_get_task_info(0, &flags, &cur, NULL, NULL, NULL) == 2 && cur == td &&
               (flags & ompt_task_implicit);
}

static int dd_initialize(ompt_function_lookup_t lookup, int device, ompt_data_t* tool_data) {
  int r = trec_initialize(lookup, device, tool_data);
  REC_REGISTER(ompt_callback_dependences, on_dependences);
  return r;
}
__attribute__((constructor)) static void dd_hook(void) { trec_result.initialize = dd_initialize; }

static int a[NI][NJ];
static int u[NU];

/* i = 3, 5, ..., j = 10, 9, ...: logical (i - 3) / 2 and 10 - j. */
static void nest2(void) {
#pragma omp parallel
#pragma omp for ordered(2) schedule(dynamic, 1)
  for (int i = 3; i < 3 + 2 * NI; i += 2)
    for (int j = 10; j > 10 - NJ; --j) {
      int li = (i - 3) / 2, lj = 10 - j;
#pragma omp ordered depend(sink: i - 2, j) depend(sink: i, j + 1)
      a[li][lj] = 1 + (li > 0 ? a[li - 1][lj] : 0) + (lj > 0 ? a[li][lj - 1] : 0);
#pragma omp ordered depend(source)
    }
}

static void nest1_ull(void) {
#pragma omp parallel
#pragma omp for ordered(1) schedule(static, 2)
  for (unsigned long long x = 100; x < 100 + 3 * NU; x += 3) {
    int l = (int)((x - 100) / 3);
#pragma omp ordered depend(sink: x - 3)
    u[l] = 1 + (l > 0 ? u[l - 1] : 0);
#pragma omp ordered depend(source)
  }
}

/* Index of the source event of `v` (n dims), or -1. */
static int source_of(int from, int to, const long* v, int n) {
  int found = -1;
  for (int k = from; k < to; ++k)
    if (evs[k].type == ompt_dependence_type_source && evs[k].n == n && evs[k].v[0] == v[0] &&
        (n < 2 || evs[k].v[1] == v[1])) {
      CHECK(found < 0); /* once */
      found = k;
    }
  return found;
}

static void check_round(int from, int to, int dims, int n0, int n1, int nsinks) {
  int sources = 0, sinks = 0;
  for (int k = from; k < to; ++k) {
    dep_ev* e = &evs[k];
    CHECK(e->task_ok);
    CHECK_EQ_LONG(e->n, dims);
    CHECK(e->type == ompt_dependence_type_source || e->type == ompt_dependence_type_sink);
    CHECK(e->v[0] >= 0 && e->v[0] < n0);
    if (dims == 2) CHECK(e->v[1] >= 0 && e->v[1] < n1);
    if (e->type == ompt_dependence_type_source) ++sources;
    if (e->type != ompt_dependence_type_sink) continue;
    ++sinks;
    int s = source_of(from, to, e->v, dims);
    CHECK(s >= 0);
    if (s >= 0) CHECK(evs[s].seq < e->seq);
  }
  CHECK_EQ_LONG(sources, dims == 2 ? n0 * n1 : n0);
  CHECK_EQ_LONG(sinks, nsinks);
  /* every iteration's source, once */
  for (long i = 0; i < n0; ++i)
    for (long j = 0; j < (dims == 2 ? n1 : 1); ++j) {
      long v[2] = {i, j};
      CHECK(source_of(from, to, v, dims) >= 0);
    }
}

int main(void) {
  KITE_TEST_BEGIN();
  omp_get_max_threads();
  CHECK_EQ_LONG(rec_set_result[ompt_callback_dependences], ompt_set_always);

  int from = nevs;
  nest2();
  int to = nevs;
  CHECK(to <= MAX_EV);
  CHECK_EQ_LONG(a[NI - 1][NJ - 1], 1 + (a[NI - 2][NJ - 1] + a[NI - 1][NJ - 2]));
  /* sinks: (i - 1, j) for i > 0, (i, j - 1) for j > 0 */
  check_round(from, to, 2, NI, NJ, (NI - 1) * NJ + NI * (NJ - 1));

  from = nevs;
  nest1_ull();
  to = nevs;
  CHECK(to <= MAX_EV);
  CHECK_EQ_LONG(u[NU - 1], NU);
  check_round(from, to, 1, NU, 0, NU - 1);
  KITE_TEST_END();
}
