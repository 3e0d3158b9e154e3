/* A thread blocked on a lock, a critical region and the atomic lock is in
 * the matching wait state, with the mutex as wait id, for as long as it
 * waits: another thread holds the mutex and interrupts the waiter with a
 * signal; the waiter's handler asks ompt_get_state (async-signal-safe).
 * Once acquired, the waiter is working again.
 * clang: a long double atomic is a libatomic call, never a wait in the
 * runtime, and GOMP_atomic_start is gcc's entry point: no atomic round.
 * kite-test-threads: 2 */
#include "kite_test.h"
#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <stdint.h>

#include "support/mutex_recorder.h"

#ifdef __clang__
#define ROUNDS 2
#else
#define ROUNDS 3
/* libgomp's entry points of atomic regions (gcc's omp.h does not declare
 * them); the test holds the atomic lock through them. */
extern void GOMP_atomic_start(void);
extern void GOMP_atomic_end(void);
#endif

static omp_lock_t lock;
static long double atomic_value;
static volatile sig_atomic_t seen_state, seen_done;
static volatile uint64_t seen_wait_id;
static pthread_t waiter;

static void on_signal(int sig) {
  (void)sig;
  ompt_wait_id_t w = 0;
  seen_state = rec_get_state(&w);
  seen_wait_id = w;
  __atomic_store_n(&seen_done, 1, __ATOMIC_RELEASE);
}

/* Handshake of each round: the holder takes the mutex and says so (held);
 * the waiter notes where its next events will go and says so (ready), then
 * asks for the mutex. */
static int held, ready;
static int waiter_count_before;
static rec_thread* waiter_buffer;

static void announce_held(int round) { __atomic_store_n(&held, round + 1, __ATOMIC_RELEASE); }

static void wait_until_held(int round) {
  while (__atomic_load_n(&held, __ATOMIC_ACQUIRE) != round + 1) sched_yield();
  waiter_count_before = waiter_buffer->count;
  __atomic_store_n(&ready, round + 1, __ATOMIC_RELEASE);
}

/* The holder's side: once the waiter has announced the acquisition
 * (mutex_acquire recorded in its buffer), interrupt it and collect what
 * its handler saw. The holder still holds the mutex, so the waiter cannot
 * have acquired it yet. */
static void probe_waiter(int round, int* state, uint64_t* wait_id) {
  announce_held(round);
  while (__atomic_load_n(&ready, __ATOMIC_ACQUIRE) != round + 1) sched_yield();
  /* The waiter's state is written before its mutex_acquire is recorded. */
  while (rec_next(waiter_buffer, waiter_count_before, MX_ACQUIRE) < 0) sched_yield();
  __atomic_store_n(&seen_done, 0, __ATOMIC_RELEASE);
  pthread_kill(waiter, SIGUSR1);
  while (!__atomic_load_n(&seen_done, __ATOMIC_ACQUIRE)) sched_yield();
  *state = seen_state;
  *wait_id = seen_wait_id;
}

int main(void) {
  KITE_TEST_BEGIN();
  omp_get_max_threads();
  struct sigaction sa;
  memset(&sa, 0, sizeof sa);
  sa.sa_handler = on_signal;
  sigaction(SIGUSR1, &sa, NULL);
  omp_init_lock(&lock);

  int lock_state = 0, critical_state = 0, atomic_state = 0;
  uint64_t lock_wait = 0, critical_wait = 0, atomic_wait = 0;
  int after_state = 0, team = 0;
  uint64_t critical_id = 0;
#pragma omp parallel num_threads(2)
  {
#pragma omp single
    team = omp_get_num_threads();
    if (team == 2) {
      int tid = omp_get_thread_num();
      if (tid == 1) {
        waiter = pthread_self();
        waiter_buffer = rec_me();
      }
      for (int round = 0; round < ROUNDS; ++round) {
#pragma omp barrier
        if (tid == 0) {
          if (round == 0) {
            omp_set_lock(&lock);
            probe_waiter(round, &lock_state, &lock_wait);
            omp_unset_lock(&lock);
          } else if (round == 1) {
#pragma omp critical
            probe_waiter(round, &critical_state, &critical_wait);
          } else {
#ifndef __clang__
            /* Hold the atomic lock the way the program's atomic does. */
            GOMP_atomic_start();
            probe_waiter(round, &atomic_state, &atomic_wait);
            GOMP_atomic_end();
#endif
          }
        } else {
          wait_until_held(round);
          if (round == 0) {
            omp_set_lock(&lock);
            omp_unset_lock(&lock);
          } else if (round == 1) {
#pragma omp critical
            {
              ompt_wait_id_t w;
              after_state = rec_get_state(&w);
            }
            int e = rec_next(waiter_buffer, waiter_count_before, MX_ACQUIRE);
            if (e >= 0) critical_id = waiter_buffer->ev[e].task_id;
          } else {
#ifndef __clang__
#pragma omp atomic
            atomic_value += 1.0L;
#endif
          }
        }
      }
    }
  }
  omp_destroy_lock(&lock);
  if (team == 2) {
    CHECK(lock_state == ompt_state_wait_lock);
    CHECK(lock_wait == (uint64_t)(uintptr_t)&lock);
    CHECK(critical_state == ompt_state_wait_critical);
    CHECK(critical_wait != 0 && critical_wait == critical_id);
    CHECK(after_state == ompt_state_work_parallel);
#ifndef __clang__
    CHECK(atomic_state == ompt_state_wait_atomic);
    CHECK(atomic_wait != 0 && atomic_wait != critical_wait);
    CHECK(atomic_value == 1.0L);
#endif
  }
  KITE_TEST_END();
}
