/* Valid values, written the ways libgomp accepts them (any case, blanks
 * around), set the ICVs they name and produce no warning.
 * kite-test-threads: 1
 * kite-test-timeout: 120 */
#include "env_child.h"

struct good_case {
  const char* env[3];
  const char* display; /* a line omp_display_env must show */
  const char* api;     /* a substring of the child's API report */
};

static const struct good_case cases[] = {
    {{"OMP_NUM_THREADS= 3 "}, "OMP_NUM_THREADS = '3'", "max_threads=3 "},
    {{"OMP_SCHEDULE= Guided , 7 "}, "OMP_SCHEDULE = 'GUIDED,7'", "sched=3,7 "},
    {{"OMP_SCHEDULE=monotonic:dynamic"}, "OMP_SCHEDULE = 'MONOTONIC:DYNAMIC'", "sched=-2147483646,1 "},
    {{"OMP_SCHEDULE=NONMONOTONIC : guided"}, "OMP_SCHEDULE = 'GUIDED'", "sched=3,1 "},
    {{"OMP_SCHEDULE=static,16"}, "OMP_SCHEDULE = 'STATIC,16'", "sched=1,16 "},
    {{"OMP_SCHEDULE=auto"}, "OMP_SCHEDULE = 'AUTO'", "sched=4,"},
    {{"OMP_DYNAMIC=TRUE"}, "OMP_DYNAMIC = 'TRUE'", "dyn=1 "},
    {{"OMP_DYNAMIC= false"}, "OMP_DYNAMIC = 'FALSE'", "dyn=0 "},
    {{"OMP_NESTED=true"}, "OMP_MAX_ACTIVE_LEVELS = '255'", "mal=255 "},
    {{"OMP_NESTED=false", "OMP_NUM_THREADS=2,2"}, "OMP_MAX_ACTIVE_LEVELS = '1'", "mal=1 "},
    {{"OMP_NESTED=true", "OMP_MAX_ACTIVE_LEVELS=3"}, "OMP_MAX_ACTIVE_LEVELS = '3'", "mal=3 "},
    {{"OMP_MAX_ACTIVE_LEVELS=0"}, "OMP_MAX_ACTIVE_LEVELS = '0'", "mal=0 "},
    {{"OMP_NUM_THREADS=2,3"}, "OMP_MAX_ACTIVE_LEVELS = '255'", "mal=255 "},
    {{"OMP_PROC_BIND=close,spread"}, "OMP_MAX_ACTIVE_LEVELS = '255'", "mal=255 "},
    {{"OMP_THREAD_LIMIT=7"}, "OMP_THREAD_LIMIT = '7'", "tl=7 "},
    {{"OMP_STACKSIZE=2M"}, "OMP_STACKSIZE = '2097152'", NULL},
    {{"OMP_STACKSIZE=512"}, "OMP_STACKSIZE = '524288'", NULL},
    {{"OMP_STACKSIZE= 100 k"}, "OMP_STACKSIZE = '102400'", NULL},
    {{"OMP_STACKSIZE=2097152B"}, "OMP_STACKSIZE = '2097152'", NULL},
    {{"OMP_STACKSIZE=1g"}, "OMP_STACKSIZE = '1073741824'", NULL},
    {{"OMP_STACKSIZE=64k"}, "OMP_STACKSIZE = '65536'", NULL},
    {{"OMP_WAIT_POLICY=ACTIVE"}, "OMP_WAIT_POLICY = 'ACTIVE'", NULL},
    {{"OMP_WAIT_POLICY=passive"}, "OMP_WAIT_POLICY = 'PASSIVE'", NULL},
    {{"OMP_PROC_BIND=spread,close"}, "OMP_PROC_BIND = 'SPREAD,CLOSE'", "bind=4 "},
    {{"OMP_PROC_BIND=master"}, "OMP_PROC_BIND = 'PRIMARY'", "bind=2 "},
    {{"OMP_PROC_BIND= TRUE "}, "OMP_PROC_BIND = 'TRUE'", "bind=1 "},
    {{"OMP_PROC_BIND=false"}, "OMP_PROC_BIND = 'FALSE'", "bind=0 places=0"},
    {{"OMP_PLACES=threads"}, "OMP_PROC_BIND = 'TRUE'", "bind=1 "},
    {{"OMP_PLACES=threads", "OMP_PROC_BIND=false"}, "OMP_PROC_BIND = 'FALSE'", "bind=0 "},
    {{"OMP_CANCELLATION=true"}, "OMP_CANCELLATION = 'TRUE'", NULL},
    {{"OMP_DISPLAY_AFFINITY=false"}, "OMP_DISPLAY_AFFINITY = 'FALSE'", NULL},
    {{"OMP_AFFINITY_FORMAT=%n/%N %{host}"}, "OMP_AFFINITY_FORMAT = '%n/%N %{host}'", NULL},
    {{"OMP_DEFAULT_DEVICE=0"}, "OMP_DEFAULT_DEVICE = '0'", NULL},
    {{"OMP_MAX_TASK_PRIORITY=5"}, "OMP_MAX_TASK_PRIORITY = '5'", NULL},
    {{"OMP_TARGET_OFFLOAD=Mandatory"}, "OMP_TARGET_OFFLOAD = 'MANDATORY'", NULL},
    {{"OMP_TARGET_OFFLOAD=disabled"}, "OMP_TARGET_OFFLOAD = 'DISABLED'", NULL},
    {{"OMP_NUM_TEAMS=4"}, "OMP_NUM_TEAMS = '4'", NULL},
    {{"OMP_TEAMS_THREAD_LIMIT=3"}, "OMP_TEAMS_THREAD_LIMIT = '3'", NULL},
    {{"OMP_ALLOCATOR=omp_high_bw_mem_alloc"}, "OMP_ALLOCATOR = 'omp_high_bw_mem_alloc'", NULL},
    {{"OMP_ALLOCATOR=omp_thread_mem_alloc"}, "OMP_ALLOCATOR = 'omp_thread_mem_alloc'", NULL},
    {{"OMP_TOOL=disabled"}, "OMP_TOOL = 'DISABLED'", NULL},
    {{"OMP_TOOL_LIBRARIES=libfoo.so:libbar.so"}, "OMP_TOOL_LIBRARIES = 'libfoo.so:libbar.so'", NULL},
    {{"OMP_TOOL_VERBOSE_INIT=stderr"}, "OMP_TOOL_VERBOSE_INIT = 'stderr'", NULL},
    {{"KITE_SPIN_US=0"}, NULL, NULL},
    {{"GOMP_SPINCOUNT=10k"}, NULL, NULL},
    {{"GOMP_SPINCOUNT=infinite"}, NULL, NULL},
};

