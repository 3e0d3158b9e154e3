/* Exit frames of explicit tasks: inside a deferred task's body the task's
 * exit frame is the canonical frame address of the function the runtime
 * called (gcc's outlined task function, clang's task entry, into which
 * clang inlines the body), flagged runtime | cfa, so a tool unwinding from
 * the body stops right at the runtime. Tied and untied tasks, and tasks
 * with dependences, on every thread that runs them; and the same for the
 * initial task of each team of a host teams construct.
 * kite-test-threads: 1 2 4 */
#include "kite_test.h"
#include "support/recorder.h"

#define NTASKS 24

static void* exit_ptr[NTASKS];
static void* body_cfa[NTASKS];
static int exit_flags[NTASKS];

#define NOTE(i)                                                          \
  do {                                                                   \
    ompt_frame_t* fr = NULL;                                             \
    if (rec_get_task_info(0, NULL, NULL, &fr, NULL, NULL) == 2 && fr) {  \
      exit_ptr[i] = fr->exit_frame.ptr;                                  \
      exit_flags[i] = fr->exit_frame_flags;                              \
    }                                                                    \
    body_cfa[i] = __builtin_dwarf_cfa();                                 \
  } while (0)

int main(void) {
  KITE_TEST_BEGIN();
  omp_get_max_threads();
  int dep = 0;
#pragma omp parallel
#pragma omp single
  {
    for (int i = 0; i < NTASKS; i += 3) {
#pragma omp task firstprivate(i)
      NOTE(i);
#pragma omp task untied firstprivate(i)
      NOTE(i + 1);
#pragma omp task depend(inout : dep) firstprivate(i)
      NOTE(i + 2);
    }
#pragma omp taskwait
  }
  for (int i = 0; i < NTASKS; ++i) {
    CHECK(exit_ptr[i] != NULL);
    CHECK(exit_ptr[i] == body_cfa[i]);
    CHECK_EQ_LONG(exit_flags[i], ompt_frame_runtime | ompt_frame_cfa);
  }

  memset(exit_ptr, 0, sizeof exit_ptr);
#pragma omp teams num_teams(3)
  NOTE(omp_get_team_num());
  for (int i = 0; i < 3; ++i) {
    CHECK(exit_ptr[i] != NULL);
    CHECK(exit_ptr[i] == body_cfa[i]);
    CHECK_EQ_LONG(exit_flags[i], ompt_frame_runtime | ompt_frame_cfa);
  }
  KITE_TEST_END();
}
