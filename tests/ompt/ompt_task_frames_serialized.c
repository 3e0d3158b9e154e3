/* Frames of the implicit task of a parallel region whose outlined function
 * the program calls itself (gcc's GOMP_parallel_start, clang's if(0)
 * through __kmpc_serialized_parallel or __kmpc_fork_call_if) or the
 * runtime calls on a team of one (gcc's if(0)): inside the body the
 * implicit task has an exit frame, at or above the body's frames and at or
 * below the encountering task's enter frame, and a task created inside
 * sees it at its parent level, as in an active region.
 * kite-test-threads: 1 2 4 */
#include "kite_test.h"
#include "support/recorder.h"

void GOMP_parallel_start(void (*fn)(void*), void* data, unsigned num_threads);
void GOMP_parallel_end(void);

struct seen {
  void* exit_ptr;
  int exit_flags;
  void* parent_enter;
  void* helper_cfa;
  void* task_parent_exit; /* level 1 exit frame seen from a task inside */
  int task_ran;
};

static struct seen seen_split1, seen_split2, seen_if0, seen_ifvar;

__attribute__((noinline)) static void* helper_cfa(void) {
  void* cfa = __builtin_dwarf_cfa();
  __asm__ volatile("" ::: "memory");
  return cfa;
}

__attribute__((noinline)) static void note(struct seen* s) {
  ompt_frame_t* fr = NULL;
  if (omp_get_thread_num() != 0) return;
  if (rec_get_task_info(0, NULL, NULL, &fr, NULL, NULL) == 2 && fr) {
    s->exit_ptr = fr->exit_frame.ptr;
    s->exit_flags = fr->exit_frame_flags;
  }
  if (rec_get_task_info(1, NULL, NULL, &fr, NULL, NULL) == 2 && fr)
    s->parent_enter = fr->enter_frame.ptr;
  s->helper_cfa = helper_cfa();
#pragma omp task shared(s)
  {
    ompt_frame_t* pf = NULL;
    if (rec_get_task_info(1, NULL, NULL, &pf, NULL, NULL) == 2 && pf)
      s->task_parent_exit = pf->exit_frame.ptr;
    s->task_ran = 1;
  }
#pragma omp taskwait
}

static void split_body1(void* arg) { note((struct seen*)arg); }

__attribute__((noinline)) void run_split(struct seen* s, unsigned n) {
  GOMP_parallel_start(split_body1, s, n);
  split_body1(s);
  GOMP_parallel_end();
}

__attribute__((noinline)) void run_if0(void) {
#pragma omp parallel if (0)
  note(&seen_if0);
}

__attribute__((noinline)) void run_ifvar(int cond) {
#pragma omp parallel if (cond)
  note(&seen_ifvar);
}

static void check(const struct seen* s, const char* what) {
  int before = kite_test_failures;
  CHECK(s->task_ran);
  CHECK(s->exit_ptr != NULL);
  CHECK(s->exit_flags & ompt_frame_cfa);
  CHECK(s->parent_enter != NULL);
  /* Stack grows down: body frames, then the exit frame, then the
   * encountering task's enter frame. */
  CHECK((char*)s->helper_cfa < (char*)s->exit_ptr);
  CHECK((char*)s->exit_ptr <= (char*)s->parent_enter);
  /* The task sees the implicit task's exit frame at its parent level. */
  CHECK(s->task_parent_exit != NULL);
  CHECK(s->task_parent_exit == s->exit_ptr);
  if (kite_test_failures != before)
    fprintf(stderr, "  in %s: exit %p flags %#x parent enter %p helper %p task parent exit %p\n",
            what, s->exit_ptr, s->exit_flags, s->parent_enter, s->helper_cfa,
            s->task_parent_exit);
}

int main(void) {
  KITE_TEST_BEGIN();
  omp_get_max_threads();
  run_split(&seen_split1, 1);
  check(&seen_split1, "GOMP_parallel_start(1)");
  /* The split form with a team: the primary's part is the program's call. */
  run_split(&seen_split2, 2);
  check(&seen_split2, "GOMP_parallel_start(2)");
  CHECK_EQ_LONG(seen_split1.exit_flags, ompt_frame_application | ompt_frame_cfa);
  CHECK(seen_split1.exit_ptr == seen_split1.parent_enter);
  run_if0();
  check(&seen_if0, "parallel if(0)");
  run_ifvar(0);
  check(&seen_ifvar, "parallel if(cond), cond false");
  /* After the regions the initial task has no exit frame left behind. */
  ompt_frame_t* fr = NULL;
  CHECK(rec_get_task_info(0, NULL, NULL, &fr, NULL, NULL) == 2 && fr);
  if (fr) CHECK(fr->enter_frame.ptr == NULL);
  KITE_TEST_END();
}
