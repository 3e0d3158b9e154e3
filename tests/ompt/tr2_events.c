// A TR2 (2014 draft OMPT) tool in the program: Kite finds its
// ompt_initialize (exported with -rdynamic) because no ompt_start_tool
// exists, calls it once with ompt_version 1, and the tool takes every
// inquiry function through lookup. Checked: the set_callback answers per
// event for the compiler that built this program, the order of events per
// thread (thread and idle, implicit tasks, barrier and wait_barrier, the
// lock, nest lock and critical events with the mutex's address as wait
// id, task begin/switch/end, taskwait), parallel ids and team sizes
// through nested regions, the initial task's id as the one argument of its
// begin and end, the idle frame (the worker's, in the pool and in region
// work alike; none on the initial thread), ompt_control, and at exit that
// every thread ended before runtime_shutdown.
// kite-test-threads: 2
#include "kite_test.h"

#include <stdint.h>
#include <unistd.h>

#include "../../include/ompt-tr2.h"

// --- the event log --------------------------------------------------------------------
struct rec {
  int ev;
  uint64_t thread, a, b, c;
};
enum { kCap = 1 << 15 };
static struct rec g_log[kCap];
static int g_n;

static ompt_get_thread_id_t get_thread_id;
static ompt_get_parallel_id_t get_parallel_id;
static ompt_get_parallel_team_size_t get_team_size;
static ompt_get_task_id_t get_task_id;
static ompt_get_task_frame_t get_task_frame;
static ompt_get_state_t get_state;
static ompt_set_callback_t set_callback;
static ompt_get_callback_t get_callback;
static ompt_enumerate_state_t enumerate_state;
static ompt_get_idle_frame_t get_idle_frame;

static void log_ev(int ev, uint64_t a, uint64_t b, uint64_t c) {
  int i = __atomic_fetch_add(&g_n, 1, __ATOMIC_RELAXED);
  if (i >= kCap) return;
  g_log[i].ev = ev;
  g_log[i].thread = get_thread_id();
  g_log[i].a = a;
  g_log[i].b = b;
  g_log[i].c = c;
}

static void on_thread(ompt_thread_type_t type, ompt_thread_id_t id) { log_ev(0, type, id, 0); }
static void on_thread_begin(ompt_thread_type_t type, ompt_thread_id_t id) {
  log_ev(ompt_event_thread_begin, type, id, 0);
}
static void on_thread_end(ompt_thread_type_t type, ompt_thread_id_t id) {
  log_ev(ompt_event_thread_end, type, id, 0);
}
static uint64_t g_state_at_wait_barrier, g_idle_frame_at_idle;
static void on_idle_begin(ompt_thread_id_t id) {
  void* idle = get_idle_frame();
  if (idle) __atomic_fetch_add(&g_idle_frame_at_idle, 1, __ATOMIC_RELAXED);
  log_ev(ompt_event_idle_begin, id, 0, (uint64_t)(uintptr_t)idle);
}
static void on_idle_end(ompt_thread_id_t id) { log_ev(ompt_event_idle_end, id, 0, 0); }
// The program's own code (its outlined functions), not the runtime's.
static int in_program(void* fn) {
  Dl_info a, b;
  return fn && dladdr(fn, &a) && dladdr((void*)&in_program, &b) && a.dli_fbase == b.dli_fbase;
}
static void on_parallel_begin(ompt_task_id_t parent, ompt_frame_t* frame, ompt_parallel_id_t id,
                              uint32_t requested, void* fn) {
  log_ev(ompt_event_parallel_begin, parent, id, requested);
  CHECK(frame != NULL && frame->reenter_runtime_frame != NULL);
  // The program's outlined function; none for clang's if(false) region,
  // whose body the program calls itself.
  CHECK(fn == NULL ? requested == 1 : in_program(fn));
}
// One function per event of the (parallel id, task id) shape.
#define PAIR(name)                                                          \
  static void on_##name(ompt_parallel_id_t p, ompt_task_id_t t) {           \
    log_ev(ompt_event_##name, p, t, 0);                                     \
  }
