/* parallel_begin, parallel_end and implicit_task are registered with
 * ompt_set_always (the answer 5.1 Table 4.2 and 6.0 Table 32.2 allow for
 * them, as for thread_begin/end, task_create, task_schedule, control_tool
 * and error), and every way into a parallel region, a league or an
 * initial task reports them: active and serialized regions of both ABIs
 * (GOMP_parallel, GOMP_parallel_start/end, __kmpc_fork_call,
 * __kmpc_serialized_parallel, __kmpc_fork_call_if with a false
 * condition, whatever the compiler emits for if(0)), nested regions
 * serialized by max-active-levels, combined constructs, a region inside an
 * explicit task, host teams and a region in a team, and a target region
 * run on the host (gcc: the compiler makes no runtime call for a clang
 * target region without offload targets, so it is no region the runtime
 * can know of).
 * kite-test-threads: 1 2 4 */
#include "kite_test.h"

#define ompt_start_tool paths_recorder_start_tool
#include "support/recorder.h"
#undef ompt_start_tool

static void on_error(ompt_severity_t s, const char* m, size_t n, const void* ra) {
  (void)s, (void)m, (void)n, (void)ra;
}
static int on_control_tool(uint64_t c, uint64_t m, void* a, const void* ra) {
  (void)c, (void)m, (void)a, (void)ra;
  return 0;
}
static void on_task_create(ompt_data_t* e, const ompt_frame_t* f, ompt_data_t* t, int fl, int d,
                           const void* ra) {
  (void)e, (void)f, (void)t, (void)fl, (void)d, (void)ra;
}
static void on_task_schedule(ompt_data_t* p, ompt_task_status_t s, ompt_data_t* n) {
  (void)p, (void)s, (void)n;
}

static int paths_initialize(ompt_function_lookup_t lookup, int device, ompt_data_t* tool_data) {
  int r = rec_initialize(lookup, device, tool_data);
  REC_REGISTER(ompt_callback_error, on_error);
  REC_REGISTER(ompt_callback_control_tool, on_control_tool);
  REC_REGISTER(ompt_callback_task_create, on_task_create);
  REC_REGISTER(ompt_callback_task_schedule, on_task_schedule);
  return r;
}

static ompt_start_tool_result_t paths_result = {paths_initialize, rec_finalize, {0}};

ompt_start_tool_result_t* ompt_start_tool(unsigned int omp_version, const char* runtime_version) {
  return paths_recorder_start_tool(omp_version, runtime_version) ? &paths_result : NULL;
}

/* The entry points of both ABIs, called directly so that each serialized
 * form runs on every compiler. */
typedef void (*kmpc_micro)(int*, int*, ...);
void GOMP_parallel_start(void (*fn)(void*), void* data, unsigned num_threads);
void GOMP_parallel_end(void);
void __kmpc_serialized_parallel(void* loc, int gtid);
void __kmpc_end_serialized_parallel(void* loc, int gtid);
void __kmpc_fork_call(void* loc, int argc, kmpc_micro fn, ...);
void __kmpc_fork_call_if(void* loc, int argc, kmpc_micro fn, int cond, void* args);
int __kmpc_global_thread_num(void* loc);

static int body_runs;
static void body(void) { __atomic_add_fetch(&body_runs, 1, __ATOMIC_RELAXED); }
static void gomp_body(void* arg) {
  (void)arg;
  body();
}
static void kmpc_body(int* gtid, int* btid, ...) {
  (void)gtid, (void)btid;
  body();
}

/* Events counted over every thread since the last snap(). */
static int snap_count[REC_MAX_THREADS];
static void snap(void) {
  for (int i = 0; i < REC_MAX_THREADS; ++i) snap_count[i] = rec_threads[i].count;
  body_runs = 0;
}
static int since(int ev) {
  int n = 0;
  for (int i = 0; i < rec_nthreads && i < REC_MAX_THREADS; ++i)
    for (int k = snap_count[i]; k < rec_threads[i].count; ++k) n += rec_threads[i].ev[k].ev == ev;
  return n;
}

/* `regions` parallel regions (leagues included) with `implicit` implicit
 * tasks and `initial` initial tasks in all, each begun and ended. */
static void expect(const char* path, int regions, int implicit, int initial) {
  int before = kite_test_failures;
  CHECK_EQ_LONG(since(EV_PARALLEL_BEGIN), regions);
  CHECK_EQ_LONG(since(EV_PARALLEL_END), regions);
  CHECK_EQ_LONG(since(EV_IMPLICIT_BEGIN), implicit);
  CHECK_EQ_LONG(since(EV_IMPLICIT_END), implicit);
  CHECK_EQ_LONG(since(EV_INITIAL_BEGIN), initial);
  CHECK_EQ_LONG(since(EV_INITIAL_END), initial);
  if (kite_test_failures != before) fprintf(stderr, "  path: %s\n", path);
}

__attribute__((noinline)) static void run_if(int cond) {
#pragma omp parallel if (cond) num_threads(2)
  body();
}

