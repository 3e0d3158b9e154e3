// A TR2 (2014 draft OMPT) tool in the program, for the constructs
// tr2_events leaves out: sections, single (the executor and the others,
// with and without copyprivate), static and ordered loops, ordered, atomic,
// flush, master, taskgroup and its wait (and a taskwait that waits), nest
// lock init/destroy; and the frames TR2 defines (docs/legacy-tools.md,
// "Frames"): which of exit_runtime_frame and reenter_runtime_frame is set
// when, and where they lie on the stack. Checked per thread over the whole log: every begin is
// closed by its end with the same ids, properly nested (tasks included),
// and wait_X, acquired_X, release_X come in that order for one wait id.
// For what a compiler inlines, the set_callback answer for the compiler
// that built this program decides: an event answered 4 (always) must
// arrive, one answered 2 (never) must not, and the documented cases of 3
// (sometimes) are asserted per compiler. clang updates the long double
// atomic through libatomic, hence the library.
// kite-test-threads: 2 4
// kite-test-libs: atomic
#include "kite_test.h"

#include <stdint.h>
#include <unistd.h>

#include "../../include/ompt-tr2.h"

// --- the event log --------------------------------------------------------------------
struct rec {
  int ev;
  uint64_t thread, a, b, c, d, e;
};
enum { kCap = 1 << 15 };
static struct rec g_log[kCap];
static int g_n;

static ompt_get_thread_id_t get_thread_id;
static ompt_get_parallel_id_t get_parallel_id;
static ompt_get_task_id_t get_task_id;
static ompt_get_task_frame_t get_task_frame;
static ompt_get_state_t get_state;
static ompt_set_callback_t set_callback;

static void log_ev(int ev, uint64_t a, uint64_t b, uint64_t c, uint64_t d, uint64_t e) {
  int i = __atomic_fetch_add(&g_n, 1, __ATOMIC_RELAXED);
  if (i >= kCap) return;
  g_log[i].ev = ev;
  g_log[i].thread = get_thread_id();
  g_log[i].a = a;
  g_log[i].b = b;
  g_log[i].c = c;
  g_log[i].d = d;
  g_log[i].e = e;
}

static uint64_t P(const void* p) { return (uint64_t)(uintptr_t)p; }

// The current task's frames, as (exit, reenter).
static uint64_t exit_now(void) {
  ompt_frame_t* f = get_task_frame(0);
  return f ? P(f->exit_runtime_frame) : 1;  // 1: no frame at all (never valid)
}
static uint64_t reenter_now(void) {
  ompt_frame_t* f = get_task_frame(0);
  return f ? P(f->reenter_runtime_frame) : 1;
}

// The program's own code, not the runtime's.
static int in_program(void* fn) {
  Dl_info a, b;
  return fn && dladdr(fn, &a) && dladdr((void*)&in_program, &b) && a.dli_fbase == b.dli_fbase;
}

// parallel_begin: (id, encountering task, requested, encountering task's
// exit frame, its reenter frame), so that parallel_end (id, task) closes it.
static void on_parallel_begin(ompt_task_id_t parent, ompt_frame_t* frame, ompt_parallel_id_t id,
                              uint32_t requested, void* fn) {
  (void)fn;
  log_ev(ompt_event_parallel_begin, id, parent, requested, frame ? P(frame->exit_runtime_frame) : 1,
         frame ? P(frame->reenter_runtime_frame) : 1);
}
// (parallel id, task id) events; c, d: the task's frames in the callback,
// e: the state.
#define PAIR(name)                                                            \
  static void on_##name(ompt_parallel_id_t p, ompt_task_id_t t) {             \
    log_ev(ompt_event_##name, p, t, exit_now(), reenter_now(), get_state(NULL)); \
  }
PAIR(parallel_end)
PAIR(implicit_task_begin)
PAIR(implicit_task_end)
PAIR(barrier_begin)
PAIR(barrier_end)
PAIR(wait_barrier_begin)
PAIR(wait_barrier_end)
PAIR(taskwait_begin)
PAIR(taskwait_end)
PAIR(wait_taskwait_end)
PAIR(taskgroup_begin)
PAIR(taskgroup_end)
PAIR(wait_taskgroup_end)
PAIR(loop_end)
PAIR(sections_end)
PAIR(single_in_block_end)
PAIR(single_others_begin)
PAIR(single_others_end)
PAIR(master_begin)
PAIR(master_end)
PAIR(workshare_end)

// A task that waits for this (tasks of the taskgroup below): the group's
// wait has begun, so the wait interval is sure to be seen.
static int g_taskgroup_waiting;
static void on_wait_taskgroup_begin(ompt_parallel_id_t p, ompt_task_id_t t) {
  log_ev(ompt_event_wait_taskgroup_begin, p, t, exit_now(), reenter_now(), get_state(NULL));
  __atomic_store_n(&g_taskgroup_waiting, 1, __ATOMIC_RELEASE);
}
// The same for a taskwait.
static int g_taskwait_waiting;
static void on_wait_taskwait_begin(ompt_parallel_id_t p, ompt_task_id_t t) {
  log_ev(ompt_event_wait_taskwait_begin, p, t, exit_now(), reenter_now(), get_state(NULL));
  __atomic_store_n(&g_taskwait_waiting, 1, __ATOMIC_RELEASE);
}
// The worksharing begins: (parallel id, task id, workshare function).
#define WS(name)                                                              \
  static void on_##name(ompt_parallel_id_t p, ompt_task_id_t t, void* fn) {   \
    log_ev(ompt_event_##name, p, t, P(fn), 0, 0);                             \
  }
