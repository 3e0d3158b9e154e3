/* Every environment variable, given a bad value, gets exactly one warning on
 * stderr naming the variable and the value, and its default stays in effect.
 * kite-test-threads: 1
 * kite-test-timeout: 120 */
#include "env_child.h"

struct bad_case {
  const char* var;
  const char* value;
  const char* expect; /* a line the child's omp_display_env must show */
};

static const struct bad_case cases[] = {
    {"OMP_NUM_THREADS", "abc", NULL},
    {"OMP_NUM_THREADS", "-2", NULL},
    {"OMP_NUM_THREADS", "0", NULL},
    {"OMP_NUM_THREADS", "4x", NULL},
    {"OMP_NUM_THREADS", "2,,3", NULL},
    {"OMP_NUM_THREADS", "2,", NULL},
    {"OMP_NUM_THREADS", "", NULL},
    {"OMP_NUM_THREADS", "99999999999999999999", NULL},
    {"OMP_SCHEDULE", "fast", "OMP_SCHEDULE = 'DYNAMIC'"},
    {"OMP_SCHEDULE", "dynamic,0", "OMP_SCHEDULE = 'DYNAMIC'"},
    {"OMP_SCHEDULE", "guided,-1", "OMP_SCHEDULE = 'DYNAMIC'"},
    {"OMP_SCHEDULE", "static,4x", "OMP_SCHEDULE = 'DYNAMIC'"},
    {"OMP_SCHEDULE", "nonmonotonic:static", "OMP_SCHEDULE = 'DYNAMIC'"},
    {"OMP_SCHEDULE", "weird:guided", "OMP_SCHEDULE = 'DYNAMIC'"},
    {"OMP_DYNAMIC", "maybe", "OMP_DYNAMIC = 'FALSE'"},
    {"OMP_DYNAMIC", "1", "OMP_DYNAMIC = 'FALSE'"},
    {"OMP_NESTED", "yes", "OMP_MAX_ACTIVE_LEVELS = '1'"},
    {"OMP_MAX_ACTIVE_LEVELS", "-1", "OMP_MAX_ACTIVE_LEVELS = '1'"},
    {"OMP_MAX_ACTIVE_LEVELS", "two", "OMP_MAX_ACTIVE_LEVELS = '1'"},
    {"OMP_MAX_ACTIVE_LEVELS", "100000", "OMP_MAX_ACTIVE_LEVELS = '255'"},
    {"OMP_THREAD_LIMIT", "0", "OMP_THREAD_LIMIT = '2147483647'"},
    {"OMP_THREAD_LIMIT", "1e3", "OMP_THREAD_LIMIT = '2147483647'"},
    {"OMP_STACKSIZE", "12x", "OMP_STACKSIZE = '0'"},
    {"OMP_STACKSIZE", "-5M", "OMP_STACKSIZE = '0'"},
    {"OMP_STACKSIZE", "0", "OMP_STACKSIZE = '0'"},
    {"OMP_STACKSIZE", "4 MB", "OMP_STACKSIZE = '0'"},
    {"OMP_STACKSIZE", "99999999999999G", "OMP_STACKSIZE = '0'"},
    {"OMP_WAIT_POLICY", "busy", "OMP_WAIT_POLICY = 'PASSIVE'"},
    {"KITE_SPIN_US", "abc", "OMP_WAIT_POLICY = 'PASSIVE'"},
    {"KITE_SPIN_US", "-7", "OMP_WAIT_POLICY = 'PASSIVE'"},
    {"KITE_SPIN_US", "adaptively", "OMP_WAIT_POLICY = 'PASSIVE'"},
    {"KITE_BARRIER", "round", NULL},
    {"KITE_UNSTACK", "maybe", NULL},
    {"GOMP_SPINCOUNT", "lots", "OMP_WAIT_POLICY = 'PASSIVE'"},
    {"OMP_PROC_BIND", "sideways", "OMP_PROC_BIND = 'FALSE'"},
    {"OMP_PROC_BIND", "true,close", "OMP_PROC_BIND = 'FALSE'"},
    {"OMP_PROC_BIND", "close,,spread", "OMP_PROC_BIND = 'FALSE'"},
    {"OMP_PLACES", "{0", "OMP_PLACES = ''"},
    {"OMP_PLACES", "{}", "OMP_PLACES = ''"},
    {"OMP_PLACES", "!{0},{1}", "OMP_PLACES = ''"},
    {"OMP_PLACES", "cores(0)", "OMP_PLACES = ''"},
    {"OMP_PLACES", "cores(2", "OMP_PLACES = ''"},
    {"OMP_PLACES", "bogus", "OMP_PLACES = ''"},
    {"OMP_PLACES", "{0:-1}", "OMP_PLACES = ''"},
    {"OMP_PLACES", "{0},,{1}", "OMP_PLACES = ''"},
    {"OMP_PLACES", "{4000000}", "OMP_PLACES = ''"},
    {"OMP_CANCELLATION", "on", "OMP_CANCELLATION = 'FALSE'"},
    {"OMP_DISPLAY_ENV", "loud", NULL},
    {"OMP_DISPLAY_AFFINITY", "on", "OMP_DISPLAY_AFFINITY = 'FALSE'"},
    {"OMP_AFFINITY_FORMAT", "%z", "OMP_AFFINITY_FORMAT = 'level %L thread %i affinity %A'"},
    {"OMP_AFFINITY_FORMAT", "x%", "OMP_AFFINITY_FORMAT = 'level %L thread %i affinity %A'"},
    {"OMP_DEFAULT_DEVICE", "-1", "OMP_DEFAULT_DEVICE = '0'"},
    {"OMP_MAX_TASK_PRIORITY", "-3", "OMP_MAX_TASK_PRIORITY = '0'"},
    {"OMP_TARGET_OFFLOAD", "sometimes", "OMP_TARGET_OFFLOAD = 'DEFAULT'"},
    {"OMP_NUM_TEAMS", "0", "OMP_NUM_TEAMS = '0'"},
    {"OMP_TEAMS_THREAD_LIMIT", "abc", "OMP_TEAMS_THREAD_LIMIT = '0'"},
    {"OMP_ALLOCATOR", "omp_fast_alloc", "OMP_ALLOCATOR = 'omp_default_mem_alloc'"},
    {"OMP_TOOL", "maybe", "OMP_TOOL = 'ENABLED'"},
};

