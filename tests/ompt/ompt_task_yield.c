/* taskyield: a task that yields while another task is ready, and gets it
 * run on its thread there, is suspended with ompt_task_yield (not a plain
 * switch): task_schedule (yielder, ompt_task_yield, other), then the
 * other's (other, ompt_task_complete, yielder). A taskyield with nothing
 * to run reports nothing. The other thread of the team spins outside any
 * scheduling point until the yield is over, so it cannot take the task.
 * kite-test-threads: 2 */
#include "kite_test.h"
#include "support/task_recorder.h"

static volatile int done;
static uint64_t yielder_id, child_id;
static int child_ran_on, yielder_on, nothing_to_run_count;

static uint64_t current_task_id(void) {
  ompt_data_t* td = NULL;
  return rec_get_task_info(0, NULL, &td, NULL, NULL, NULL) == 2 && td ? td->value : 0;
}

int main(void) {
  KITE_TEST_BEGIN();
  omp_get_max_threads();
  int team = 0;
#pragma omp parallel num_threads(2)
  {
    if (omp_get_thread_num() == 0) {
      team = omp_get_num_threads();
#pragma omp task
      {
        yielder_id = current_task_id();
        yielder_on = omp_get_thread_num();
        /* Nothing ready yet: no event. */
        rec_thread* me = rec_me();
        int before = me->count;
#pragma omp taskyield
        nothing_to_run_count = me->count - before;
#pragma omp task
        {
          child_id = current_task_id();
          child_ran_on = omp_get_thread_num();
        }
#pragma omp taskyield
      }
#pragma omp taskwait
      __atomic_store_n(&done, 1, __ATOMIC_RELEASE);
    } else {
      while (!__atomic_load_n(&done, __ATOMIC_ACQUIRE)) {
      }
    }
  }
  CHECK_EQ_LONG(team, 2);
  CHECK(yielder_id != 0 && child_id != 0);
  CHECK_EQ_LONG(child_ran_on, yielder_on);
  CHECK_EQ_LONG(nothing_to_run_count, 0);
  /* On the thread that ran both: the yield, then the child's completion
   * back to the yielder; no plain switch away from the yielder. */
  int yields = 0, child_completes = 0, switches_from_yielder = 0;
  for (int k = 0; k < rec_nthreads; ++k) {
    rec_thread* t = &rec_threads[k];
    for (int i = 0; i < t->count; ++i) {
      rec_event* e = &t->ev[i];
      if (e->ev != EV_TASK_SCHEDULE) continue;
      if (e->task_id == yielder_id && e->kind == ompt_task_yield) {
        ++yields;
        CHECK_EQ_LONG(e->enc_task_id, child_id);
        int j = i + 1;
        while (j < t->count && t->ev[j].ev != EV_TASK_SCHEDULE) ++j;
        CHECK(j < t->count);
        if (j < t->count) {
          CHECK_EQ_LONG(t->ev[j].task_id, child_id);
          CHECK_EQ_LONG(t->ev[j].kind, ompt_task_complete);
          CHECK_EQ_LONG(t->ev[j].enc_task_id, yielder_id);
        }
      }
      if (e->task_id == child_id && e->kind == ompt_task_complete) ++child_completes;
      if (e->task_id == yielder_id && e->kind == ompt_task_switch) ++switches_from_yielder;
    }
  }
  CHECK_EQ_LONG(yields, 1);
  CHECK_EQ_LONG(child_completes, 1);
  CHECK_EQ_LONG(switches_from_yielder, 0);
  KITE_TEST_END();
}
