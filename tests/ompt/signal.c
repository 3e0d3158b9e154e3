/* The inquiry entry points from a SIGPROF handler: whatever a thread was
 * doing when the signal hit, its state is one the runtime can be in, and
 * while it runs user code of a region (a thread-local flag says so) the
 * state is work_parallel and the innermost region and task are the ones
 * it runs; in serial code, work_serial.
 * kite-test-threads: 2 4
 * kite-test-timeout: 60 */
#include "kite_test.h"

#include <errno.h>
#include <signal.h>
#include <sys/time.h>
#include "support/recorder.h"

enum { PHASE_OTHER, PHASE_SERIAL, PHASE_BODY };
static __thread volatile int phase;
static __thread volatile uint64_t body_task, body_region;

static volatile int samples, bad_state, bad_body, bad_serial, bad_data;

static void on_prof(int sig) {
  int saved_errno = errno;
  __atomic_add_fetch(&samples, 1, __ATOMIC_RELAXED);
  int s = rec_get_state(NULL);
  switch (s) {
    case ompt_state_work_serial: case ompt_state_work_parallel:
    case ompt_state_wait_barrier_implicit_parallel: case ompt_state_wait_barrier_explicit:
    case ompt_state_idle: case ompt_state_overhead: case ompt_state_undefined:
      break;
    default:
      __atomic_add_fetch(&bad_state, 1, __ATOMIC_RELAXED);
  }
  ompt_data_t* td = rec_get_thread_data();
  if (s != ompt_state_undefined && !td) __atomic_add_fetch(&bad_data, 1, __ATOMIC_RELAXED);
  if (phase == PHASE_BODY) {
    ompt_data_t *task = NULL, *pd = NULL;
    int size = 0;
    if (s != ompt_state_work_parallel ||
        rec_get_task_info(0, NULL, &task, NULL, NULL, NULL) != 2 || !task ||
        task->value != body_task || rec_get_parallel_info(0, &pd, &size) != 2 || !pd ||
        pd->value != body_region || size < 1)
      __atomic_add_fetch(&bad_body, 1, __ATOMIC_RELAXED);
  } else if (phase == PHASE_SERIAL) {
    if (s != ompt_state_work_serial) __atomic_add_fetch(&bad_serial, 1, __ATOMIC_RELAXED);
  }
  errno = saved_errno;
}

static double spin(long n) {
  double x = 1.0;
  for (long i = 0; i < n; ++i) x = x * 1.0000001 + 1e-9;
  return x;
}

int main(void) {
  KITE_TEST_BEGIN();
  omp_get_max_threads();
  struct sigaction sa;
  memset(&sa, 0, sizeof sa);
  sa.sa_handler = on_prof;
  sa.sa_flags = SA_RESTART;
  sigaction(SIGPROF, &sa, NULL);
  struct itimerval it = {{0, 1000}, {0, 1000}}; /* every ms of CPU time */
  setitimer(ITIMER_PROF, &it, NULL);
  volatile double sink = 0;
  /* Until enough samples (not a time bound): a few hundred ms of CPU. */
  for (int round = 0; round < 20000 && __atomic_load_n(&samples, __ATOMIC_RELAXED) < 100;
       ++round) {
    phase = PHASE_SERIAL;
    sink += spin(20000);
    phase = PHASE_OTHER;
#pragma omp parallel
    {
      ompt_data_t* task = NULL;
      ompt_data_t* pd = NULL;
      rec_get_task_info(0, NULL, &task, NULL, NULL, NULL);
      rec_get_parallel_info(0, &pd, NULL);
      body_task = task->value;
      body_region = pd->value;
      phase = PHASE_BODY;
      double mine = spin(20000 * (1 + omp_get_thread_num()));
      phase = PHASE_OTHER;
#pragma omp barrier
      phase = PHASE_BODY;
      mine += spin(10000);
      phase = PHASE_OTHER;
      if (mine < 0) sink += mine; /* never: keeps the work */
    }
  }
  struct itimerval off = {{0, 0}, {0, 0}};
  setitimer(ITIMER_PROF, &off, NULL);
  CHECK(samples >= 100);
  CHECK_EQ_LONG(bad_state, 0);
  CHECK_EQ_LONG(bad_data, 0);
  CHECK_EQ_LONG(bad_body, 0);
  CHECK_EQ_LONG(bad_serial, 0);
  KITE_TEST_END();
}
