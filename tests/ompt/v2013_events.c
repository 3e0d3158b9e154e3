// A tool written to the 2013 OMPT proposal: `int ompt_initialize(void)`
// in the program, registering with the runtime's global ompt_set_callback
// in the proposal's numbering, and asking the global ompt_get_* functions.
// Threads and tasks are named by the tool's own data (ompt_data_t), which
// the runtime keeps and hands back: the pointer a callback got is the one
// the inquiries answer. Checked: the answers per event and compiler,
// thread, region, implicit and explicit task events with their data, the
// barrier and lock events, the inquiry functions, and at exit that threads
// ended before runtime_shutdown.
// kite-test-threads: 2
#include "kite_test.h"

#include <stdint.h>
#include <unistd.h>

#include "../../include/ompt-2013.h"

struct rec {
  int ev;
  ompt_data_t* thread;
  uint64_t a, b;
  void *p, *q;
};
enum { kCap = 1 << 14 };
static struct rec g_log[kCap];
static int g_n;
static uint64_t g_next = 100;

static void log_ev(int ev, uint64_t a, uint64_t b, void* p, void* q) {
  int i = __atomic_fetch_add(&g_n, 1, __ATOMIC_RELAXED);
  if (i >= kCap) return;
  g_log[i] = (struct rec){ev, ompt_get_thread_data(), a, b, p, q};
}
static uint64_t new_value(void) { return __atomic_fetch_add(&g_next, 1, __ATOMIC_RELAXED); }

static void on_thread_create(ompt_data_t* d) {
  d->value = new_value();
  log_ev(ompt_event_thread_create, d->value, 0, d, 0);
}
static void on_thread_exit(ompt_data_t* d) { log_ev(ompt_event_thread_exit, d->value, 0, d, 0); }
static void on_parallel_create(ompt_data_t* parent, ompt_frame_t* frame, ompt_parallel_id_t id) {
  log_ev(ompt_event_parallel_create, id, parent ? parent->value : 0, parent, frame);
}
static void on_parallel_exit(ompt_data_t* parent, ompt_frame_t* frame, ompt_parallel_id_t id) {
  log_ev(ompt_event_parallel_exit, id, parent ? parent->value : 0, parent, frame);
}
static void on_implicit_task_create(ompt_data_t* task, ompt_parallel_id_t id) {
  task->value = new_value();
  log_ev(ompt_event_implicit_task_create, id, task->value, task, 0);
}
#define PAIR(name)                                                                 \
  static void on_##name(ompt_data_t* task, ompt_parallel_id_t id) {                \
    log_ev(ompt_event_##name, id, task ? task->value : 0, task, 0);                \
  }
PAIR(implicit_task_exit)
PAIR(barrier_begin)
PAIR(barrier_end)
PAIR(wait_barrier_begin)
PAIR(wait_barrier_end)
PAIR(master_begin)
static void on_task_create(ompt_data_t* parent, ompt_frame_t* frame, ompt_data_t* task) {
  task->value = new_value();
  log_ev(ompt_event_task_create, parent->value, task->value, parent, task);
}
static void on_task_exit(ompt_data_t* task) { log_ev(ompt_event_task_exit, task->value, 0, task, 0); }
static void on_task_switch(ompt_data_t* from, ompt_data_t* to) {
  log_ev(ompt_event_task_switch, from->value, to->value, from, to);
}
#define WAIT(name)                                                                 \
  static void on_##name(ompt_wait_id_t w) { log_ev(ompt_event_##name, w, 0, 0, 0); }
WAIT(wait_lock)
WAIT(acquired_lock)
WAIT(release_lock)
static void on_shutdown(void) { log_ev(ompt_event_runtime_shutdown, 0, 0, 0, 0); }

static int g_inits, g_answers[64];
static ompt_data_t* g_init_thread;
static void at_exit_check(void);