int main(void) {
  KITE_TEST_BEGIN();
  omp_get_max_threads();
  CHECK_EQ_LONG(rec_set_result[ompt_callback_parallel_begin], ompt_set_always);
  CHECK_EQ_LONG(rec_set_result[ompt_callback_parallel_end], ompt_set_always);
  CHECK_EQ_LONG(rec_set_result[ompt_callback_implicit_task], ompt_set_always);
  CHECK_EQ_LONG(rec_set_result[ompt_callback_thread_begin], ompt_set_always);
  CHECK_EQ_LONG(rec_set_result[ompt_callback_thread_end], ompt_set_always);
  CHECK_EQ_LONG(rec_set_result[ompt_callback_task_create], ompt_set_always);
  CHECK_EQ_LONG(rec_set_result[ompt_callback_task_schedule], ompt_set_always);
  CHECK_EQ_LONG(rec_set_result[ompt_callback_control_tool], ompt_set_always);
  CHECK_EQ_LONG(rec_set_result[ompt_callback_error], ompt_set_always);
  const int nmax = omp_get_max_threads();
  int gtid = __kmpc_global_thread_num(NULL);

  snap();
#pragma omp parallel num_threads(2)
  body();
  expect("parallel num_threads(2)", 1, body_runs, 0);
  CHECK_EQ_LONG(body_runs, 2);

  snap();
#pragma omp parallel if (0)
  body();
  expect("parallel if(0)", 1, 1, 0);
  CHECK_EQ_LONG(body_runs, 1);

  snap();
  run_if(0);
  expect("parallel if(cond), false", 1, 1, 0);
  snap();
  run_if(1);
  expect("parallel if(cond), true", 1, body_runs, 0);

  snap();
  GOMP_parallel_start(gomp_body, NULL, 1);
  gomp_body(NULL);
  GOMP_parallel_end();
  expect("GOMP_parallel_start(1)", 1, 1, 0);
  snap();
  GOMP_parallel_start(gomp_body, NULL, 2);
  gomp_body(NULL);
  GOMP_parallel_end();
  expect("GOMP_parallel_start(2)", 1, body_runs, 0);
  CHECK_EQ_LONG(body_runs, 2);

  snap();
  __kmpc_serialized_parallel(NULL, gtid);
  kmpc_body(&gtid, &gtid);
  __kmpc_end_serialized_parallel(NULL, gtid);
  expect("__kmpc_serialized_parallel", 1, 1, 0);
  snap();
  __kmpc_fork_call_if(NULL, 0, kmpc_body, 0, NULL);
  expect("__kmpc_fork_call_if(false)", 1, 1, 0);
  CHECK_EQ_LONG(body_runs, 1);
  snap();
  __kmpc_fork_call(NULL, 0, kmpc_body);
  expect("__kmpc_fork_call", 1, nmax, 0);
  CHECK_EQ_LONG(body_runs, nmax);

  /* Nested regions serialized by max-active-levels, and an inner region
   * of one thread in an active one. */
  omp_set_max_active_levels(1);
  snap();
#pragma omp parallel num_threads(2)
  {
#pragma omp parallel num_threads(2)
    body();
  }
  /* One inner body per outer thread. */
  expect("nested, max-active-levels 1", 1 + body_runs, 2 * body_runs, 0);
  CHECK_EQ_LONG(body_runs, 2);
  omp_set_max_active_levels(8);
  snap();
#pragma omp parallel num_threads(2)
  {
#pragma omp parallel num_threads(1)
    body();
  }
  expect("nested num_threads(1)", 1 + body_runs, 2 * body_runs, 0);

  /* Combined constructs. */
  snap();
#pragma omp parallel num_threads(2)
  {
    body();
#pragma omp for schedule(dynamic)
    for (int i = 0; i < 8; ++i) (void)i;
  }
  expect("parallel, worksharing loop", 1, body_runs, 0);
  snap();
  int team = 0;
#pragma omp parallel for schedule(dynamic) num_threads(2)
  for (int i = 0; i < 8; ++i)
    if (omp_get_thread_num() == 0) team = omp_get_num_threads();
  expect("parallel for", 1, team, 0);
  snap();
  team = 0;
#pragma omp parallel sections num_threads(2)
  {
#pragma omp section
    team = omp_get_num_threads();
#pragma omp section
    team = omp_get_num_threads();
  }
  expect("parallel sections", 1, team, 0);

  /* A region inside an explicit task (undeferred and deferred). */
  snap();
#pragma omp task if (0)
  {
#pragma omp parallel num_threads(2)
    body();
  }
#pragma omp task
  {
#pragma omp parallel num_threads(2)
    body();
  }
#pragma omp taskwait
  expect("parallel in tasks", 2, body_runs, 0);

  /* Host teams: a league, one initial task per team; a region in a team. */
  snap();
#pragma omp teams num_teams(3)
  body();
  expect("teams", 1, 0, 3);
  CHECK_EQ_LONG(body_runs, 3);
  snap();
#pragma omp teams num_teams(2)
  {
#pragma omp parallel num_threads(2)
    body();
  }
  expect("parallel in teams", 1 + 2, body_runs, 2);

  /* A target region run on the host: its initial task. */
  snap();
  int x = 0;
#pragma omp target map(tofrom : x)
  x = 1;
  CHECK_EQ_LONG(x, 1);
#ifdef __clang__
  /* clang without offload targets runs the body inline: no runtime call. */
  expect("target (clang: inline)", 0, 0, 0);
#else
  expect("target", 0, 0, 1);
#endif
  KITE_TEST_END();
}
