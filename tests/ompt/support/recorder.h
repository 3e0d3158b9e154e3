/* A recording OMPT tool compiled into a test program.
 *
 * The program defines ompt_start_tool (this header does) and is linked with
 * -rdynamic (tests/ompt/CMakeLists.txt), so the runtime finds it in the
 * process. Every event the tool registers for is appended to the calling
 * thread's buffer, found through ompt_get_thread_data(); tests then assert
 * exact per-thread sequences.
 *
 * Knobs, as macros defined before including this header:
 *   RECORDER_DECLINE        the initializer returns 0
 *   RECORDER_NO_START       ompt_start_tool returns NULL
 */
#ifndef KITE_TEST_RECORDER_H
#define KITE_TEST_RECORDER_H

#include <omp-tools.h>
#include <stdint.h>
#include <string.h>

#define REC_MAX_THREADS 64
#define REC_MAX_EVENTS 1024

enum rec_kind {
  EV_THREAD_BEGIN = 1,
  EV_THREAD_END,
  EV_PARALLEL_BEGIN,
  EV_PARALLEL_END,
  EV_IMPLICIT_BEGIN,
  EV_IMPLICIT_END,
  EV_INITIAL_BEGIN,
  EV_INITIAL_END,
  EV_SYNC_BEGIN,
  EV_SYNC_END,
  EV_WAIT_BEGIN,
  EV_WAIT_END
};

typedef struct rec_event {
  int ev;
  int kind;            /* thread type, or sync region kind */
  uint64_t parallel_id;
  uint64_t task_id;    /* the task the event is about */
  uint64_t enc_task_id;
  unsigned n;          /* requested/actual parallelism */
  unsigned index;
  int flags;
  const void* ra;
  const ompt_frame_t* frame;
  void* enter_frame;
  int state;           /* ompt_get_state() inside the callback */
  int have_pd;         /* parallel_data argument was non-NULL */
  int pd_preset;       /* initial task begin: its parallel data was not ompt_data_none */
} rec_event;

typedef struct rec_thread {
  int type;
  uint64_t id;
  int count;
  rec_event ev[REC_MAX_EVENTS];
} rec_thread;

static rec_thread rec_threads[REC_MAX_THREADS];
static int rec_nthreads;
static int rec_start_calls, rec_init_calls, rec_fini_calls;
static unsigned rec_omp_version;
static char rec_runtime_version[64];
static int rec_set_result[64];

static ompt_function_lookup_t rec_lookup;
static ompt_set_callback_t rec_set_callback;
static ompt_get_callback_t rec_get_callback;
static ompt_get_thread_data_t rec_get_thread_data;
static ompt_get_state_t rec_get_state;
static ompt_get_parallel_info_t rec_get_parallel_info;
static ompt_get_task_info_t rec_get_task_info;
static ompt_get_unique_id_t rec_get_unique_id;
static ompt_finalize_tool_t rec_finalize_tool;
static ompt_enumerate_states_t rec_enumerate_states;

static rec_thread* rec_self(void) {
  ompt_data_t* d = rec_get_thread_data ? rec_get_thread_data() : NULL;
  return d ? (rec_thread*)d->ptr : NULL;
}

static rec_event* rec_push(int ev) {
  rec_thread* t = rec_self();
  if (!t || t->count >= REC_MAX_EVENTS) return NULL;
  rec_event* e = &t->ev[t->count++];
  memset(e, 0, sizeof *e);
  e->ev = ev;
  e->state = rec_get_state(NULL);
  return e;
}

static void rec_thread_begin(ompt_thread_t type, ompt_data_t* data) {
  int i = __atomic_fetch_add(&rec_nthreads, 1, __ATOMIC_RELAXED);
  if (i >= REC_MAX_THREADS) return;
  rec_thread* t = &rec_threads[i];
  t->type = type;
  t->id = rec_get_unique_id();
  data->ptr = t;
  rec_event* e = rec_push(EV_THREAD_BEGIN);
  if (e) e->kind = type;
}

static void rec_thread_end(ompt_data_t* data) {
  rec_event* e = rec_push(EV_THREAD_END);
  if (e) e->kind = ((rec_thread*)data->ptr)->type;
}

static void rec_parallel_begin(ompt_data_t* enc, const ompt_frame_t* frame, ompt_data_t* pd,
                               unsigned requested, int flags, const void* ra) {
  pd->value = rec_get_unique_id();
  rec_event* e = rec_push(EV_PARALLEL_BEGIN);
  if (!e) return;
  e->parallel_id = pd->value;
  e->enc_task_id = enc->value;
  e->n = requested;
  e->flags = flags;
  e->ra = ra;
  e->frame = frame;
  e->enter_frame = frame->enter_frame.ptr;
}

static void rec_parallel_end(ompt_data_t* pd, ompt_data_t* enc, int flags, const void* ra) {
  rec_event* e = rec_push(EV_PARALLEL_END);
  if (!e) return;
  e->parallel_id = pd->value;
  e->enc_task_id = enc->value;
  e->flags = flags;
  e->ra = ra;
}