WS(loop_begin)
WS(sections_begin)
WS(single_in_block_begin)
WS(workshare_begin)  // never: Fortran's workshare reaches no runtime entry
// The mutex events: (wait id, state, the state's wait id).
#define WAIT(name)                                                            \
  static void on_##name(ompt_wait_id_t w) {                                   \
    ompt_wait_id_t sw = 0;                                                    \
    int s = get_state(&sw);                                                   \
    log_ev(ompt_event_##name, w, s, sw, 0, 0);                                \
  }
WAIT(wait_ordered)
WAIT(acquired_ordered)
WAIT(release_ordered)
WAIT(wait_atomic)
WAIT(acquired_atomic)
WAIT(release_atomic)
WAIT(init_lock)
WAIT(init_nest_lock)
WAIT(destroy_lock)
WAIT(destroy_nest_lock)
// task_begin: (parent, new task, the parent frame's exit, its reenter, the
// reenter frame get_task_frame(0) answers in the callback).
static void on_task_begin(ompt_task_id_t parent, ompt_frame_t* frame, ompt_task_id_t id,
                          void* fn) {
  (void)fn;
  log_ev(ompt_event_task_begin, parent, id, frame ? P(frame->exit_runtime_frame) : 1,
         frame ? P(frame->reenter_runtime_frame) : 1, reenter_now());
}
static void on_task_end(ompt_task_id_t id) { log_ev(ompt_event_task_end, id, 0, 0, 0, 0); }
static void on_task_switch(ompt_task_id_t from, ompt_task_id_t to) {
  log_ev(ompt_event_task_switch, from, to, 0, 0, 0);
}
static void on_flush(ompt_thread_id_t id) { log_ev(ompt_event_flush, id, 0, 0, 0, 0); }

// --- initialization ------------------------------------------------------------------
// The events this test registers, with the answer documented for the
// compiler that built it (docs/legacy-tools.md, "ompt_set_callback's
// answers").
#ifdef __clang__
enum { kInlined = 4, kGccSometimes = 4 };
#else
enum { kInlined = 2, kGccSometimes = 3 };
#endif
struct reg {
  int ev;
  ompt_callback_t fn;
  int expected;
};
#define R(name, answer) {ompt_event_##name, (ompt_callback_t)on_##name, answer}
static const struct reg kRegs[] = {
    R(parallel_begin, 4),        R(parallel_end, 4),
    R(implicit_task_begin, 4),   R(implicit_task_end, 4),
    R(barrier_begin, 4),         R(barrier_end, 4),
    R(wait_barrier_begin, 4),    R(wait_barrier_end, 4),
    R(taskwait_begin, 4),        R(taskwait_end, 4),
    R(wait_taskwait_begin, 4),   R(wait_taskwait_end, 4),
    R(taskgroup_begin, 4),       R(taskgroup_end, 4),
    R(wait_taskgroup_begin, 4),  R(wait_taskgroup_end, 4),
    R(loop_begin, kGccSometimes), R(loop_end, kGccSometimes),
    R(sections_begin, 4),        R(sections_end, 4),
    R(single_in_block_begin, kGccSometimes), R(single_in_block_end, kGccSometimes),
    R(single_others_begin, 4),   R(single_others_end, 4),
    R(master_begin, kInlined),   R(master_end, kInlined),
    R(wait_ordered, 4),          R(acquired_ordered, 4),     R(release_ordered, 4),
    R(wait_atomic, 3),           R(acquired_atomic, 3),      R(release_atomic, 3),
    R(init_lock, 4),             R(init_nest_lock, 4),
    R(destroy_lock, 4),          R(destroy_nest_lock, 4),
    R(task_begin, 4),            R(task_end, 4),             R(task_switch, 4),
    R(flush, kInlined),
    R(workshare_begin, 2),       R(workshare_end, 2),
};
#undef R
enum { kNRegs = sizeof kRegs / sizeof kRegs[0] };
static int g_answer[kNRegs];

#define FIND(var, name) var = (name##_t)lookup(#name)

int ompt_initialize(ompt_function_lookup_t lookup, const char* runtime_version,
                    unsigned int ompt_version) {
  (void)runtime_version;
  (void)ompt_version;
  FIND(get_thread_id, ompt_get_thread_id);
  FIND(get_parallel_id, ompt_get_parallel_id);
  FIND(get_task_id, ompt_get_task_id);
  FIND(get_task_frame, ompt_get_task_frame);
  FIND(get_state, ompt_get_state);
  FIND(set_callback, ompt_set_callback);
  if (!get_thread_id || !get_parallel_id || !get_task_id || !get_task_frame || !get_state ||
      !set_callback) {
    fprintf(stderr, "FAIL: lookup is missing an inquiry function\n");
    exit(1);
  }
  for (int i = 0; i < kNRegs; ++i) g_answer[i] = set_callback(kRegs[i].ev, kRegs[i].fn);
  return 1;
}

// --- checks over the log -------------------------------------------------------------------
static int g_cut;  // the log is checked up to here (settle() below)

