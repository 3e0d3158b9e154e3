/* Parallel regions of 1, 2 and 4 threads under a recording tool: the exact
 * event sequence on every thread, codeptr_ra of the GOMP_parallel call,
 * ids, frames, states and the inquiries from inside the region. */
#include "kite_test.h"
#include "support/recorder.h"

#define MAXT 8

struct seen {
  int tid;
  void* cfa;           /* canonical frame address of the outlined body */
  int info_rc, flags, thread_num, state, team_size;
  uint64_t task_id, parallel_id, parent_task_id;
  int parent_flags;
  ompt_frame_t frame;
  void* parent_enter;
};
static struct seen seen[MAXT];
void* region_cfa;

/* Exported (-rdynamic) so dladdr can name it; the region's GOMP_parallel
 * call is the only call it makes. */
__attribute__((noinline)) void run_region(int n) {
  region_cfa = __builtin_dwarf_cfa();
#pragma omp parallel num_threads(n)
  {
    int me = omp_get_thread_num();
    struct seen* s = &seen[me];
    s->tid = me;
    s->cfa = __builtin_dwarf_cfa();
    ompt_data_t *td = NULL, *pd = NULL;
    ompt_frame_t* f = NULL;
    s->info_rc = rec_get_task_info(0, &s->flags, &td, &f, &pd, &s->thread_num);
    if (td) s->task_id = td->value;
    if (f) s->frame = *f;
    if (pd) s->parallel_id = pd->value;
    ompt_frame_t* pf = NULL;
    if (rec_get_task_info(1, &s->parent_flags, &td, &pf, NULL, NULL) == 2) {
      s->parent_task_id = td->value;
      s->parent_enter = pf->enter_frame.ptr;
    }
    ompt_data_t* ppd = NULL;
    rec_get_parallel_info(0, &ppd, &s->team_size);
    s->state = rec_get_state(NULL);
  }
  __asm__ volatile("" ::: "memory"); /* no tail call (clang 19+) */
}

/* Is `ra` the return address of a direct call made from run_region? */
static int returns_into_run_region(const void* ra) {
  Dl_info info;
  if (!dladdr(ra, &info) || info.dli_saddr != (void*)run_region) return 0;
  return ((const unsigned char*)ra)[-5] == 0xE8; /* call rel32 */
}

static void check_region(int n, rec_thread* primary, int from, uint64_t initial_task_id) {
  /* The primary: parallel_begin ... parallel_end, nothing else. */
  CHECK_EQ_LONG(primary->count - from, 8);
  rec_event* e = &primary->ev[from];
  CHECK_EQ_LONG(e[0].ev, EV_PARALLEL_BEGIN);
  uint64_t pid = e[0].parallel_id;
  CHECK(pid != 0);
  CHECK_EQ_LONG(e[0].n, n);
  CHECK_EQ_LONG(e[0].flags, (int)(ompt_parallel_invoker_runtime | ompt_parallel_team));
  CHECK(returns_into_run_region(e[0].ra));
  CHECK_EQ_LONG(e[0].enc_task_id, initial_task_id);
  CHECK_EQ_LONG(e[0].state, ompt_state_overhead);
  /* GOMP_parallel's CFA: the caller's stack pointer at the call, just
   * below run_region's own CFA. */
  CHECK(e[0].enter_frame != NULL);
  CHECK((char*)e[0].enter_frame < (char*)region_cfa &&
        (char*)e[0].enter_frame > (char*)region_cfa - 512);
  CHECK_EQ_LONG(e[1].ev, EV_IMPLICIT_BEGIN);
  CHECK_EQ_LONG(e[1].parallel_id, pid);
  CHECK_EQ_LONG(e[1].n, n);
  CHECK_EQ_LONG(e[1].index, 0);
  CHECK_EQ_LONG(e[1].flags, ompt_task_implicit);
  CHECK_EQ_LONG(e[1].state, ompt_state_work_parallel);

  /* Every thread: implicit task, the region's barrier, end of the task. */
  int found = 0, index_seen[MAXT] = {0};
  for (int k = 0; k < rec_nthreads; ++k) {
    rec_thread* t = &rec_threads[k];
    for (int i = 0; i < t->count; ++i) {
      rec_event* b = &t->ev[i];
      if (b->ev != EV_IMPLICIT_BEGIN || b->parallel_id != pid) continue;
      ++found;
      CHECK(b->index < (unsigned)n);
      if (b->index < MAXT) index_seen[b->index]++;
      CHECK_EQ_LONG(b->n, n);
      CHECK(t == primary ? b->index == 0 : b->index != 0);
      CHECK(t == primary || t->type == ompt_thread_worker);
      CHECK(i + 5 < t->count);
      if (i + 5 >= t->count) break;
      static const int order[] = {EV_SYNC_BEGIN, EV_WAIT_BEGIN, EV_WAIT_END, EV_SYNC_END,
                                  EV_IMPLICIT_END};
      for (int j = 0; j < 5; ++j) {
        rec_event* x = &t->ev[i + 1 + j];
        CHECK_EQ_LONG(x->ev, order[j]);
        CHECK_EQ_LONG(x->task_id, b->task_id);
        if (j < 4) {
          CHECK_EQ_LONG(x->kind, ompt_sync_region_barrier_implicit_parallel);
          CHECK(x->ra == e[0].ra);
        }
        /* The barrier's begins name the region; its ends have no parallel
         * data (5.2 ompt_callback_sync_region_t: NULL for the barrier-end
         * event at the end of a parallel region; 6.0 §34.7.4). */
        if (j < 2) CHECK_EQ_LONG(x->parallel_id, pid);
        if (j == 2 || j == 3) CHECK(!x->have_pd);
      }
      CHECK_EQ_LONG(t->ev[i + 1].state, ompt_state_work_parallel);
      CHECK_EQ_LONG(t->ev[i + 2].state, ompt_state_wait_barrier_implicit_parallel);
      rec_event* end = &t->ev[i + 5];
      CHECK(!end->have_pd);
      CHECK_EQ_LONG(end->n, 0);
      CHECK_EQ_LONG(end->index, b->index);
      /* What the thread saw from inside its implicit task. */
      struct seen* s = &seen[b->index];
      CHECK_EQ_LONG(s->info_rc, 2);
      CHECK_EQ_LONG(s->flags, ompt_task_implicit);
      CHECK_EQ_LONG(s->thread_num, b->index);
      CHECK_EQ_LONG(s->task_id, b->task_id);
      CHECK_EQ_LONG(s->parallel_id, pid);
      CHECK_EQ_LONG(s->team_size, n);
      CHECK_EQ_LONG(s->state, ompt_state_work_parallel);
      CHECK(s->frame.exit_frame.ptr == s->cfa);
      CHECK_EQ_LONG(s->frame.exit_frame_flags, ompt_frame_runtime | ompt_frame_cfa);
      CHECK(s->frame.enter_frame.ptr == NULL);
      CHECK_EQ_LONG(s->parent_flags, ompt_task_initial);
      CHECK_EQ_LONG(s->parent_task_id, initial_task_id);
      CHECK(s->parent_enter == e[0].enter_frame);
    }
  }
  CHECK_EQ_LONG(found, n);
  for (int i = 0; i < n && i < MAXT; ++i) CHECK_EQ_LONG(index_seen[i], 1);

  CHECK_EQ_LONG(e[7].ev, EV_PARALLEL_END);
  CHECK_EQ_LONG(e[7].parallel_id, pid);
  CHECK_EQ_LONG(e[7].enc_task_id, initial_task_id);
  CHECK_EQ_LONG(e[7].flags, (int)(ompt_parallel_invoker_runtime | ompt_parallel_team));
  CHECK(e[7].ra == e[0].ra);
}