PAIR(parallel_end)
PAIR(implicit_task_begin)
PAIR(implicit_task_end)
PAIR(barrier_begin)
PAIR(barrier_end)
PAIR(wait_barrier_end)
PAIR(taskwait_begin)
PAIR(taskwait_end)
PAIR(wait_taskwait_begin)
PAIR(wait_taskwait_end)
PAIR(master_begin)
PAIR(master_end)
PAIR(loop_end)
// TR2 gives the initial task's events ompt_task_callback_t: the task id
// is the only argument.
static void on_initial_task_begin(ompt_task_id_t t) {
  log_ev(ompt_event_initial_task_begin, t, 0, 0);
}
static void on_initial_task_end(ompt_task_id_t t) { log_ev(ompt_event_initial_task_end, t, 0, 0); }
static void on_wait_barrier_begin(ompt_parallel_id_t p, ompt_task_id_t t) {
  ompt_wait_id_t w = 0;
  ompt_state_t s = get_state(&w);
  if ((s == ompt_state_wait_barrier_implicit || s == ompt_state_wait_barrier_explicit) && w != 0)
    __atomic_fetch_add(&g_state_at_wait_barrier, 1, __ATOMIC_RELAXED);
  log_ev(ompt_event_wait_barrier_begin, p, t, 0);
}
static void on_loop_begin(ompt_parallel_id_t p, ompt_task_id_t t, void* fn) {
  log_ev(ompt_event_loop_begin, p, t, 0);
}
#define WAIT(name)                                                          \
  static void on_##name(ompt_wait_id_t w) { log_ev(ompt_event_##name, w, get_state(NULL), 0); }
WAIT(wait_lock)
WAIT(acquired_lock)
WAIT(release_lock)
WAIT(wait_nest_lock)
WAIT(acquired_nest_lock_first)
WAIT(acquired_nest_lock_next)
WAIT(release_nest_lock_prev)
WAIT(release_nest_lock_last)
WAIT(wait_critical)
WAIT(acquired_critical)
WAIT(release_critical)
WAIT(init_lock)
WAIT(destroy_lock)
static void on_task_begin(ompt_task_id_t parent, ompt_frame_t* frame, ompt_task_id_t id,
                          void* fn) {
  CHECK(in_program(fn) && frame != NULL);
  log_ev(ompt_event_task_begin, parent, id, get_task_id(0));
}
static void on_task_end(ompt_task_id_t id) { log_ev(ompt_event_task_end, id, 0, 0); }
static void on_task_switch(ompt_task_id_t from, ompt_task_id_t to) {
  log_ev(ompt_event_task_switch, from, to, 0);
}
static uint64_t g_control_cmd, g_control_mod;
static void on_control(uint64_t cmd, uint64_t mod) {
  g_control_cmd = cmd;
  g_control_mod = mod;
}
static int g_shutdowns;
static void on_shutdown(void) { log_ev(ompt_event_runtime_shutdown, 0, 0, 0); ++g_shutdowns; }

// --- initialization ------------------------------------------------------------------
static int g_inits;
static unsigned g_version;
static char g_runtime[64];
static int g_unknown_found, g_answers[64], g_placeholders_ok;

static void at_exit_check(void);

#define FIND(var, name) var = (name##_t)lookup(#name)