static int count_in(int ev, uint64_t pid) {
  int n = 0;
  for (int i = 0; i < g_cut; ++i) n += g_log[i].ev == ev && (pid == 0 || g_log[i].a == pid);
  return n;
}
static int count(int ev) { return count_in(ev, 0); }

// The begin/end pairs of the (parallel id, task id) shape; parallel_begin
// is logged as (id, encountering task) to close with parallel_end.
static const int kPairs[][2] = {
    {ompt_event_parallel_begin, ompt_event_parallel_end},
    {ompt_event_implicit_task_begin, ompt_event_implicit_task_end},
    {ompt_event_barrier_begin, ompt_event_barrier_end},
    {ompt_event_wait_barrier_begin, ompt_event_wait_barrier_end},
    {ompt_event_taskwait_begin, ompt_event_taskwait_end},
    {ompt_event_wait_taskwait_begin, ompt_event_wait_taskwait_end},
    {ompt_event_taskgroup_begin, ompt_event_taskgroup_end},
    {ompt_event_wait_taskgroup_begin, ompt_event_wait_taskgroup_end},
    {ompt_event_loop_begin, ompt_event_loop_end},
    {ompt_event_sections_begin, ompt_event_sections_end},
    {ompt_event_single_in_block_begin, ompt_event_single_in_block_end},
    {ompt_event_single_others_begin, ompt_event_single_others_end},
    {ompt_event_master_begin, ompt_event_master_end},
};
enum { kNPairs = sizeof kPairs / sizeof kPairs[0], kTaskEntry = 1000 };

static int begin_of(int ev) {
  for (int i = 0; i < kNPairs; ++i)
    if (kPairs[i][1] == ev) return kPairs[i][0];
  return -1;
}
static int is_begin(int ev) {
  for (int i = 0; i < kNPairs; ++i)
    if (kPairs[i][0] == ev) return 1;
  return 0;
}

// Per thread: every begin is closed by its own end, with the same ids, in
// LIFO order; a task a thread switches to is an entry too (opened by the
// switch into it, closed by the switch out of it, its task_end inside);
// the mutex triples come in order for one wait id, nothing of theirs
// interleaved. Open entries at the cut may only be the settling region's.
struct entry {
  int ev;
  uint64_t a, b;
};
static void check_nesting(uint64_t settle_pid) {
  uint64_t threads[64];
  int nthreads = 0;
  for (int i = 0; i < g_cut; ++i) {
    int k = 0;
    while (k < nthreads && threads[k] != g_log[i].thread) ++k;
    if (k == nthreads && nthreads < 64) threads[nthreads++] = g_log[i].thread;
  }
  for (int k = 0; k < nthreads; ++k) {
    struct entry stack[64];
    int depth = 0, bad = 0;
    // The open mutex triple of each kind: ordered and atomic.
    int mutex_step[2] = {0, 0};
    uint64_t mutex_id[2] = {0, 0};
    for (int i = 0; i < g_cut && !bad; ++i) {
      const struct rec* r = &g_log[i];
      if (r->thread != threads[k]) continue;
      int ev = r->ev, b;
      if (is_begin(ev)) {
        if (depth == 64) { bad = i + 1; break; }
        stack[depth].ev = ev;
        stack[depth].a = r->a;
        stack[depth].b = r->b;
        ++depth;
      } else if ((b = begin_of(ev)) >= 0) {
        if (!depth || stack[depth - 1].ev != b || stack[depth - 1].a != r->a ||
            stack[depth - 1].b != r->b)
          bad = i + 1;
        else
          --depth;
      } else if (ev == ompt_event_task_switch) {
        // (from, to): leaving the task on top returns to the one it
        // interrupted; anything else starts (or resumes) `to`.
        if (depth && stack[depth - 1].ev == kTaskEntry && stack[depth - 1].a == r->a &&
            stack[depth - 1].b == r->b) {
          --depth;
        } else {
          if (depth == 64) { bad = i + 1; break; }
          stack[depth].ev = kTaskEntry;
          stack[depth].a = r->b;  // the task
          stack[depth].b = r->a;  // the one it returns to
          ++depth;
        }
      } else if (ev == ompt_event_task_end) {
        if (!depth || stack[depth - 1].ev != kTaskEntry || stack[depth - 1].a != r->a) bad = i + 1;
      } else {
        static const int triples[2][3] = {
            {ompt_event_wait_ordered, ompt_event_acquired_ordered, ompt_event_release_ordered},
            {ompt_event_wait_atomic, ompt_event_acquired_atomic, ompt_event_release_atomic}};
        for (int m = 0; m < 2; ++m)
          for (int s = 0; s < 3; ++s) {
            if (ev != triples[m][s]) continue;
            if (s != mutex_step[m] || (s > 0 && r->a != mutex_id[m]) || r->a == 0) bad = i + 1;
            mutex_id[m] = r->a;
            mutex_step[m] = (s + 1) % 3;
          }
      }
    }
    for (int m = 0; m < 2; ++m)
      if (mutex_step[m] != 0) bad = bad ? bad : g_cut;
    for (int j = 0; j < depth && !bad; ++j)
      if (stack[j].ev == kTaskEntry || stack[j].a != settle_pid) bad = g_cut;
    if (bad) {
      fprintf(stderr, "nesting: thread %lu breaks at log entry %d (event %d)\n",
              (unsigned long)threads[k], bad - 1, bad - 1 < g_cut ? g_log[bad - 1].ev : -1);
      for (int i = 0; i < g_cut; ++i)
        if (g_log[i].thread == threads[k])
          fprintf(stderr, "  %5d ev %2d a %lu b %lu\n", i, g_log[i].ev, (unsigned long)g_log[i].a,
                  (unsigned long)g_log[i].b);
      CHECK(!bad);
    }
  }
}

