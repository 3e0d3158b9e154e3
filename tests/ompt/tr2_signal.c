// TR2's inquiry functions from signal handlers, as a sampling tool uses
// them. Thread 0 holds what thread 1 waits for (a lock, a nest lock, a
// critical section, an explicit barrier, the region's closing barrier)
// and signals thread 1 until its handler reads the wait state; the wait
// id it read is the one the tool's wait_* callback got (the lock's
// address for a lock), and the parallel id is the region's. After the
// region the worker is sampled idle: parallel id 0, an idle frame. A
// profiling timer meanwhile samples whatever thread it lands on: every
// answer is one of the states ompt_enumerate_state lists.
// kite-test-threads: 2
#include "kite_test.h"

#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <stdint.h>
#include <sys/time.h>
#include <time.h>

#include "../../include/ompt-tr2.h"

static ompt_get_state_t get_state;
static ompt_get_parallel_id_t get_parallel_id;
static ompt_get_task_id_t get_task_id;
static ompt_get_idle_frame_t get_idle_frame;
static ompt_enumerate_state_t enumerate_state;

// The wait ids the tool's callbacks got, per event.
static uint64_t g_waited[64];
#define WAIT(name)                                                               \
  static void on_##name(ompt_wait_id_t w) {                                      \
    __atomic_store_n(&g_waited[ompt_event_##name], w, __ATOMIC_RELAXED);         \
  }
WAIT(wait_lock)
WAIT(wait_nest_lock)
WAIT(wait_critical)

int ompt_initialize(ompt_function_lookup_t lookup, const char* runtime_version,
                    unsigned int ompt_version) {
  get_state = (ompt_get_state_t)lookup("ompt_get_state");
  get_parallel_id = (ompt_get_parallel_id_t)lookup("ompt_get_parallel_id");
  get_task_id = (ompt_get_task_id_t)lookup("ompt_get_task_id");
  get_idle_frame = (ompt_get_idle_frame_t)lookup("ompt_get_idle_frame");
  enumerate_state = (ompt_enumerate_state_t)lookup("ompt_enumerate_state");
  ompt_set_callback_t set = (ompt_set_callback_t)lookup("ompt_set_callback");
  if (!get_state || !get_parallel_id || !get_task_id || !get_idle_frame || !enumerate_state ||
      !set)
    return 0;
  set(ompt_event_wait_lock, (ompt_callback_t)on_wait_lock);
  set(ompt_event_wait_nest_lock, (ompt_callback_t)on_wait_nest_lock);
  set(ompt_event_wait_critical, (ompt_callback_t)on_wait_critical);
  return 1;
}

// --- the targeted signal ----------------------------------------------------------
struct answer {
  int state;
  uint64_t wait_id, parallel_id, task_id;
  void* idle_frame;
};
static volatile sig_atomic_t g_asked, g_answered;
static struct answer g_last;

static void ask(struct answer* a) {
  a->state = get_state(&a->wait_id);
  a->parallel_id = get_parallel_id(0);
  a->task_id = get_task_id(0);
  a->idle_frame = get_idle_frame();
}

static void on_usr1(int sig) {
  struct answer a;
  ask(&a);
  g_last = a;
  __atomic_store_n(&g_answered, g_asked, __ATOMIC_RELEASE);
}

static double now(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return ts.tv_sec + ts.tv_nsec * 1e-9;
}

// Signals `t` until its handler answers `want` (10 s at most).
static struct answer sample_until(pthread_t t, int want) {
  double end = now() + 10;
  struct answer a;
  memset(&a, 0, sizeof a);
  while (now() < end) {
    int seq = g_asked + 1;
    __atomic_store_n(&g_asked, seq, __ATOMIC_RELEASE);
    pthread_kill(t, SIGUSR1);
    while (__atomic_load_n(&g_answered, __ATOMIC_ACQUIRE) != seq && now() < end) sched_yield();
    a = g_last;
    if (a.state == want) break;
  }
  if (a.state != want) fprintf(stderr, "the handler read state 0x%x, not 0x%x\n", a.state, want);
  return a;
}

// --- the profiling timer ------------------------------------------------------------
static int g_known[128];
static volatile int g_samples, g_bad_samples;

static void on_prof(int sig) {
  struct answer a;
  ask(&a);
  __atomic_fetch_add(&g_samples, 1, __ATOMIC_RELAXED);
  if (a.state < 0 || a.state >= 128 || !g_known[a.state])
    __atomic_fetch_add(&g_bad_samples, 1, __ATOMIC_RELAXED);
}

static pthread_t g_worker;
static int g_ready;

static int g_held;
static void hold(void) { __atomic_store_n(&g_held, 1, __ATOMIC_RELEASE); }
static void wait_held(void) {
  while (!__atomic_exchange_n(&g_held, 0, __ATOMIC_ACQ_REL)) sched_yield();
}
static void arrive(void) { __atomic_store_n(&g_ready, 1, __ATOMIC_RELEASE); }
static void wait_arrival(void) {
  while (!__atomic_exchange_n(&g_ready, 0, __ATOMIC_ACQ_REL)) sched_yield();
}

int main(void) {
  KITE_TEST_BEGIN();
  (void)omp_get_max_threads();
  if (!get_state) {
    fprintf(stderr, "FAIL: ompt_initialize was not called\n");
    return 1;
  }
  for (int s = ompt_state_first, n; enumerate_state(s, &n, NULL); s = n)
    if (n >= 0 && n < 128) g_known[n] = 1;

  struct sigaction sa;
  memset(&sa, 0, sizeof sa);
  sa.sa_handler = on_usr1;
  sa.sa_flags = SA_RESTART;
  sigaction(SIGUSR1, &sa, NULL);
  sa.sa_handler = on_prof;
  sigaction(SIGPROF, &sa, NULL);
  struct itimerval it = {{0, 500}, {0, 500}};
  setitimer(ITIMER_PROF, &it, NULL);

  omp_lock_t lock;
  omp_nest_lock_t nest;
  omp_init_lock(&lock);
  omp_init_nest_lock(&nest);
  uint64_t region = 0;
  struct answer lk, nl, cr, eb, ib;
#pragma omp parallel num_threads(2)
  {
    int t = omp_get_thread_num();
    if (t == 0) region = get_parallel_id(0);
    if (t == 1) g_worker = pthread_self();
#pragma omp barrier
    // A lock.
    if (t == 0) {
      omp_set_lock(&lock);
      hold();
      wait_arrival();
      lk = sample_until(g_worker, ompt_state_wait_lock);
      omp_unset_lock(&lock);
    } else {
      wait_held();
      arrive();
      omp_set_lock(&lock);
      omp_unset_lock(&lock);
    }
#pragma omp barrier
    // A nest lock.
    if (t == 0) {
      omp_set_nest_lock(&nest);
      hold();
      wait_arrival();
      nl = sample_until(g_worker, ompt_state_wait_nest_lock);
      omp_unset_nest_lock(&nest);
    } else {
      wait_held();
      arrive();
      omp_set_nest_lock(&nest);
      omp_unset_nest_lock(&nest);
    }
#pragma omp barrier
    // A critical section, held by thread 0 while it samples.
    if (t == 0) {
#pragma omp critical
      {
        hold();
        wait_arrival();
        cr = sample_until(g_worker, ompt_state_wait_critical);
      }
    } else {
      wait_held();
      arrive();
#pragma omp critical
      g_samples += 0;
    }
#pragma omp barrier
    // An explicit barrier thread 1 reaches first.
    if (t == 0) {
      wait_arrival();
      eb = sample_until(g_worker, ompt_state_wait_barrier_explicit);
    } else {
      arrive();
    }
#pragma omp barrier
    // The region's closing barrier.
    if (t == 0) {
      wait_arrival();
      ib = sample_until(g_worker, ompt_state_wait_barrier_implicit);
    } else {
      arrive();
    }
  }
  // The worker back in the pool.
  struct answer idle = sample_until(g_worker, ompt_state_idle);

  struct itimerval off = {{0, 0}, {0, 0}};
  setitimer(ITIMER_PROF, &off, NULL);

  CHECK(region != 0);
  CHECK_EQ_LONG(lk.state, ompt_state_wait_lock);
  CHECK_EQ_LONG(lk.wait_id, (uint64_t)(uintptr_t)&lock);
  CHECK_EQ_LONG(lk.wait_id, g_waited[ompt_event_wait_lock]);
  CHECK_EQ_LONG(lk.parallel_id, region);
  CHECK(lk.task_id != 0);
  // A worker waiting for a lock in region work still has its idle frame
  // on its stack (TR2: NULL only for "no idle frame in its call stack"):
  // the one it answers when idle in the pool.
  CHECK(lk.idle_frame != NULL);
  CHECK(lk.idle_frame == idle.idle_frame);
  CHECK(ib.idle_frame == idle.idle_frame);
  CHECK_EQ_LONG(nl.state, ompt_state_wait_nest_lock);
  CHECK_EQ_LONG(nl.wait_id, (uint64_t)(uintptr_t)&nest);
  CHECK_EQ_LONG(nl.wait_id, g_waited[ompt_event_wait_nest_lock]);
  CHECK_EQ_LONG(nl.parallel_id, region);
  CHECK_EQ_LONG(cr.state, ompt_state_wait_critical);
  CHECK(cr.wait_id != 0);
  CHECK_EQ_LONG(cr.wait_id, g_waited[ompt_event_wait_critical]);
  CHECK_EQ_LONG(cr.parallel_id, region);
  CHECK_EQ_LONG(eb.state, ompt_state_wait_barrier_explicit);
  CHECK(eb.wait_id != 0);
  CHECK_EQ_LONG(eb.parallel_id, region);
  CHECK_EQ_LONG(ib.state, ompt_state_wait_barrier_implicit);
  CHECK(ib.wait_id != 0);
  CHECK_EQ_LONG(ib.parallel_id, region);
  CHECK_EQ_LONG(idle.state, ompt_state_idle);
  CHECK_EQ_LONG(idle.parallel_id, 0);
  CHECK_EQ_LONG(idle.task_id, 0);
  CHECK(idle.idle_frame != NULL);
  CHECK_EQ_LONG(g_bad_samples, 0);
  omp_destroy_lock(&lock);
  omp_destroy_nest_lock(&nest);
  KITE_TEST_END();
}