/* The child shows the ICVs and the values the API reports. */
static int child(void) {
  omp_display_env(0);
  omp_sched_t kind;
  int chunk;
  omp_get_schedule(&kind, &chunk);
  printf("max_threads=%d procs=%d kind=%d dyn=%d mal=%d tl=%d bind=%d places=%d\n",
         omp_get_max_threads(), omp_get_num_procs(), (int)kind, omp_get_dynamic(),
         omp_get_max_active_levels(), omp_get_thread_limit(), (int)omp_get_proc_bind(),
         omp_get_num_places());
  int n = 0;
#pragma omp parallel
  {
#pragma omp atomic
    n++;
  }
  printf("team=%d\n", n);
  return 0;
}

int main(int argc, char** argv) {
  KITE_TEST_BEGIN();
  if (is_child(argc, argv)) return child();
  int procs = omp_get_num_procs();
  char want[256];
  for (size_t i = 0; i < sizeof cases / sizeof cases[0]; ++i) {
    const struct bad_case* c = &cases[i];
    char assign[256];
    snprintf(assign, sizeof assign, "%s=%s", c->var, c->value);
    const char* env[] = {assign, NULL};
    static struct child_result r;
    run_child(&r, "show", env);
    fprintf(stderr, "case %s='%s'\n", c->var, c->value);
    CHECK_CHILD(r.status == 0, &r);
    /* Exactly one warning, naming the variable and quoting the value. */
    CHECK_CHILD(count_substr(r.err, "kite: warning") == 1, &r);
    snprintf(want, sizeof want, "%s='%s'", c->var, c->value);
    CHECK_CHILD(strstr(r.err, want) != NULL, &r);
    CHECK_CHILD(strstr(r.err, "using ") != NULL, &r);
    if (c->expect) CHECK_CHILD(strstr(r.err, c->expect) != NULL, &r);
    /* Defaults the API reports. */
    snprintf(want, sizeof want, "procs=%d ", procs);
    CHECK_CHILD(strstr(r.out, want) != NULL, &r);
    if (!strcmp(c->var, "OMP_NUM_THREADS")) {
      snprintf(want, sizeof want, "max_threads=%d ", procs);
      CHECK_CHILD(strstr(r.out, want) != NULL, &r);
      snprintf(want, sizeof want, "team=%d\n", procs);
      CHECK_CHILD(strstr(r.out, want) != NULL, &r);
    }
    if (!strcmp(c->var, "OMP_SCHEDULE")) CHECK_CHILD(strstr(r.out, "kind=2 ") != NULL, &r);
    if (!strcmp(c->var, "OMP_DYNAMIC")) CHECK_CHILD(strstr(r.out, "dyn=0 ") != NULL, &r);
    if (!strcmp(c->var, "OMP_NESTED")) CHECK_CHILD(strstr(r.out, "mal=1 ") != NULL, &r);
    if (!strcmp(c->var, "OMP_THREAD_LIMIT"))
      CHECK_CHILD(strstr(r.out, "tl=2147483647 ") != NULL, &r);
    if (!strcmp(c->var, "OMP_PROC_BIND") || !strcmp(c->var, "OMP_PLACES")) {
      CHECK_CHILD(strstr(r.out, "bind=0 ") != NULL, &r);
      CHECK_CHILD(strstr(r.out, "places=0\n") != NULL, &r);
    }
    if (!strcmp(c->var, "OMP_DISPLAY_ENV"))
      CHECK_CHILD(count_substr(r.err, "OPENMP DISPLAY ENVIRONMENT BEGIN") == 1, &r);
  }
  /* Binding asked for with an unusable OMP_PLACES falls back to 'threads'. */
  {
    const char* env[] = {"OMP_PLACES=nowhere", "OMP_PROC_BIND=close", NULL};
    static struct child_result r;
    run_child(&r, "show", env);
    CHECK_CHILD(count_substr(r.err, "kite: warning") == 1, &r);
    CHECK_CHILD(strstr(r.err, "using 'threads'") != NULL, &r);
    snprintf(want, sizeof want, "places=%d\n", procs);
    CHECK_CHILD(strstr(r.out, want) != NULL, &r);
  }
  KITE_TEST_END();
}