int ompt_initialize(ompt_function_lookup_t lookup, const char* runtime_version,
                    unsigned int ompt_version) {
  ++g_inits;
  g_version = ompt_version;
  snprintf(g_runtime, sizeof g_runtime, "%s", runtime_version ? runtime_version : "");
  FIND(get_thread_id, ompt_get_thread_id);
  FIND(get_parallel_id, ompt_get_parallel_id);
  FIND(get_team_size, ompt_get_parallel_team_size);
  FIND(get_task_id, ompt_get_task_id);
  FIND(get_task_frame, ompt_get_task_frame);
  FIND(get_state, ompt_get_state);
  FIND(set_callback, ompt_set_callback);
  FIND(get_callback, ompt_get_callback);
  FIND(enumerate_state, ompt_enumerate_state);
  FIND(get_idle_frame, ompt_get_idle_frame);
  g_unknown_found = lookup("ompt_no_such_function") != NULL;
  /* TR2's placeholder functions: five distinct addresses. */
  {
    static const char* const names[] = {"ompt_idle", "ompt_overhead", "ompt_barrier_wait",
                                        "ompt_task_wait", "ompt_mutex_wait"};
    void* seen[5];
    g_placeholders_ok = 1;
    for (int i = 0; i < 5; ++i) {
      seen[i] = (void*)lookup(names[i]);
      if (!seen[i]) g_placeholders_ok = 0;
      for (int j = 0; j < i; ++j)
        if (seen[j] == seen[i]) g_placeholders_ok = 0;
    }
  }
  if (!get_thread_id || !get_parallel_id || !get_team_size || !get_task_id || !get_task_frame ||
      !get_state || !set_callback || !get_callback || !enumerate_state || !get_idle_frame) {
    fprintf(stderr, "FAIL: lookup is missing an inquiry function\n");
    exit(1);
  }
#define REG(name) g_answers[ompt_event_##name] = set_callback(ompt_event_##name, (ompt_callback_t)on_##name)
  REG(thread_begin);
  REG(thread_end);
  REG(idle_begin);
  REG(idle_end);
  REG(parallel_begin);
  REG(parallel_end);
  REG(implicit_task_begin);
  REG(implicit_task_end);
  REG(initial_task_begin);
  REG(initial_task_end);
  REG(barrier_begin);
  REG(barrier_end);
  REG(wait_barrier_begin);
  REG(wait_barrier_end);
  REG(taskwait_begin);
  REG(taskwait_end);
  REG(wait_taskwait_begin);
  REG(wait_taskwait_end);
  REG(master_begin);
  REG(master_end);
  REG(loop_begin);
  REG(loop_end);
  REG(wait_lock);
  REG(acquired_lock);
  REG(release_lock);
  REG(wait_nest_lock);
  REG(acquired_nest_lock_first);
  REG(acquired_nest_lock_next);
  REG(release_nest_lock_prev);
  REG(release_nest_lock_last);
  REG(wait_critical);
  REG(acquired_critical);
  REG(release_critical);
  REG(init_lock);
  REG(destroy_lock);
  REG(task_begin);
  REG(task_end);
  REG(task_switch);
  REG(control);
  g_answers[ompt_event_runtime_shutdown] =
      set_callback(ompt_event_runtime_shutdown, (ompt_callback_t)on_shutdown);
  g_answers[ompt_event_workshare_begin] =
      set_callback(ompt_event_workshare_begin, (ompt_callback_t)on_thread);
  g_answers[ompt_event_flush] = set_callback(ompt_event_flush, (ompt_callback_t)on_thread);
  g_answers[ompt_event_wait_atomic] = set_callback(ompt_event_wait_atomic, (ompt_callback_t)on_thread);
  g_answers[0] = set_callback((ompt_event_t)0, (ompt_callback_t)on_thread);
  g_answers[63] = set_callback((ompt_event_t)62, (ompt_callback_t)on_thread);
  // Registered now, before the runtime's own handler: it runs after it.
  atexit(at_exit_check);
  return 1;
}

// --- checks over the log -------------------------------------------------------------------
static int count(int ev) {
  int n = 0;
  for (int i = 0; i < g_n && i < kCap; ++i) n += g_log[i].ev == ev;
  return n;
}

// Per thread, every *_begin of `b` is closed by `e` before the next begin.
static void check_pairs(int b, int e, const char* what) {
  for (int i = 0; i < g_n && i < kCap; ++i) {
    if (g_log[i].ev != b) continue;
    int closed = 0;
    for (int j = i + 1; j < g_n && j < kCap; ++j) {
      if (g_log[j].thread != g_log[i].thread) continue;
      if (g_log[j].ev == b) break;
      if (g_log[j].ev == e && g_log[j].a == g_log[i].a && g_log[j].b == g_log[i].b) {
        closed = 1;
        break;
      }
    }
    if (!closed) {
      fprintf(stderr, "%s: a begin at %d (thread %lu) has no end\n", what, i,
              (unsigned long)g_log[i].thread);
      CHECK(closed);
      return;
    }
  }
}

// The index of the first `ev` on `thread` from `from` on with a == `a`
// (any a when a_any); -1 if none.
static int find(int from, uint64_t thread, int ev, uint64_t a, int a_any) {
  for (int i = from; i < g_n && i < kCap; ++i)
    if (g_log[i].thread == thread && g_log[i].ev == ev && (a_any || g_log[i].a == a)) return i;
  return -1;
}