/* The split form gcc once emitted: the program runs the primary's part. */
void GOMP_parallel_start(void (*fn)(void*), void* data, unsigned num_threads);
void GOMP_parallel_end(void);
static int split_flags[2];
static void split_body(void* arg) {
  int flags = 0;
  ompt_frame_t* f = NULL;
  rec_get_task_info(0, &flags, NULL, &f, NULL, NULL);
  split_flags[omp_get_thread_num() & 1] = flags;
}
__attribute__((noinline)) void run_split(void) {
  GOMP_parallel_start(split_body, NULL, 2);
  split_body(NULL);
  GOMP_parallel_end();
}

static void check_split(rec_thread* primary) {
  int from = primary->count;
  run_split();
  CHECK_EQ_LONG(primary->count - from, 8);
  rec_event* e = &primary->ev[from];
  CHECK_EQ_LONG(e[0].ev, EV_PARALLEL_BEGIN);
  CHECK_EQ_LONG(e[0].n, 2);
  CHECK_EQ_LONG(e[0].flags, (int)(ompt_parallel_invoker_program | ompt_parallel_team));
  Dl_info info;
  CHECK(dladdr(e[0].ra, &info) && info.dli_saddr == (void*)run_split);
  CHECK_EQ_LONG(e[1].ev, EV_IMPLICIT_BEGIN);
  CHECK_EQ_LONG(e[7].ev, EV_PARALLEL_END);
  CHECK_EQ_LONG(e[7].flags, (int)(ompt_parallel_invoker_program | ompt_parallel_team));
  CHECK(e[7].ra == e[0].ra);
  CHECK_EQ_LONG(split_flags[0], ompt_task_implicit);
  CHECK_EQ_LONG(split_flags[1], ompt_task_implicit);
}

int main(void) {
  KITE_TEST_BEGIN();
  omp_get_max_threads(); /* activation */
  rec_thread* primary = rec_me();
  CHECK(primary && primary->type == ompt_thread_initial);
  if (!primary) KITE_TEST_END();
  uint64_t initial_task_id = primary->ev[1].task_id;
  static const int sizes[] = {1, 2, 4, 2, 1, 4};
  uint64_t last_pid = 0;
  for (unsigned k = 0; k < sizeof sizes / sizeof sizes[0]; ++k) {
    int n = sizes[k];
    memset(seen, 0, sizeof seen);
    int from = primary->count;
    run_region(n);
    check_region(n, primary, from, initial_task_id);
    CHECK(primary->ev[from].parallel_id != last_pid);
    last_pid = primary->ev[from].parallel_id;
    /* Back in the initial task, no frame left behind. */
    CHECK_EQ_LONG(rec_get_state(NULL), ompt_state_work_serial);
    ompt_frame_t* f = NULL;
    rec_get_task_info(0, NULL, NULL, &f, NULL, NULL);
    CHECK(f && f->enter_frame.ptr == NULL);
  }
  /* Each worker began once, as a worker. */
  int workers = 0;
  for (int k = 0; k < rec_nthreads; ++k) {
    rec_thread* t = &rec_threads[k];
    if (t == primary) continue;
    ++workers;
    CHECK_EQ_LONG(t->type, ompt_thread_worker);
    CHECK_EQ_LONG(t->ev[0].ev, EV_THREAD_BEGIN);
    CHECK_EQ_LONG(t->ev[0].kind, ompt_thread_worker);
    CHECK(rec_next(t, 1, EV_THREAD_BEGIN) < 0);
  }
  CHECK(workers >= 3);
  check_split(primary);
  KITE_TEST_END();
}