// The index of the first `ev` on `thread` in [from, to) with a == `a`
// (any a when a_any); -1 if none.
static int find(int from, int to, uint64_t thread, int ev, uint64_t a, int a_any) {
  for (int i = from; i < to && i < g_cut; ++i)
    if (g_log[i].thread == thread && g_log[i].ev == ev && (a_any || g_log[i].a == a)) return i;
  return -1;
}

// --- the program ------------------------------------------------------------------------
static int NT;  // threads per region: OMP_NUM_THREADS (2 or 4)
static volatile int g_sink;
static long double g_ld;

// Every thread of a region of NT passes its barrier: the events of the
// regions before (their workers' last barrier and implicit task end
// included) are then all in the log. Returns the region's id.
static uint64_t settle(void) {
  uint64_t pid = 0;
#pragma omp parallel num_threads(NT)
  {
#pragma omp barrier
#pragma omp master
    {
      pid = get_parallel_id(0);
      g_cut = __atomic_load_n(&g_n, __ATOMIC_ACQUIRE);
    }
  }
  return pid;
}

// --- frames: what a region's threads see ---
struct frames_seen {
  uint64_t exit, reenter, cfa, local;       // the implicit task, in its body
  uint64_t parent_exit, parent_reenter;     // its parent (the initial task)
  uint64_t after_exit, after_reenter;       // after an explicit barrier
  uint64_t inner_exit, inner_reenter, inner_cfa;    // a nested (inactive) region's task
  uint64_t inner_parent_exit, inner_parent_reenter; // ... and its parent: this task
  uint64_t task, inner_task;
  int thread_num;
};
static struct frames_seen g_fs[8];
static uint64_t g_frames_cfa;

__attribute__((noinline)) static void note_frames_inner(struct frames_seen* s) {
  // A separate function whose frame lies below the region body's.
  int here = 0;
  s->local = P(&here);
  __asm__ volatile("" ::"r"(&here) : "memory");
}

// The function that encounters the region; its own CFA bounds the
// initial task's reenter frame from above.
__attribute__((noinline)) static uint64_t run_frames_region(void) {
  g_frames_cfa = P(__builtin_dwarf_cfa());
  uint64_t pid = 0;
#pragma omp parallel num_threads(NT)
  {
    int t = omp_get_thread_num();
    struct frames_seen* s = &g_fs[t];
    if (t == 0) pid = get_parallel_id(0);
    s->thread_num = t;
    s->task = get_task_id(0);
    s->cfa = P(__builtin_dwarf_cfa());
    ompt_frame_t* f = get_task_frame(0);
    ompt_frame_t* pf = get_task_frame(1);
    s->exit = f ? P(f->exit_runtime_frame) : 1;
    s->reenter = f ? P(f->reenter_runtime_frame) : 1;
    s->parent_exit = pf ? P(pf->exit_runtime_frame) : 1;
    s->parent_reenter = pf ? P(pf->reenter_runtime_frame) : 1;
    note_frames_inner(s);
#pragma omp barrier
    s->after_exit = exit_now();
    s->after_reenter = reenter_now();
    // Nested, inactive (max-active-levels 1): a team of one on this
    // thread, whose stack it shares with this task.
#pragma omp parallel num_threads(2)
    {
      ompt_frame_t* g = get_task_frame(0);
      ompt_frame_t* pg = get_task_frame(1);
      s->inner_task = get_task_id(0);
      s->inner_cfa = P(__builtin_dwarf_cfa());
      s->inner_exit = g ? P(g->exit_runtime_frame) : 1;
      s->inner_reenter = g ? P(g->reenter_runtime_frame) : 1;
      s->inner_parent_exit = pg ? P(pg->exit_runtime_frame) : 1;
      s->inner_parent_reenter = pg ? P(pg->reenter_runtime_frame) : 1;
    }
  }
  __asm__ volatile("" ::: "memory"); /* no tail call */
  return pid;
}

// --- tasks: what each task's body sees ---
struct task_seen {
  uint64_t id, parent, thread, exit, reenter, cfa, parent_reenter;
  int waited;  // saw the taskgroup's wait begin
};
enum { kTgTasks = 3 };
static struct task_seen g_ts[kTgTasks + 2];  // the group's, a taskwait's, a team of one's

static void note_task(struct task_seen* s, void* cfa) {
  s->id = get_task_id(0);
  s->parent = get_task_id(1);
  s->thread = get_thread_id();
  s->exit = exit_now();
  s->reenter = reenter_now();
  s->cfa = P(cfa);
  ompt_frame_t* pf = get_task_frame(1);
  s->parent_reenter = pf ? P(pf->reenter_runtime_frame) : 1;
}

// Until the wait `flag` names has begun (10 s at most: a wait that is
// never reported fails the test, it does not hang it).
static void wait_for_wait(struct task_seen* s, int* flag) {
  double until = omp_get_wtime() + 10.0;
  while (!__atomic_load_n(flag, __ATOMIC_ACQUIRE) && omp_get_wtime() < until) usleep(100);
  s->waited = __atomic_load_n(flag, __ATOMIC_ACQUIRE);
}

