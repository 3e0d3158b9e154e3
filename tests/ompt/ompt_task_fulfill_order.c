/* A detached task's body end and its event's fulfillment race on two
 * threads: the tool must see exactly one of the two consistent stories,
 * in order, whatever thread wins:
 *   fulfilled first: early_fulfill, then the body's end as complete;
 *   body first:      the body's end as detach, then late_fulfill.
 * (Before the fix both sides could report "the other is pending": detach
 * and early_fulfill, with no late_fulfill ever, or late_fulfill before
 * detach.) And a plain pthread that fulfills an event gets thread_begin
 * before its task_schedule: no event from a thread the tool never met.
 * kite-test-threads: 2 4
 * kite-test-libs: pthread */
#include "kite_test.h"

#include <omp-tools.h>
#include <pthread.h>

#define NTASKS 400
#define MAXID (4 * NTASKS + 64)

static ompt_get_unique_id_t get_id;
static unsigned long seq;                 /* global event order */
static unsigned long body_end_seq[MAXID], fulfill_seq[MAXID];
static int body_end_status[MAXID], fulfill_status[MAXID], nfulfill[MAXID];
static int fulfill_from_unknown_thread;
static __thread int thread_begun;

static void on_thread_begin(ompt_thread_t type, ompt_data_t* d) {
  (void)type;
  (void)d;
  thread_begun = 1;
}

static void on_task_create(ompt_data_t* enc, const ompt_frame_t* f, ompt_data_t* nt, int flags,
                           int deps, const void* ra) {
  (void)enc, (void)f, (void)flags, (void)deps, (void)ra;
  nt->value = get_id();
}

static void on_task_schedule(ompt_data_t* prior, ompt_task_status_t st, ompt_data_t* next) {
  (void)next;
  unsigned long s = __atomic_add_fetch(&seq, 1, __ATOMIC_SEQ_CST);
  uint64_t id = prior ? prior->value : 0;
  if (id >= MAXID) return;
  if (st == ompt_task_early_fulfill || st == ompt_task_late_fulfill) {
    if (!thread_begun) __atomic_add_fetch(&fulfill_from_unknown_thread, 1, __ATOMIC_RELAXED);
    fulfill_seq[id] = s;
    fulfill_status[id] = st;
    __atomic_add_fetch(&nfulfill[id], 1, __ATOMIC_RELAXED);
  } else if (st == ompt_task_complete || st == ompt_task_detach) {
    body_end_seq[id] = s;
    body_end_status[id] = st;
  }
}

static void small_tool_register(ompt_function_lookup_t lookup, ompt_set_callback_t set) {
  get_id = (ompt_get_unique_id_t)lookup("ompt_get_unique_id");
  set(ompt_callback_thread_begin, (ompt_callback_t)on_thread_begin);
  set(ompt_callback_task_create, (ompt_callback_t)on_task_create);
  set(ompt_callback_task_schedule, (ompt_callback_t)on_task_schedule);
}
#include "support/small_tool.h"

static omp_event_handle_t pthread_event;
static void* fulfiller(void* arg) {
  (void)arg;
  omp_fulfill_event(pthread_event);
  return NULL;
}

int main(void) {
  KITE_TEST_BEGIN();
  static omp_event_handle_t ev[NTASKS];
  static volatile int sink;
#pragma omp parallel
#pragma omp single
  for (int i = 0; i < NTASKS; ++i) {
    omp_event_handle_t e;
#pragma omp task detach(e)
    {
      for (int k = 0; k < (i % 8) * 50; ++k) sink = k; /* bodies of varied length */
    }
    ev[i] = e;
#pragma omp task firstprivate(i)
    omp_fulfill_event(ev[i]);
  }

  pthread_t th;
#pragma omp parallel
#pragma omp single
  {
    omp_event_handle_t e;
#pragma omp task detach(e)
    sink = 1;
    pthread_event = e;
    CHECK(pthread_create(&th, NULL, fulfiller, NULL) == 0);
#pragma omp taskwait
  }
  pthread_join(th, NULL);

  int fulfilled = 0, early = 0, late = 0;
  for (int id = 0; id < MAXID; ++id) {
    if (!nfulfill[id]) continue;
    ++fulfilled;
    CHECK_EQ_LONG(nfulfill[id], 1);
    CHECK(body_end_seq[id] != 0);
    if (fulfill_status[id] == ompt_task_early_fulfill) {
      ++early;
      CHECK_EQ_LONG(body_end_status[id], ompt_task_complete);
      CHECK(fulfill_seq[id] < body_end_seq[id]);
    } else {
      ++late;
      CHECK_EQ_LONG(body_end_status[id], ompt_task_detach);
      CHECK(body_end_seq[id] < fulfill_seq[id]);
    }
  }
  CHECK_EQ_LONG(fulfilled, NTASKS + 1);
  CHECK_EQ_LONG(fulfill_from_unknown_thread, 0);
  printf("fulfilled %d tasks: %d early, %d late\n", fulfilled, early, late);
  KITE_TEST_END();
}
