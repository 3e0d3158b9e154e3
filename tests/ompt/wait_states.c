/* The state a thread is in while it waits, read from a signal handler on
 * that thread (ompt_get_state is async-signal-safe), for every wait that
 * does not involve a mutex (ompt_mutex_wait_state.c covers those):
 * an explicit barrier, the implicit barrier at the end of a worksharing
 * loop and at the end of a parallel region, taskwait, the end of a
 * taskgroup, an ordered region whose turn has not come, and a worker
 * between two parallel regions (idle). The initial thread outside any
 * region is in work_serial.
 *
 * Thread 1 waits; thread 0 interrupts it until the handler reports the
 * expected state (the waiter may still be on its way into the wait), with
 * a bound of several seconds, then lets it go. A state never reached fails.
 * kite-test-threads: 2
 * kite-test-timeout: 120 */
#include "kite_test.h"

#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <stdint.h>
#include <time.h>

#include "support/recorder.h"

static volatile sig_atomic_t seen_state, seen_done;
static pthread_t waiter;

static void on_signal(int sig) {
  (void)sig;
  seen_state = rec_get_state(NULL);
  __atomic_store_n(&seen_done, 1, __ATOMIC_RELEASE);
}

/* Interrupts the waiter until it reports `want` (at most ~10 s); returns
 * the last state seen. */
static int probe_until(int want) {
  int last = -1;
  for (int i = 0; i < 10000; ++i) {
    __atomic_store_n(&seen_done, 0, __ATOMIC_RELEASE);
    pthread_kill(waiter, SIGUSR1);
    while (!__atomic_load_n(&seen_done, __ATOMIC_ACQUIRE)) sched_yield();
    last = seen_state;
    if (last == want) break;
    struct timespec ts = {0, 1000000};
    nanosleep(&ts, NULL);
  }
  return last;
}

enum { BARRIER, LOOP_END, TASKWAIT, TASKGROUP, ORDERED, REGION_END, IDLE, NCASES };
static const char* case_name[NCASES] = {"explicit barrier", "loop-end barrier", "taskwait",
                                        "taskgroup end", "ordered", "region-end barrier", "idle"};
static int seen[NCASES];
static int task_bodies;

int main(void) {
  KITE_TEST_BEGIN();
  omp_get_max_threads();  // the first OpenMP call activates the tool
  CHECK(rec_get_state != NULL);
  struct sigaction sa;
  memset(&sa, 0, sizeof sa);
  sa.sa_handler = on_signal;
  sa.sa_flags = SA_RESTART;
  sigaction(SIGUSR1, &sa, NULL);

  CHECK(rec_get_state(NULL) == ompt_state_work_serial);

  int team = 0;
  (void)case_name;
  omp_event_handle_t ev_wait, ev_group;
#pragma omp parallel num_threads(2)
  {
    int tid = omp_get_thread_num();
    if (tid == 0) team = omp_get_num_threads();
    if (tid == 1) waiter = pthread_self();  // a worker: idle between regions
#pragma omp barrier
    if (team == 2) {
      int is_waiter = tid == 1;

      if (!is_waiter) seen[BARRIER] = probe_until(ompt_state_wait_barrier_explicit);
#pragma omp barrier

      if (!is_waiter) seen[LOOP_END] = probe_until(ompt_state_wait_barrier_implicit_workshare);
      // A dynamic loop: both compilers call the runtime at its end.
#pragma omp for schedule(dynamic)
      for (int i = 0; i < 4; ++i) (void)i;

      // The waiter's task is complete only when the prober fulfills its
      // event, so the waiter cannot run it to completion itself. (The body
      // is not empty: gcc 12 at -O1 drops an empty detached task, detach
      // clause and all.)
      if (is_waiter) {
#pragma omp task detach(ev_wait)
        __atomic_add_fetch(&task_bodies, 1, __ATOMIC_RELAXED);
#pragma omp taskwait
      }
      if (!is_waiter) {
        seen[TASKWAIT] = probe_until(ompt_state_wait_taskwait);
        omp_fulfill_event(ev_wait);
      }
#pragma omp barrier

      if (is_waiter) {
#pragma omp taskgroup
        {
#pragma omp task detach(ev_group)
          __atomic_add_fetch(&task_bodies, 1, __ATOMIC_RELAXED);
        }
      }
      if (!is_waiter) {
        seen[TASKGROUP] = probe_until(ompt_state_wait_taskgroup);
        omp_fulfill_event(ev_group);
      }
#pragma omp barrier

      // Iteration 0 goes to thread 0, which probes before its ordered
      // region; thread 1 waits for it with iteration 1.
#pragma omp for ordered schedule(static, 1)
      for (int i = 0; i < 2; ++i) {
        if (i == 0) seen[ORDERED] = probe_until(ompt_state_wait_ordered);
#pragma omp ordered
        { }
      }

      if (!is_waiter) seen[REGION_END] = probe_until(ompt_state_wait_barrier_implicit_parallel);
    }
  }
  CHECK(team == 2);
  CHECK(task_bodies == 2);
  if (team == 2) {
    seen[IDLE] = probe_until(ompt_state_idle);
    CHECK(rec_get_state(NULL) == ompt_state_work_serial);
    const int want[NCASES] = {ompt_state_wait_barrier_explicit,
                              ompt_state_wait_barrier_implicit_workshare,
                              ompt_state_wait_taskwait,
                              ompt_state_wait_taskgroup,
                              ompt_state_wait_ordered,
                              ompt_state_wait_barrier_implicit_parallel,
                              ompt_state_idle};
    for (int c = 0; c < NCASES; ++c) {
      if (seen[c] != want[c])
        fprintf(stderr, "%s: state 0x%x, expected 0x%x\n", case_name[c], seen[c], want[c]);
      CHECK(seen[c] == want[c]);
    }
  }
  KITE_TEST_END();
}
