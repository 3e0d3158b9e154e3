/* At process exit, without ompt_finalize_tool: idle workers and the
 * initial thread end (thread_end on each, the initial task's end first),
 * then the tool's finalizer runs, before handlers the program registered
 * ahead of the runtime's. The check runs from such a handler.
 * kite-test-threads: 1 3 */
#include "kite_test.h"

#include <unistd.h>

#include "support/recorder.h"

static void check_at_exit(void) {
  int ok = rec_fini_calls == 1 && rec_nthreads == 3;
  for (int k = 0; k < rec_nthreads && k < REC_MAX_THREADS; ++k) {
    rec_thread* t = &rec_threads[k];
    ok = ok && t->count >= 2 && t->ev[t->count - 1].ev == EV_THREAD_END;
    if (t->type == ompt_thread_initial) ok = ok && t->ev[t->count - 2].ev == EV_INITIAL_END;
  }
  if (!ok) {
    fprintf(stderr, "FAIL: at exit: finalizer calls %d, threads %d\n", rec_fini_calls,
            rec_nthreads);
    _exit(1);
  }
  printf("exit checks passed\n");
}

/* Not in main: clang asks for the thread's id (__kmpc_global_thread_num)
 * on entry to a function with a parallel region, which would start the
 * runtime before main registers its handler. */
static __attribute__((noinline)) int region_sum(void) {
  int sum = 0;
#pragma omp parallel num_threads(3) reduction(+ : sum)
  sum += 1;
  return sum;
}

int main(void) {
  KITE_TEST_BEGIN();
  /* Before the first OpenMP call, so before the runtime registers its own
   * handler: handlers run in reverse order, this one last. */
  atexit(check_at_exit);
  CHECK_EQ_LONG(region_sum(), 3);
  CHECK_EQ_LONG(rec_fini_calls, 0);
  KITE_TEST_END();
}
