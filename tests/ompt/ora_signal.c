// ORA's STATE and CURRENT_PRID asked from signal handlers, as a sampling
// collector does. Thread 0 holds what thread 1 waits for (a lock, a
// critical section, an earlier ordered iteration, an explicit barrier, the
// region's closing barrier) and signals thread 1 until its handler answers
// the wait state; the wait id the handler read is the one the preloaded
// collector logged at the wait's begin event (the lock's address for the
// lock), and the region id is the region's. Meanwhile a profiling timer
// samples whatever thread it lands on: every answer is well formed.
// kite-test-threads: 2
// kite-test-env: LD_PRELOAD=ompt/libkite_ora_collector.so ASAN_OPTIONS=verify_asan_link_order=0
#include "kite_test.h"

#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <stdint.h>
#include <sys/time.h>
#include <time.h>

#include "support/ora_collector.h"

static int (*api)(void*);

// STATE (12 bytes of room) and CURRENT_PRID (8) in one message, on the
// handler's stack.
struct answer {
  int rc, state_error, state, prid_error;
  uint64_t wait_id, prid;
};

static void ask(struct answer* a) {
  char msg[16 + 12 + 16 + 8 + 4];
  int size = 28, req = OMP_REQ_STATE, zero = 0;
  __builtin_memset(msg, 0, sizeof msg);
  __builtin_memcpy(msg, &size, 4);
  __builtin_memcpy(msg + 4, &req, 4);
  size = 24;
  req = OMP_REQ_CURRENT_PRID;
  __builtin_memcpy(msg + 28, &size, 4);
  __builtin_memcpy(msg + 32, &req, 4);
  __builtin_memcpy(msg + 52, &zero, 4);
  a->rc = api(msg);
  __builtin_memcpy(&a->state_error, msg + 8, 4);
  __builtin_memcpy(&a->state, msg + 16, 4);
  __builtin_memcpy(&a->wait_id, msg + 20, 8);
  __builtin_memcpy(&a->prid_error, msg + 36, 4);
  __builtin_memcpy(&a->prid, msg + 44, 8);
}

// --- the targeted signal -----------------------------------------------------------
static volatile sig_atomic_t g_asked, g_answered;
static struct answer g_last;

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

// Signals `t` until its handler answers `want` (10 s at most); returns the
// last answer.
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
  return a;
}

// --- the profiling timer ----------------------------------------------------------
static volatile int g_samples, g_bad_samples;

static void on_prof(int sig) {
  struct answer a;
  ask(&a);
  __atomic_fetch_add(&g_samples, 1, __ATOMIC_RELAXED);
  if (a.rc != 0 || a.state_error != OMP_ERRCODE_OK || a.prid_error != OMP_ERRCODE_OK ||
      a.state < THR_OVHD_STATE || a.state >= THR_LAST_STATE)
    __atomic_fetch_add(&g_bad_samples, 1, __ATOMIC_RELAXED);
}

// The wait id the collector logged at a begin event `ev`, on any thread.
static int logged(int ev, uint64_t wait_id) {
  int (*count)(void) = (int (*)(void))dlsym(RTLD_DEFAULT, "ora_collector_thread_count");
  struct ora_thread_log* (*log_of)(int) =
      (struct ora_thread_log * (*)(int)) dlsym(RTLD_DEFAULT, "ora_collector_log");
  for (int t = 0; t < count(); ++t) {
    struct ora_thread_log* log = log_of(t);
    for (int i = 0; i < log->n; ++i)
      if (log->rec[i].event == ev && log->rec[i].wait_id == wait_id) return 1;
  }
  return 0;
}

static void check_answer(const char* what, struct answer a, int state, uint64_t prid) {
  if (a.state != state)
    fprintf(stderr, "%s: the handler read state %d, not %d\n", what, a.state, state);
  CHECK_EQ_LONG(a.rc, 0);
  CHECK_EQ_LONG(a.state_error, OMP_ERRCODE_OK);
  CHECK_EQ_LONG(a.state, state);
  CHECK(a.wait_id != 0);
  CHECK_EQ_LONG(a.prid_error, OMP_ERRCODE_OK);
  CHECK_EQ_LONG(a.prid, prid);
}