static int child(void) {
  omp_display_env(0);
  omp_sched_t kind;
  int chunk;
  omp_get_schedule(&kind, &chunk);
  printf("max_threads=%d sched=%d,%d dyn=%d mal=%d tl=%d bind=%d places=%d\n",
         omp_get_max_threads(), (int)kind, chunk, omp_get_dynamic(),
         omp_get_max_active_levels(), omp_get_thread_limit(), (int)omp_get_proc_bind(),
         omp_get_num_places());
  /* The runtime still runs regions with these settings. */
  int n = 0;
#pragma omp parallel num_threads(2)
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
  for (size_t i = 0; i < sizeof cases / sizeof cases[0]; ++i) {
    const struct good_case* c = &cases[i];
    static struct child_result r;
    run_child(&r, "show", c->env);
    fprintf(stderr, "case %s %s\n", c->env[0], c->env[1] ? c->env[1] : "");
    CHECK_CHILD(r.status == 0, &r);
    CHECK_CHILD(strstr(r.err, "kite: warning") == NULL, &r);
    if (!strstr(c->env[0], "LEVELS=0")) CHECK_CHILD(strstr(r.out, "team=2\n") != NULL, &r);
    if (c->display) CHECK_CHILD(strstr(r.err, c->display) != NULL, &r);
    if (c->api) CHECK_CHILD(strstr(r.out, c->api) != NULL, &r);
  }
  KITE_TEST_END();
}