int ompt_initialize(void) {
  ++g_inits;
  g_init_thread = ompt_get_thread_data();
#define REG(name) \
  g_answers[ompt_event_##name] = ompt_set_callback(ompt_event_##name, (ompt_callback_t)on_##name)
  REG(thread_create);
  REG(thread_exit);
  REG(parallel_create);
  REG(parallel_exit);
  REG(implicit_task_create);
  REG(implicit_task_exit);
  REG(barrier_begin);
  REG(barrier_end);
  REG(wait_barrier_begin);
  REG(wait_barrier_end);
  REG(master_begin);
  REG(task_create);
  REG(task_exit);
  REG(task_switch);
  REG(wait_lock);
  REG(acquired_lock);
  REG(release_lock);
  g_answers[ompt_event_runtime_shutdown] =
      ompt_set_callback(ompt_event_runtime_shutdown, (ompt_callback_t)on_shutdown);
  g_answers[0] = ompt_set_callback((ompt_event_t)0, (ompt_callback_t)on_shutdown);
  g_answers[58] = ompt_set_callback((ompt_event_t)58, (ompt_callback_t)on_shutdown);
  atexit(at_exit_check);  // before the runtime's handler: runs after it
  return 1;
}

static int count(int ev) {
  int n = 0;
  for (int i = 0; i < g_n && i < kCap; ++i) n += g_log[i].ev == ev;
  return n;
}

static void at_exit_check(void) {
  int shut = -1, creates = 0, exits = 0, late = 0;
  for (int i = 0; i < g_n && i < kCap; ++i) {
    if (g_log[i].ev == ompt_event_runtime_shutdown) shut = i;
    creates += g_log[i].ev == ompt_event_thread_create;
    exits += g_log[i].ev == ompt_event_thread_exit;
  }
  for (int i = shut + 1; shut >= 0 && i < g_n && i < kCap; ++i)
    late += g_log[i].ev == ompt_event_thread_exit;
  if (shut < 0 || creates != exits || late) {
    fprintf(stderr, "FAIL at exit: shutdown at %d, %d thread_create, %d thread_exit, %d late\n",
            shut, creates, exits, late);
    _exit(1);
  }
}

static int g_sink;

int main(void) {
  KITE_TEST_BEGIN();
  (void)omp_get_max_threads();
  CHECK_EQ_LONG(g_inits, 1);
#ifdef __clang__
  const int master = 4;
#else
  const int master = 2;  // gcc inlines master
#endif
  CHECK_EQ_LONG(g_answers[ompt_event_parallel_create], 4);
  CHECK_EQ_LONG(g_answers[ompt_event_task_switch], 4);
  CHECK_EQ_LONG(g_answers[ompt_event_wait_lock], 4);
  CHECK_EQ_LONG(g_answers[ompt_event_master_begin], master);
  CHECK_EQ_LONG(g_answers[0], 0);
  CHECK_EQ_LONG(g_answers[58], 0);
  ompt_callback_t got = NULL;
  CHECK_EQ_LONG(ompt_get_callback(ompt_event_task_switch, &got), 1);
  CHECK(got == (ompt_callback_t)on_task_switch);
  CHECK_EQ_LONG(ompt_get_callback(ompt_event_flush, &got), 0);

  char version[64];
  CHECK(ompt_get_runtime_version(version, sizeof version) > 5);
  CHECK(strncmp(version, "kite ", 5) == 0);
  CHECK_EQ_LONG(ompt_get_ompt_version(), 1);
  int next;
  const char* name;
  CHECK(ompt_enumerate_state(ompt_state_first, &next, &name) && name != NULL);

  // The thread's data, from its creation on (also during ompt_initialize).
  ompt_data_t* me = ompt_get_thread_data();
  CHECK(me != NULL && me == g_init_thread);
  CHECK_EQ_LONG(g_log[0].ev, ompt_event_thread_create);
  CHECK(g_log[0].p == me);
  ompt_wait_id_t w = 7;
  CHECK_EQ_LONG(ompt_get_state(&w), ompt_state_work_serial);
  CHECK_EQ_LONG(w, 0);
  CHECK_EQ_LONG(ompt_get_parallel_id(0), 0);
  ompt_data_t* initial = ompt_get_task_data(0);
  CHECK(initial != NULL);
  initial->value = 42;

  omp_lock_t lock;
  omp_init_lock(&lock);
  ompt_parallel_id_t region = 0;
  ompt_data_t* implicit[2] = {0, 0};
  int fn_ok[2] = {0, 0};
  uint64_t creator = 0;
#pragma omp parallel num_threads(2)
  {
    int t = omp_get_thread_num();
    if (t == 0) region = ompt_get_parallel_id(0);
    implicit[t] = ompt_get_task_data(0);
    fn_ok[t] = ompt_get_parallel_function(0) != NULL && ompt_get_task_function(0) != NULL &&
               ompt_get_task_data(1) == initial;
    omp_set_lock(&lock);
    g_sink += t;
    omp_unset_lock(&lock);
#pragma omp barrier
#pragma omp master
    g_sink += 1;
#pragma omp single
    {
      creator = ompt_get_task_data(0)->value;
#pragma omp task
      {
        CHECK(ompt_get_task_function(0) != NULL);
        g_sink += 2;
      }
#pragma omp taskwait
    }
  }
  omp_destroy_lock(&lock);

  CHECK(region != 0);
  int pc = -1, pe = -1;
  for (int i = 0; i < g_n && i < kCap; ++i) {
    if (g_log[i].ev == ompt_event_parallel_create && pc < 0) pc = i;
    if (g_log[i].ev == ompt_event_parallel_exit) pe = i;
  }
  CHECK(pc >= 0 && pe > pc);
  if (pc >= 0) {
    CHECK_EQ_LONG(g_log[pc].a, region);
    CHECK(g_log[pc].p == initial && g_log[pc].b == 42);
    CHECK(g_log[pc].q != NULL);
  }
  if (pe >= 0) CHECK(g_log[pe].p == initial && g_log[pe].a == region);
  for (int t = 0; t < 2; ++t) {
    CHECK(fn_ok[t]);
    CHECK(implicit[t] != NULL);
    int found = 0;
    for (int i = 0; i < g_n && i < kCap; ++i)
      if (g_log[i].ev == ompt_event_implicit_task_create && g_log[i].p == implicit[t]) {
        found = 1;
        CHECK_EQ_LONG(g_log[i].a, region);
      }
    CHECK(found);
  }
  CHECK_EQ_LONG(count(ompt_event_implicit_task_exit), 2);
  CHECK_EQ_LONG(count(ompt_event_wait_lock), 2);
  CHECK_EQ_LONG(count(ompt_event_acquired_lock), 2);
  CHECK_EQ_LONG(count(ompt_event_release_lock), 2);
  for (int i = 0; i < g_n && i < kCap; ++i)
    if (g_log[i].ev == ompt_event_wait_lock) CHECK_EQ_LONG(g_log[i].a, (uint64_t)(uintptr_t)&lock);
  CHECK(count(ompt_event_barrier_begin) >= 4);
  CHECK_EQ_LONG(count(ompt_event_barrier_begin), count(ompt_event_barrier_end));
  // A task run inside a barrier's wait splits the wait interval in two.
  CHECK(count(ompt_event_wait_barrier_begin) >= count(ompt_event_barrier_begin));
  CHECK_EQ_LONG(count(ompt_event_wait_barrier_begin), count(ompt_event_wait_barrier_end));
#ifdef __clang__
  CHECK_EQ_LONG(count(ompt_event_master_begin), 1);
#else
  CHECK_EQ_LONG(count(ompt_event_master_begin), 0);
#endif
  // The explicit task: created with the creator's data, switched to and
  // away from with the data the tool set at creation, which exit names.
  CHECK_EQ_LONG(count(ompt_event_task_create), 1);
  for (int i = 0; i < g_n && i < kCap; ++i) {
    if (g_log[i].ev != ompt_event_task_create) continue;
    CHECK_EQ_LONG(g_log[i].a, creator);
    void* task = g_log[i].q;
    int in = -1, ex = -1;
    for (int j = i + 1; j < g_n && j < kCap; ++j) {
      if (g_log[j].ev == ompt_event_task_switch && g_log[j].q == task && in < 0) in = j;
      if (g_log[j].ev == ompt_event_task_exit && g_log[j].p == task) ex = j;
    }
    CHECK(in > i && ex > in);
  }
  KITE_TEST_END();
}