int main(void) {
  KITE_TEST_BEGIN();
  int (*started)(void) = (int (*)(void))dlsym(RTLD_DEFAULT, "ora_collector_started");
  if (!started) {
    fprintf(stderr, "FAIL: the ORA collector is not preloaded\n");
    return 1;
  }
  CHECK(started());
  api = (int (*)(void*))dlsym(RTLD_DEFAULT, OMP_COLLECTOR_API);
  CHECK(api != NULL);

  struct sigaction sa;
  memset(&sa, 0, sizeof sa);
  sa.sa_handler = on_usr1;
  sa.sa_flags = SA_RESTART;
  sigaction(SIGUSR1, &sa, NULL);
  sa.sa_handler = on_prof;
  sigaction(SIGPROF, &sa, NULL);
  struct itimerval it = {{0, 500}, {0, 500}};
  setitimer(ITIMER_PROF, &it, NULL);

  // Outside any region: serial, region 0.
  struct answer serial;
  ask(&serial);
  CHECK_EQ_LONG(serial.state, THR_SERIAL_STATE);
  CHECK_EQ_LONG(serial.prid, 0);

  omp_lock_t lock;
  omp_init_lock(&lock);
  pthread_t worker;
  uint64_t region = 0;
  volatile int held = 0;
  struct answer lkwt, ctwt, odwt, ebar, ibar;
  volatile double burn = 0;
#pragma omp parallel num_threads(2)
  {
    int t = omp_get_thread_num();
    // 50 ms of work for the profiling timer.
    for (double until = now() + 0.05; now() < until;) burn = burn + 0.5;
    if (t == 1) worker = pthread_self();
    if (t == 0) {
      struct answer a;
      ask(&a);
      region = a.prid;
      CHECK_EQ_LONG(a.state, THR_WORK_STATE);
      omp_set_lock(&lock);
    }
#pragma omp barrier
    // A lock wait.
    if (t == 1) {
      omp_set_lock(&lock);
      omp_unset_lock(&lock);
    } else {
      lkwt = sample_until(worker, THR_LKWT_STATE);
      omp_unset_lock(&lock);
    }
#pragma omp barrier
    // A critical section's wait.
    if (t == 0) {
#pragma omp critical
      {
        held = 1;
        ctwt = sample_until(worker, THR_CTWT_STATE);
      }
    } else {
      while (!held) sched_yield();
#pragma omp critical
      held = 2;
    }
    // An ordered region's wait: iteration 1 (thread 1) waits for 0.
#pragma omp for ordered schedule(static, 1)
    for (int i = 0; i < 2; ++i) {
      if (i == 0) odwt = sample_until(worker, THR_ODWT_STATE);
#pragma omp ordered
      burn = burn + i;
    }
    // An explicit barrier thread 0 reaches last.
    if (t == 0) ebar = sample_until(worker, THR_EBAR_STATE);
#pragma omp barrier
    // The region's closing barrier, thread 0 last again.
    if (t == 0) ibar = sample_until(worker, THR_IBAR_STATE);
  }
  it.it_value.tv_usec = it.it_interval.tv_usec = 0;
  setitimer(ITIMER_PROF, &it, NULL);

  CHECK(region != 0);
  check_answer("lock", lkwt, THR_LKWT_STATE, region);
  CHECK_EQ_LONG(lkwt.wait_id, (uint64_t)(uintptr_t)&lock);
  CHECK(logged(OMP_EVENT_THR_BEGIN_LKWT, lkwt.wait_id));
  check_answer("critical", ctwt, THR_CTWT_STATE, region);
  CHECK(logged(OMP_EVENT_THR_BEGIN_CTWT, ctwt.wait_id));
  check_answer("ordered", odwt, THR_ODWT_STATE, region);
  CHECK(logged(OMP_EVENT_THR_BEGIN_ODWT, odwt.wait_id));
  check_answer("explicit barrier", ebar, THR_EBAR_STATE, region);
  CHECK(logged(OMP_EVENT_THR_BEGIN_EBAR, ebar.wait_id));
  check_answer("implicit barrier", ibar, THR_IBAR_STATE, region);
  CHECK(logged(OMP_EVENT_THR_BEGIN_IBAR, ibar.wait_id));
  CHECK(g_samples > 0);
  CHECK_EQ_LONG(g_bad_samples, 0);
  omp_destroy_lock(&lock);
  KITE_TEST_END();
}