static void at_exit_check(void) {
  int failures = 0;
  if (g_shutdowns != 1) {
    fprintf(stderr, "FAIL: runtime_shutdown came %d times\n", g_shutdowns);
    ++failures;
  }
  int shut = -1;
  for (int i = 0; i < g_n && i < kCap; ++i)
    if (g_log[i].ev == ompt_event_runtime_shutdown) shut = i;
  int begins = 0, ends = 0;
  for (int i = 0; i < g_n && i < kCap; ++i) {
    if (g_log[i].ev == ompt_event_thread_begin) ++begins;
    if (g_log[i].ev == ompt_event_thread_end) {
      ++ends;
      if (shut >= 0 && i > shut) ++failures, fprintf(stderr, "FAIL: thread_end after shutdown\n");
    }
  }
  if (begins != ends) {
    fprintf(stderr, "FAIL: %d thread_begin, %d thread_end\n", begins, ends);
    ++failures;
  }
  if (count(ompt_event_initial_task_end) != 1) {
    fprintf(stderr, "FAIL: initial_task_end %d times\n", count(ompt_event_initial_task_end));
    ++failures;
  }
  // The initial task's end names the task its begin named.
  for (int i = 0; i < g_n && i < kCap; ++i)
    if (g_log[i].ev == ompt_event_initial_task_end &&
        (g_log[i].a == 0 || g_log[i].a != g_log[1].a)) {
      fprintf(stderr, "FAIL: initial_task_end got task id %lu, its begin %lu\n",
              (unsigned long)g_log[i].a, (unsigned long)g_log[1].a);
      ++failures;
    }
  if (failures) _exit(1);
}

static int g_sink;