static void rec_implicit_task(ompt_scope_endpoint_t ep, ompt_data_t* pd, ompt_data_t* td,
                              unsigned n, unsigned index, int flags) {
  int initial = (flags & ompt_task_initial) != 0;
  int preset = 0;
  if (ep == ompt_scope_begin) {
    td->value = rec_get_unique_id();
    /* An initial task's own implicit region gets an id here (its data is
     * fresh, as LLVM's OMPT test tool requires; pd_preset says if not). */
    if (initial && pd) {
      preset = pd->value != 0;
      if (!preset) pd->value = rec_get_unique_id();
    }
  }
  rec_event* e = rec_push(ep == ompt_scope_begin ? (initial ? EV_INITIAL_BEGIN : EV_IMPLICIT_BEGIN)
                                                 : (initial ? EV_INITIAL_END : EV_IMPLICIT_END));
  if (!e) return;
  e->pd_preset = preset;
  e->have_pd = pd != NULL;
  e->parallel_id = pd ? pd->value : 0;
  e->task_id = td->value;
  e->n = n;
  e->index = index;
  e->flags = flags;
}

static void rec_sync(int ev, ompt_sync_region_t kind, ompt_data_t* pd, ompt_data_t* td,
                     const void* ra) {
  rec_event* e = rec_push(ev);
  if (!e) return;
  e->kind = kind;
  e->have_pd = pd != NULL;
  e->parallel_id = pd ? pd->value : 0;
  e->task_id = td ? td->value : 0;
  e->ra = ra;
}

static void rec_sync_region(ompt_sync_region_t kind, ompt_scope_endpoint_t ep, ompt_data_t* pd,
                            ompt_data_t* td, const void* ra) {
  rec_sync(ep == ompt_scope_begin ? EV_SYNC_BEGIN : EV_SYNC_END, kind, pd, td, ra);
  /* The enter frame of the task that entered the barrier. */
  if (ep == ompt_scope_begin) {
    ompt_frame_t* f = NULL;
    if (rec_get_task_info(0, NULL, NULL, &f, NULL, NULL) == 2 && f) {
      rec_thread* t = rec_self();
      if (t && t->count) t->ev[t->count - 1].enter_frame = f->enter_frame.ptr;
    }
  }
}

static void rec_sync_wait(ompt_sync_region_t kind, ompt_scope_endpoint_t ep, ompt_data_t* pd,
                          ompt_data_t* td, const void* ra) {
  rec_sync(ep == ompt_scope_begin ? EV_WAIT_BEGIN : EV_WAIT_END, kind, pd, td, ra);
}

#define REC_REGISTER(event, fn) \
  rec_set_result[event] = rec_set_callback(event, (ompt_callback_t)(fn))

static int rec_initialize(ompt_function_lookup_t lookup, int device, ompt_data_t* tool_data) {
  rec_init_calls++;
  rec_lookup = lookup;
  rec_set_callback = (ompt_set_callback_t)lookup("ompt_set_callback");
  rec_get_callback = (ompt_get_callback_t)lookup("ompt_get_callback");
  rec_get_thread_data = (ompt_get_thread_data_t)lookup("ompt_get_thread_data");
  rec_get_state = (ompt_get_state_t)lookup("ompt_get_state");
  rec_get_parallel_info = (ompt_get_parallel_info_t)lookup("ompt_get_parallel_info");
  rec_get_task_info = (ompt_get_task_info_t)lookup("ompt_get_task_info");
  rec_get_unique_id = (ompt_get_unique_id_t)lookup("ompt_get_unique_id");
  rec_finalize_tool = (ompt_finalize_tool_t)lookup("ompt_finalize_tool");
  rec_enumerate_states = (ompt_enumerate_states_t)lookup("ompt_enumerate_states");
  REC_REGISTER(ompt_callback_thread_begin, rec_thread_begin);
  REC_REGISTER(ompt_callback_thread_end, rec_thread_end);
  REC_REGISTER(ompt_callback_parallel_begin, rec_parallel_begin);
  REC_REGISTER(ompt_callback_parallel_end, rec_parallel_end);
  REC_REGISTER(ompt_callback_implicit_task, rec_implicit_task);
#ifndef RECORDER_NO_SYNC /* a tool told of no barrier (as kite profile) */
  REC_REGISTER(ompt_callback_sync_region, rec_sync_region);
  REC_REGISTER(ompt_callback_sync_region_wait, rec_sync_wait);
#endif
  tool_data->value = 0x6b697465;
#ifdef RECORDER_DECLINE
  return 0;
#else
  return 1;
#endif
}

static void rec_finalize(ompt_data_t* tool_data) {
  if (tool_data->value == 0x6b697465) rec_fini_calls++;
}

static ompt_start_tool_result_t rec_result = {rec_initialize, rec_finalize, {0}};

ompt_start_tool_result_t* ompt_start_tool(unsigned int omp_version, const char* runtime_version) {
  rec_start_calls++;
  rec_omp_version = omp_version;
  strncpy(rec_runtime_version, runtime_version, sizeof rec_runtime_version - 1);
#ifdef RECORDER_NO_START
  return NULL;
#else
  return &rec_result;
#endif
}

/* --- helpers for assertions ------------------------------------------------ */

/* The buffer of the calling thread (valid after its thread_begin). */
static rec_thread* rec_me(void) { return rec_self(); }

/* The first thread buffer of a given type. */
static rec_thread* rec_find_type(int type) {
  for (int i = 0; i < rec_nthreads && i < REC_MAX_THREADS; ++i)
    if (rec_threads[i].type == type) return &rec_threads[i];
  return NULL;
}

/* Index of the first event `ev` at or after `from` in thread t, or -1. */
static int rec_next(const rec_thread* t, int from, int ev) {
  for (int i = from; i < t->count; ++i)
    if (t->ev[i].ev == ev) return i;
  return -1;
}

#endif