int main(void) {
  KITE_TEST_BEGIN();
  NT = omp_get_max_threads();
  if (NT > 8) NT = 8;
  CHECK(NT >= 2);
  const uint64_t me = get_thread_id();
  CHECK(me != 0);

  // Answers, as documented per compiler.
  for (int i = 0; i < kNRegs; ++i)
    if (g_answer[i] != kRegs[i].expected) {
      fprintf(stderr, "event %d: set_callback answered %d, expected %d\n", kRegs[i].ev,
              g_answer[i], kRegs[i].expected);
      CHECK(0);
    }

  // Serial code: the initial task is not inside the runtime, and no
  // runtime called it: both frames NULL.
  CHECK_EQ_LONG(exit_now(), 0);
  CHECK_EQ_LONG(reenter_now(), 0);

  // --- nest lock (and plain lock) init and destroy, outside any region ---
  omp_nest_lock_t nest;
  omp_lock_t lock;
  omp_init_nest_lock(&nest);
  omp_init_lock(&lock);
  omp_destroy_lock(&lock);
  omp_destroy_nest_lock(&nest);

  // --- worksharing: sections, single (plain and copyprivate), a static
  // and an ordered loop, ordered, atomic, flush, master ---
  int order[8], norder = 0, copied[8];
  uint64_t ws_pid = 0, ws_tasks[8];
#pragma omp parallel num_threads(NT)
  {
    int t = omp_get_thread_num();
    ws_tasks[t] = get_task_id(0);
    if (t == 0) ws_pid = get_parallel_id(0);
#pragma omp sections
    {
#pragma omp section
      g_sink += 1;
#pragma omp section
      g_sink += 2;
    }
#pragma omp single
    g_sink += 3;
    int x = 0;
#pragma omp single copyprivate(x)
    x = 42;
    copied[t] = x;
#pragma omp for schedule(static)
    for (int i = 0; i < 16; ++i) g_sink += i;
#pragma omp for ordered schedule(dynamic, 1)
    for (int i = 0; i < 8; ++i) {
#pragma omp ordered
      order[norder++] = i;
    }
#pragma omp atomic
    g_ld += 1.0L;
#pragma omp flush
#pragma omp master
    g_sink += 4;
  }
  CHECK(g_ld == (long double)NT);
  CHECK_EQ_LONG(norder, 8);
  for (int i = 0; i < 8 && i < norder; ++i) CHECK_EQ_LONG(order[i], i);
  for (int t = 0; t < NT; ++t) CHECK_EQ_LONG(copied[t], 42);

  // --- a taskgroup whose tasks outlast the point where its wait begins ---
  uint64_t tg_pid = 0, tg_creator = 0, tg_creator_thread = 0;
#pragma omp parallel num_threads(NT)
  {
#pragma omp single
    {
      tg_pid = get_parallel_id(0);
      tg_creator = get_task_id(0);
      tg_creator_thread = get_thread_id();
#pragma omp taskgroup
      {
        for (int k = 0; k < kTgTasks; ++k) {
#pragma omp task firstprivate(k)
          {
            note_task(&g_ts[k], __builtin_dwarf_cfa());
            wait_for_wait(&g_ts[k], &g_taskgroup_waiting);
          }
        }
      }
      // A taskwait whose child outlasts the point where its wait begins.
#pragma omp task
      {
        note_task(&g_ts[kTgTasks], __builtin_dwarf_cfa());
        wait_for_wait(&g_ts[kTgTasks], &g_taskwait_waiting);
      }
#pragma omp taskwait
    }
  }

  // --- a task in a team of one: it runs on its creator's thread, while
  // the creator is inside the runtime ---
  uint64_t one_creator = 0;
#pragma omp parallel num_threads(1)
  {
    one_creator = get_task_id(0);
#pragma omp task
    note_task(&g_ts[kTgTasks + 1], __builtin_dwarf_cfa());
#pragma omp taskwait
  }

  // --- frames of implicit tasks, at a barrier and in a nested region
  // (inactive: a team of one on the same thread) ---
  omp_set_max_active_levels(1);
  const uint64_t fr_pid = run_frames_region();
  CHECK_EQ_LONG(exit_now(), 0);
  CHECK_EQ_LONG(reenter_now(), 0);

  const uint64_t settle_pid = settle();
  CHECK(g_cut > 0 && g_cut < kCap);
  check_nesting(settle_pid);

  // Every registered event answered "always" arrived; none answered
  // "never" did.
  for (int i = 0; i < kNRegs; ++i) {
    int n = count(kRegs[i].ev);
    if ((g_answer[i] == 4 && n == 0) || (g_answer[i] == 2 && n != 0)) {
      fprintf(stderr, "event %d answered %d arrived %d times\n", kRegs[i].ev, g_answer[i], n);
      CHECK(0);
    }
  }

  // --- nest lock init/destroy: the lock's address, and only the nest
  // events for it ---
  const uint64_t nk = P(&nest), lk = P(&lock);
  CHECK_EQ_LONG(count(ompt_event_init_nest_lock), 1);
  CHECK_EQ_LONG(count(ompt_event_destroy_nest_lock), 1);
  CHECK_EQ_LONG(count(ompt_event_init_lock), 1);
  CHECK_EQ_LONG(count(ompt_event_destroy_lock), 1);
  {
    int in = find(0, g_cut, me, ompt_event_init_nest_lock, nk, 0);
    int il = find(0, g_cut, me, ompt_event_init_lock, lk, 0);
    int dl = find(0, g_cut, me, ompt_event_destroy_lock, lk, 0);
    int dn = find(0, g_cut, me, ompt_event_destroy_nest_lock, nk, 0);
    CHECK(in >= 0 && il > in && dl > il && dn > dl);
  }

  // --- the worksharing region ---
  CHECK(ws_pid != 0);
  CHECK_EQ_LONG(count_in(ompt_event_implicit_task_begin, ws_pid), NT);
  // sections: every thread, with its own task, the workshare function in
  // the program.
  CHECK_EQ_LONG(count_in(ompt_event_sections_begin, ws_pid), NT);
  CHECK_EQ_LONG(count_in(ompt_event_sections_end, ws_pid), NT);
  // single: the others of both singles on every compiler; the executor of
  // the plain one only where the compiler marks its end (clang).
  CHECK_EQ_LONG(count_in(ompt_event_single_others_begin, ws_pid), 2 * (NT - 1));
  CHECK_EQ_LONG(count_in(ompt_event_single_others_end, ws_pid), 2 * (NT - 1));
#ifdef __clang__
  const int executors = 2, static_loops = 1, masters = 1, flushes = 1, atomics = 0;
#else
  const int executors = 1, static_loops = 0, masters = 0, flushes = 0, atomics = 1;
#endif
  CHECK_EQ_LONG(count_in(ompt_event_single_in_block_begin, ws_pid), executors);
  CHECK_EQ_LONG(count_in(ompt_event_single_in_block_end, ws_pid), executors);
  // loops: the ordered one on every compiler, the static one where the
  // compiler makes a call for it (clang).
  CHECK_EQ_LONG(count_in(ompt_event_loop_begin, ws_pid), NT * (1 + static_loops));
  CHECK_EQ_LONG(count_in(ompt_event_loop_end, ws_pid), NT * (1 + static_loops));
  CHECK_EQ_LONG(count_in(ompt_event_master_begin, ws_pid), masters);
  CHECK_EQ_LONG(count_in(ompt_event_master_end, ws_pid), masters);
  for (int i = 0; i < g_cut; ++i) {
    const struct rec* r = &g_log[i];
    if (r->a != ws_pid) continue;
    if (r->ev == ompt_event_sections_begin || r->ev == ompt_event_single_in_block_begin ||
        r->ev == ompt_event_loop_begin) {
      CHECK(in_program((void*)(uintptr_t)r->c));
    }
    if (r->ev == ompt_event_sections_begin || r->ev == ompt_event_single_in_block_begin ||
        r->ev == ompt_event_single_others_begin || r->ev == ompt_event_loop_begin ||
        r->ev == ompt_event_master_begin) {
      // The task is the thread's implicit task of this region.
      int found = 0;
      for (int t = 0; t < NT; ++t) found |= ws_tasks[t] == r->b;
      CHECK(found);
    }
    if (r->ev == ompt_event_master_begin) CHECK_EQ_LONG(r->b, ws_tasks[0]);
  }
  // ordered: 8 iterations, each wait, acquired, release (in that order per
  // thread: check_nesting) with one wait id, the loop's; the state in each.
  CHECK_EQ_LONG(count(ompt_event_wait_ordered), 8);
  CHECK_EQ_LONG(count(ompt_event_acquired_ordered), 8);
  CHECK_EQ_LONG(count(ompt_event_release_ordered), 8);
  uint64_t ordered_id = 0;
  for (int i = 0; i < g_cut; ++i) {
    const struct rec* r = &g_log[i];
    if (r->ev != ompt_event_wait_ordered && r->ev != ompt_event_acquired_ordered &&
        r->ev != ompt_event_release_ordered)
      continue;
    if (!ordered_id) ordered_id = r->a;
    CHECK(r->a != 0 && r->a == ordered_id);
    if (r->ev == ompt_event_wait_ordered) {
      CHECK_EQ_LONG(r->b, ompt_state_wait_ordered);
      CHECK_EQ_LONG(r->c, ordered_id);  // the state's wait id
    }
    if (r->ev == ompt_event_acquired_ordered) CHECK_EQ_LONG(r->b, ompt_state_work_parallel);
    // Inside the ordered loop of this thread: a loop begin of the region
    // before it, its end after.
    int lb = -1;
    for (int j = i - 1; j >= 0 && lb < 0; --j)
      if (g_log[j].thread == r->thread &&
          (g_log[j].ev == ompt_event_loop_begin || g_log[j].ev == ompt_event_loop_end))
        lb = j;
    CHECK(lb >= 0 && g_log[lb].ev == ompt_event_loop_begin && g_log[lb].a == ws_pid);
  }
  // atomic: gcc serializes a long double update through the runtime
  // (GOMP_atomic_start): every thread waits, acquires, releases, with one
  // id; clang's goes through libatomic and the runtime sees nothing.
  CHECK_EQ_LONG(count(ompt_event_wait_atomic), NT * atomics);
  CHECK_EQ_LONG(count(ompt_event_acquired_atomic), NT * atomics);
  CHECK_EQ_LONG(count(ompt_event_release_atomic), NT * atomics);
  uint64_t atomic_id = 0;
  for (int i = 0; i < g_cut; ++i) {
    const struct rec* r = &g_log[i];
    if (r->ev != ompt_event_wait_atomic && r->ev != ompt_event_acquired_atomic &&
        r->ev != ompt_event_release_atomic)
      continue;
    if (!atomic_id) atomic_id = r->a;
    CHECK(r->a != 0 && r->a == atomic_id);
    if (r->ev == ompt_event_wait_atomic) {
      CHECK_EQ_LONG(r->b, ompt_state_wait_atomic);
      CHECK_EQ_LONG(r->c, atomic_id);
    }
    if (r->ev == ompt_event_acquired_atomic) CHECK_EQ_LONG(r->b, ompt_state_work_parallel);
  }
  // flush: clang calls the runtime (every thread, with its thread id); gcc
  // emits a fence.
  CHECK_EQ_LONG(count(ompt_event_flush), NT * flushes);
  for (int i = 0; i < g_cut; ++i)
    if (g_log[i].ev == ompt_event_flush) CHECK_EQ_LONG(g_log[i].a, g_log[i].thread);

  // --- the taskgroup: begin and end on the creator, around the creation
  // of its tasks and their ends; its wait inside, in the wait state, the
  // creator in the runtime ---
  CHECK(tg_pid != 0 && tg_creator != 0);
  CHECK_EQ_LONG(count(ompt_event_taskgroup_begin), 1);
  CHECK_EQ_LONG(count(ompt_event_taskgroup_end), 1);
  int tgb = find(0, g_cut, tg_creator_thread, ompt_event_taskgroup_begin, tg_pid, 0);
  int tge = find(0, g_cut, tg_creator_thread, ompt_event_taskgroup_end, tg_pid, 0);
  CHECK(tgb >= 0 && tge > tgb);
  if (tgb >= 0 && tge > tgb) {
    CHECK_EQ_LONG(g_log[tgb].b, tg_creator);
    CHECK_EQ_LONG(g_log[tge].b, tg_creator);
    CHECK_EQ_LONG(g_log[tgb].e, ompt_state_work_parallel);
    int created = 0, waits = 0;
    for (int i = 0; i < g_cut; ++i) {
      const struct rec* r = &g_log[i];
      if (r->ev == ompt_event_task_begin && r->a == tg_creator) {
        // The group's tasks, then the taskwait's child after the group.
        if (i < tge) ++created;
        CHECK(i > tgb);
        CHECK_EQ_LONG(r->thread, tg_creator_thread);
        // The creator's frame: inside the runtime (task creation), its
        // body running; what get_task_frame answers in the callback.
        CHECK(r->d != 0 && r->c != 0);
        CHECK_EQ_LONG(r->e, r->d);
        CHECK(r->d < r->c);
        // The task ends before the group does.
        int end = -1;
        for (int j = i + 1; j < g_cut && end < 0; ++j)
          if (g_log[j].ev == ompt_event_task_end && g_log[j].a == r->b) end = j;
        CHECK(end > i && (end < tge || i > tge));
      }
      if (r->ev == ompt_event_wait_taskgroup_begin) {
        ++waits;
        CHECK(i > tgb && i < tge);
        CHECK_EQ_LONG(r->thread, tg_creator_thread);
        CHECK_EQ_LONG(r->a, tg_pid);
        CHECK_EQ_LONG(r->b, tg_creator);
        CHECK_EQ_LONG(r->e, ompt_state_wait_taskgroup);
        // Waiting: the task is back in the runtime, its body still runs.
        CHECK(r->c != 0 && r->d != 0 && r->d < r->c);
      }
    }
    CHECK_EQ_LONG(created, kTgTasks);
    CHECK(waits >= 1);
    CHECK_EQ_LONG(count(ompt_event_wait_taskgroup_begin), waits);
    CHECK_EQ_LONG(count(ompt_event_wait_taskgroup_end), waits);

    // The taskwait after the group: on the creator, its wait inside it
    // (in the wait state, the creator in the runtime), its child's end
    // before its end. The team of one's taskwait has no child left.
    int twb = find(tge, g_cut, tg_creator_thread, ompt_event_taskwait_begin, tg_pid, 0);
    int twe = find(tge, g_cut, tg_creator_thread, ompt_event_taskwait_end, tg_pid, 0);
    CHECK(twb > tge && twe > twb);
    CHECK_EQ_LONG(count(ompt_event_taskwait_begin), 2);
    CHECK_EQ_LONG(count(ompt_event_taskwait_end), 2);
    int twaits = 0;
    for (int i = 0; i < g_cut && twe > twb; ++i) {
      const struct rec* r = &g_log[i];
      if (r->ev == ompt_event_task_end && r->a == g_ts[kTgTasks].id) CHECK(i < twe);
      if (r->ev != ompt_event_wait_taskwait_begin) continue;
      ++twaits;
      CHECK(i > twb && i < twe);
      CHECK_EQ_LONG(r->thread, tg_creator_thread);
      CHECK_EQ_LONG(r->a, tg_pid);
      CHECK_EQ_LONG(r->b, tg_creator);
      CHECK_EQ_LONG(r->e, ompt_state_wait_taskwait);
      CHECK(r->c != 0 && r->d != 0 && r->d < r->c);
    }
    CHECK(twaits >= 1);
    CHECK_EQ_LONG(count(ompt_event_wait_taskwait_end), twaits);
  }
  // Each task's body: its own id, its creator as parent, its exit frame
  // the CFA of the function the runtime called (the body's), no reenter
  // frame; on its creator's thread, below the creator's reenter frame.
  for (int k = 0; k < kTgTasks + 2; ++k) {
    const struct task_seen* s = &g_ts[k];
    const int one = k == kTgTasks + 1;
    CHECK(s->id != 0);
    CHECK_EQ_LONG(s->parent, one ? one_creator : tg_creator);
    CHECK(s->exit != 0);
    CHECK_EQ_LONG(s->exit, s->cfa);
    CHECK_EQ_LONG(s->reenter, 0);
    if (!one) CHECK(s->waited);
    // On its creator's thread (always, in the team of one) the creator is
    // suspended inside the runtime, the task's frames below its reenter
    // frame.
    if (one || s->thread == tg_creator_thread) {
      CHECK(s->parent_reenter != 0 && s->parent_reenter != 1);
      CHECK(s->exit < s->parent_reenter);
    }
    // task_begin named it with its creator.
    int tb = -1;
    for (int i = 0; i < g_cut && tb < 0; ++i)
      if (g_log[i].ev == ompt_event_task_begin && g_log[i].b == s->id) tb = i;
    CHECK(tb >= 0 && g_log[tb].a == s->parent);
  }

  // --- frames of the implicit tasks ---
  CHECK(fr_pid != 0);
  int pb = find(0, g_cut, me, ompt_event_parallel_begin, fr_pid, 0);
  CHECK(pb >= 0);
  uint64_t enc_reenter = 0;
  if (pb >= 0) {
    // The encountering (initial) task: in the runtime (its reenter frame,
    // just below the CFA of the function with the construct), no runtime
    // frame above its body.
    enc_reenter = g_log[pb].e;
    CHECK_EQ_LONG(g_log[pb].d, 0);
    CHECK(enc_reenter != 0 && enc_reenter < g_frames_cfa && enc_reenter > g_frames_cfa - 512);
  }
  for (int t = 0; t < NT; ++t) {
    const struct frames_seen* s = &g_fs[t];
    CHECK_EQ_LONG(s->thread_num, t);
    // In the body: the exit frame is the outlined function's CFA, no
    // reenter frame; the parent is in the runtime (where it forked).
    CHECK(s->exit != 0);
    CHECK_EQ_LONG(s->exit, s->cfa);
    CHECK_EQ_LONG(s->reenter, 0);
    CHECK(s->local < s->exit);
    CHECK_EQ_LONG(s->parent_reenter, enc_reenter);
    CHECK_EQ_LONG(s->parent_exit, 0);
    // Back in the body after the barrier: the reenter frame is cleared.
    CHECK_EQ_LONG(s->after_exit, s->exit);
    CHECK_EQ_LONG(s->after_reenter, 0);
    // The nested region's task, on this thread: its exit frame below this
    // task's reenter frame, which is below this task's exit frame.
    CHECK(s->inner_task != 0 && s->inner_task != s->task);
    CHECK(s->inner_exit != 0);
    CHECK_EQ_LONG(s->inner_exit, s->inner_cfa);
    CHECK_EQ_LONG(s->inner_reenter, 0);
    CHECK_EQ_LONG(s->inner_parent_exit, s->exit);
    CHECK(s->inner_parent_reenter != 0);
    CHECK(s->inner_exit < s->inner_parent_reenter && s->inner_parent_reenter < s->exit);
    // The inner parallel_begin got this task's frame, as seen from inside.
    int ipb = -1;
    for (int i = 0; i < g_cut && ipb < 0; ++i)
      if (g_log[i].ev == ompt_event_parallel_begin && g_log[i].b == s->task) ipb = i;
    CHECK(ipb >= 0);
    if (ipb >= 0) {
      CHECK_EQ_LONG(g_log[ipb].d, s->exit);
      CHECK_EQ_LONG(g_log[ipb].e, s->inner_parent_reenter);
    }
  }
  // The primary shares the encountering task's stack: its body's frames
  // lie below where the initial task entered the runtime.
  CHECK(g_fs[0].exit < enc_reenter);
  // At the explicit barrier, each thread's wait: in the runtime (reenter
  // frame below the exit frame, which is unchanged). At the region's
  // closing barrier the body has returned: neither frame is set.
  int explicit_waits = 0, closing_waits = 0;
  for (int i = 0; i < g_cut; ++i) {
    const struct rec* r = &g_log[i];
    if (r->ev != ompt_event_wait_barrier_begin || r->a != fr_pid) continue;
    if (r->e == ompt_state_wait_barrier_implicit) {
      ++closing_waits;
      CHECK_EQ_LONG(r->c, 0);
      CHECK_EQ_LONG(r->d, 0);
      continue;
    }
    CHECK_EQ_LONG(r->e, ompt_state_wait_barrier_explicit);
    ++explicit_waits;
    int t = 0;
    while (t < NT && g_fs[t].task != r->b) ++t;
    CHECK(t < NT);
    if (t < NT) {
      CHECK_EQ_LONG(r->c, g_fs[t].exit);
      CHECK(r->d != 0 && r->d < r->c);
    }
  }
  CHECK_EQ_LONG(explicit_waits, NT);
  CHECK_EQ_LONG(closing_waits, NT);

  KITE_TEST_END();
}