int main(void) {
  KITE_TEST_BEGIN();
  (void)omp_get_max_threads();  // the runtime's first record: the tool is initialized
  CHECK_EQ_LONG(g_inits, 1);
  CHECK_EQ_LONG(g_version, 1);
  CHECK(strncmp(g_runtime, "kite ", 5) == 0);
  CHECK(!g_unknown_found);
  CHECK(g_placeholders_ok);

  // Answers: always for what every compiler makes a call for; per compiler
  // for what gcc inlines; never for workshare; errors for non-events.
#ifdef __clang__
  const int master = 4, loop = 4, flush = 4;
#else
  const int master = 2, loop = 3, flush = 2;
#endif
  CHECK_EQ_LONG(g_answers[ompt_event_parallel_begin], 4);
  CHECK_EQ_LONG(g_answers[ompt_event_thread_begin], 4);
  CHECK_EQ_LONG(g_answers[ompt_event_wait_barrier_begin], 4);
  CHECK_EQ_LONG(g_answers[ompt_event_acquired_lock], 4);
  CHECK_EQ_LONG(g_answers[ompt_event_task_switch], 4);
  CHECK_EQ_LONG(g_answers[ompt_event_runtime_shutdown], 4);
  CHECK_EQ_LONG(g_answers[ompt_event_master_begin], master);
  CHECK_EQ_LONG(g_answers[ompt_event_loop_begin], loop);
  CHECK_EQ_LONG(g_answers[ompt_event_flush], flush);
  CHECK_EQ_LONG(g_answers[ompt_event_workshare_begin], 2);
  CHECK_EQ_LONG(g_answers[ompt_event_wait_atomic], 3);
  CHECK_EQ_LONG(g_answers[0], 0);
  CHECK_EQ_LONG(g_answers[63], 0);
  ompt_callback_t got = NULL;
  CHECK_EQ_LONG(get_callback(ompt_event_task_begin, &got), 1);
  CHECK(got == (ompt_callback_t)on_task_begin);
  CHECK_EQ_LONG(get_callback(ompt_event_sections_begin, &got), 0);

  // States: enumerated from ompt_state_first, each once.
  int st = ompt_state_first, next, nstates = 0;
  const char* name;
  while (enumerate_state(st, &next, &name)) {
    CHECK(name && strncmp(name, "ompt_state_", 11) == 0);
    st = next;
    ++nstates;
  }
  CHECK(nstates >= 14);
  ompt_wait_id_t w = 99;
  CHECK_EQ_LONG(get_state(&w), ompt_state_work_serial);
  CHECK_EQ_LONG(w, 0);

  // The initial thread and task, before anything else on this thread.
  const uint64_t me = get_thread_id();
  CHECK(me != 0);
  CHECK_EQ_LONG(g_log[0].ev, ompt_event_thread_begin);
  CHECK_EQ_LONG(g_log[0].a, ompt_thread_initial);
  CHECK_EQ_LONG(g_log[0].thread, me);
  CHECK_EQ_LONG(g_log[1].ev, ompt_event_initial_task_begin);
  const uint64_t initial_task = get_task_id(0);
  CHECK(initial_task != 0);
  CHECK_EQ_LONG(g_log[1].a, initial_task);  // the callback's one argument
  // Outside any region: no parallel id, no team, no idle frame (the
  // initial thread has none).
  CHECK_EQ_LONG(get_parallel_id(0), 0);
  CHECK_EQ_LONG(get_team_size(0), -1);
  CHECK(get_task_frame(0) != NULL);
  CHECK(get_idle_frame() == NULL);

  // --- a region with an explicit barrier, a lock, a nest lock, a critical ---
  omp_lock_t lock;
  omp_nest_lock_t nest;
  omp_init_lock(&lock);
  omp_init_nest_lock(&nest);
  uint64_t region = 0, in_region[2] = {0, 0};
  int sizes[2] = {0, 0}, outer_sizes[2] = {0, 0};
  uint64_t outer_ids[2] = {1, 1};
  // The idle frame while running the region (TR2: NULL only when "the
  // current thread has no idle frame in its call stack"): the worker's,
  // under its implicit task's frame; none on the initial thread.
  void* idle_in_region[2] = {NULL, NULL};
  void* exit_in_region[2] = {NULL, NULL};
  uint64_t worker_thread = 0;
  int holding = 0;
#pragma omp parallel num_threads(2)
  {
    int t = omp_get_thread_num();
    idle_in_region[t] = get_idle_frame();
    ompt_frame_t* own = get_task_frame(0);
    exit_in_region[t] = own ? own->exit_runtime_frame : NULL;
    if (t == 1) worker_thread = get_thread_id();
    in_region[t] = get_parallel_id(0);
    sizes[t] = get_team_size(0);
    outer_ids[t] = get_parallel_id(1);
    outer_sizes[t] = get_team_size(1);
#pragma omp barrier
    if (t == 0) {
      omp_set_lock(&lock);
      __atomic_store_n(&holding, 1, __ATOMIC_RELEASE);
      usleep(20000);  // thread 1 waits for it meanwhile (or after: either is fine)
      omp_unset_lock(&lock);
    } else {
      while (!__atomic_load_n(&holding, __ATOMIC_ACQUIRE)) {
      }
      omp_set_lock(&lock);
      omp_unset_lock(&lock);
    }
#pragma omp barrier
    if (t == 1) {
      CHECK(omp_test_lock(&lock));
      omp_unset_lock(&lock);
      omp_set_nest_lock(&nest);
      omp_set_nest_lock(&nest);
      omp_unset_nest_lock(&nest);
      omp_unset_nest_lock(&nest);
    }
#pragma omp critical
    g_sink += t;
  }
  omp_destroy_lock(&lock);
  omp_destroy_nest_lock(&nest);
  CHECK_EQ_LONG(count(ompt_event_parallel_begin), 1);
  int pb = find(0, me, ompt_event_parallel_begin, 0, 1);
  CHECK(pb >= 0);
  if (pb >= 0) {
    region = g_log[pb].b;
    CHECK(region != 0);
    CHECK_EQ_LONG(g_log[pb].a, initial_task);  // the encountering task
    CHECK_EQ_LONG(g_log[pb].c, 2);             // requested
  }
  for (int t = 0; t < 2; ++t) {
    CHECK_EQ_LONG(in_region[t], region);
    CHECK_EQ_LONG(sizes[t], 2);
    CHECK_EQ_LONG(outer_ids[t], 0);  // no region around it
    CHECK_EQ_LONG(outer_sizes[t], -1);
  }
  int pe = find(0, me, ompt_event_parallel_end, region, 0);
  CHECK(pe > pb);
  if (pe >= 0) CHECK_EQ_LONG(g_log[pe].b, initial_task);
  CHECK_EQ_LONG(count(ompt_event_implicit_task_begin), 2);
  CHECK_EQ_LONG(count(ompt_event_implicit_task_end), 2);
  check_pairs(ompt_event_implicit_task_begin, ompt_event_implicit_task_end, "implicit task");
  check_pairs(ompt_event_barrier_begin, ompt_event_barrier_end, "barrier");
  check_pairs(ompt_event_wait_barrier_begin, ompt_event_wait_barrier_end, "wait_barrier");
  // Two explicit barriers and the region's own, per thread.
  CHECK(count(ompt_event_barrier_begin) >= 6);
  CHECK_EQ_LONG(count(ompt_event_barrier_begin), count(ompt_event_wait_barrier_begin));
  CHECK_EQ_LONG(g_state_at_wait_barrier, count(ompt_event_wait_barrier_begin));
  // The workers: thread_begin, then idle until their implicit task.
  for (int i = 0; i < g_n && i < kCap; ++i) {
    if (g_log[i].ev != ompt_event_thread_begin || g_log[i].a != ompt_thread_worker) continue;
    int idle = find(i + 1, g_log[i].thread, ompt_event_idle_begin, 0, 1);
    int task = find(i + 1, g_log[i].thread, ompt_event_implicit_task_begin, 0, 1);
    int idle_end = find(i + 1, g_log[i].thread, ompt_event_idle_end, 0, 1);
    CHECK(idle > i && idle_end > idle && (task < 0 || task > idle_end));
  }
  CHECK(g_idle_frame_at_idle >= 1);
  CHECK(idle_in_region[0] == NULL);
  CHECK(idle_in_region[1] != NULL);
  CHECK(exit_in_region[1] != NULL);
  // Stacks grow down: the idle loop's frame is older than the body's.
  CHECK((uintptr_t)idle_in_region[1] > (uintptr_t)exit_in_region[1]);
  {
    // The same frame the worker's idle_begin saw.
    int wi = find(0, worker_thread, ompt_event_idle_begin, 0, 1);
    CHECK(wi >= 0);
    if (wi >= 0) CHECK_EQ_LONG(g_log[wi].c, (uint64_t)(uintptr_t)idle_in_region[1]);
  }

  // The lock: each set waits (state wait_lock in the event), is acquired
  // and released, with the lock's address; the test_lock is acquired alone.
  const uint64_t lk = (uint64_t)(uintptr_t)&lock, nk = (uint64_t)(uintptr_t)&nest;
  CHECK_EQ_LONG(count(ompt_event_init_lock), 1);
  CHECK_EQ_LONG(count(ompt_event_destroy_lock), 1);
  CHECK_EQ_LONG(count(ompt_event_wait_lock), 2);
  CHECK_EQ_LONG(count(ompt_event_acquired_lock), 3);
  CHECK_EQ_LONG(count(ompt_event_release_lock), 3);
  for (int i = 0; i < g_n && i < kCap; ++i) {
    int ev = g_log[i].ev;
    if (ev == ompt_event_wait_lock) {
      CHECK_EQ_LONG(g_log[i].a, lk);
      CHECK_EQ_LONG(g_log[i].b, ompt_state_wait_lock);
      int acq = find(i + 1, g_log[i].thread, ompt_event_acquired_lock, lk, 0);
      int rel = find(i + 1, g_log[i].thread, ompt_event_release_lock, lk, 0);
      CHECK(acq > i && rel > acq);
      if (acq > i) CHECK_EQ_LONG(g_log[acq].b, ompt_state_work_parallel);
    }
    if (ev == ompt_event_init_lock || ev == ompt_event_destroy_lock) CHECK_EQ_LONG(g_log[i].a, lk);
  }
  // The nest lock: first, next, prev, last, with its wait before the first.
  int nw = find(0, 0, ompt_event_wait_nest_lock, 0, 1);
  for (int i = 0; i < g_n && i < kCap && nw < 0; ++i)
    if (g_log[i].ev == ompt_event_wait_nest_lock) nw = i;
  CHECK(nw >= 0);
  if (nw >= 0) {
    uint64_t th = g_log[nw].thread;
    CHECK_EQ_LONG(g_log[nw].a, nk);
    CHECK_EQ_LONG(g_log[nw].b, ompt_state_wait_nest_lock);
    int first = find(nw, th, ompt_event_acquired_nest_lock_first, nk, 0);
    int nxt = find(nw, th, ompt_event_acquired_nest_lock_next, nk, 0);
    int prev = find(nw, th, ompt_event_release_nest_lock_prev, nk, 0);
    int last = find(nw, th, ompt_event_release_nest_lock_last, nk, 0);
    CHECK(first > nw && nxt > first && prev > nxt && last > prev);
  }
  // The critical: wait, acquired, release per thread, one id for both.
  CHECK_EQ_LONG(count(ompt_event_wait_critical), 2);
  CHECK_EQ_LONG(count(ompt_event_release_critical), 2);
  uint64_t crit = 0;
  for (int i = 0; i < g_n && i < kCap; ++i) {
    if (g_log[i].ev != ompt_event_wait_critical) continue;
    if (!crit) crit = g_log[i].a;
    CHECK(crit != 0 && g_log[i].a == crit);
    CHECK_EQ_LONG(g_log[i].b, ompt_state_wait_critical);
    int acq = find(i + 1, g_log[i].thread, ompt_event_acquired_critical, crit, 0);
    int rel = find(i + 1, g_log[i].thread, ompt_event_release_critical, crit, 0);
    CHECK(acq > i && rel > acq);
  }

  // --- nested regions: the inner region's ancestor is the outer one ---
  omp_set_max_active_levels(2);
  uint64_t outer = 0, inner_ids[2][2], inner_parent[2][2], inner_task_parent[2];
  int inner_idle[2][2] = {{-1, -1}, {-1, -1}};
  memset(inner_ids, 0, sizeof inner_ids);
  memset(inner_parent, 0, sizeof inner_parent);
  int n0 = g_n;
#pragma omp parallel num_threads(2)
  {
    int o = omp_get_thread_num();
    if (o == 0) outer = get_parallel_id(0);
    inner_task_parent[o] = get_task_id(0);
#pragma omp parallel num_threads(2)
    {
      int i = omp_get_thread_num();
      inner_ids[o][i] = get_parallel_id(0);
      inner_parent[o][i] = get_parallel_id(1);
      inner_idle[o][i] = get_idle_frame() != NULL;
      CHECK_EQ_LONG(get_team_size(0), 2);
      CHECK_EQ_LONG(get_team_size(1), 2);
      CHECK_EQ_LONG(get_parallel_id(2), 0);
      CHECK_EQ_LONG(get_team_size(2), -1);
      CHECK_EQ_LONG(get_task_id(1), inner_task_parent[o]);
    }
  }
  CHECK(outer != 0 && outer != region);
  for (int o = 0; o < 2; ++o)
    for (int i = 0; i < 2; ++i) {
      CHECK_EQ_LONG(inner_parent[o][i], outer);
      CHECK(inner_ids[o][i] != 0 && inner_ids[o][i] != outer);
      CHECK_EQ_LONG(inner_ids[o][i], inner_ids[o][0]);
      // Every thread of the inner teams but the initial thread is a pool
      // worker, its idle frame below both regions' frames.
      CHECK_EQ_LONG(inner_idle[o][i], o == 0 && i == 0 ? 0 : 1);
    }
  CHECK(inner_ids[0][0] != inner_ids[1][0]);
  // Each inner parallel_begin names the outer implicit task that encountered it.
  int inner_begins = 0;
  for (int i = n0; i < g_n && i < kCap; ++i) {
    if (g_log[i].ev != ompt_event_parallel_begin || g_log[i].b == outer) continue;
    ++inner_begins;
    CHECK(g_log[i].a == inner_task_parent[0] || g_log[i].a == inner_task_parent[1]);
  }
  CHECK_EQ_LONG(inner_begins, 2);

  // --- tasks: begin in the creator's context, switch in, end, switch back ---
  uint64_t creator = 0;
  n0 = g_n;
#pragma omp parallel num_threads(2)
  {
#pragma omp single
    {
      creator = get_task_id(0);
#pragma omp task
      g_sink += 1;
#pragma omp task if (0)
      g_sink += 2;
#pragma omp taskwait
    }
  }
  int tasks = 0;
  for (int i = n0; i < g_n && i < kCap; ++i) {
    if (g_log[i].ev != ompt_event_task_begin) continue;
    ++tasks;
    uint64_t id = g_log[i].b;
    CHECK_EQ_LONG(g_log[i].a, creator);
    CHECK_EQ_LONG(g_log[i].c, creator);  // called in the creator's context
    int in = -1, end = -1, out = -1;
    for (int j = i + 1; j < g_n && j < kCap; ++j) {
      if (g_log[j].ev == ompt_event_task_switch && g_log[j].b == id && in < 0) in = j;
      if (g_log[j].ev == ompt_event_task_end && g_log[j].a == id) end = j;
      if (g_log[j].ev == ompt_event_task_switch && g_log[j].a == id) out = j;
    }
    CHECK(in > i && end > in && out > end);
    if (in > 0 && out > 0) CHECK_EQ_LONG(g_log[in].thread, g_log[out].thread);
  }
  CHECK_EQ_LONG(tasks, 2);
  CHECK(count(ompt_event_taskwait_begin) == 1 && count(ompt_event_taskwait_end) == 1);
  // A task run inside the taskwait's wait ends the wait interval first and
  // begins it again after: the intervals stay paired per thread.
  check_pairs(ompt_event_wait_taskwait_begin, ompt_event_wait_taskwait_end, "wait_taskwait");
  check_pairs(ompt_event_wait_barrier_begin, ompt_event_wait_barrier_end, "wait_barrier (tasks)");

  // --- constructs gcc inlines: master and static loops ---
  n0 = g_n;
#pragma omp parallel num_threads(2)
  {
#pragma omp master
    g_sink += 1;
#pragma omp for schedule(dynamic)
    for (int i = 0; i < 8; ++i) g_sink += i;
  }
  int masters = 0, loops = 0;
  for (int i = n0; i < g_n && i < kCap; ++i) {
    masters += g_log[i].ev == ompt_event_master_begin;
    loops += g_log[i].ev == ompt_event_loop_begin;
  }
#ifdef __clang__
  CHECK_EQ_LONG(masters, 1);
#else
  CHECK_EQ_LONG(masters, 0);
#endif
  CHECK_EQ_LONG(loops, 2);  // a dynamic loop is a call for both compilers
  check_pairs(ompt_event_loop_begin, ompt_event_loop_end, "loop");

  // --- requested_team_size without a clause is nthreads-var; a serialized
  // region is reported, with a team of one ---
  n0 = g_n;
  uint64_t serial_id = 0;
  int serial_size = 0;
#pragma omp parallel
  g_sink += 1;
#pragma omp parallel if (0)
  {
    serial_id = get_parallel_id(0);
    serial_size = get_team_size(0);
  }
  int begins = 0;
  for (int i = n0; i < g_n && i < kCap; ++i) {
    if (g_log[i].ev != ompt_event_parallel_begin) continue;
    CHECK_EQ_LONG(g_log[i].c, begins == 0 ? omp_get_max_threads() : 1);
    if (begins == 1) CHECK_EQ_LONG(g_log[i].b, serial_id);
    ++begins;
  }
  CHECK_EQ_LONG(begins, 2);
  CHECK(serial_id != 0);
  CHECK_EQ_LONG(serial_size, 1);

  // --- an ORA collector's session beside the TR2 tool: its STOP leaves
  // the TR2 events on ---
  int (*ora)(void*) = (int (*)(void*))dlsym(RTLD_DEFAULT, "__omp_collector_api");
  CHECK(ora != NULL);
  if (ora) {
    int msg[5] = {16, 0 /* OMP_REQ_START */, -1, -1, 0};
    CHECK_EQ_LONG(ora(msg), 0);
    CHECK_EQ_LONG(msg[2], 0);  // OMP_ERRCODE_OK
    int stop[5] = {16, 6 /* OMP_REQ_STOP */, -1, -1, 0};
    CHECK_EQ_LONG(ora(stop), 0);
    CHECK_EQ_LONG(stop[2], 0);
    n0 = g_n;
#pragma omp parallel num_threads(2)
    g_sink += 1;
    int after = 0;
    for (int i = n0; i < g_n && i < kCap; ++i) after += g_log[i].ev == ompt_event_parallel_begin;
    CHECK_EQ_LONG(after, 1);
  }

  // --- ompt_control reaches the tool's control callback ---
  ompt_control(3, 4);
  CHECK_EQ_LONG(g_control_cmd, 3);
  CHECK_EQ_LONG(g_control_mod, 4);

  KITE_TEST_END();
}
