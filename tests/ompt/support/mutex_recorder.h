/* The recording tool of recorder.h, plus the mutex, lock, error and
 * control_tool callbacks. Include this instead of recorder.h.
 *
 * Each mutex event is one rec_event in the calling thread's buffer:
 *   ev         MX_* below
 *   kind       the ompt_mutex_t (error: the severity)
 *   n, index   hint and impl (mutex_acquire, lock_init)
 *   task_id    the wait id argument (nest_lock: also flags begin/end by ev)
 *   ra         codeptr_ra
 *   state      ompt_get_state() inside the callback, and
 *   parallel_id the wait id ompt_get_state() reported with it. */
#ifndef KITE_TEST_MUTEX_RECORDER_H
#define KITE_TEST_MUTEX_RECORDER_H

#include <omp-tools.h>

/* recorder.h's ompt_start_tool is renamed, and wrapped below by one whose
 * initializer runs recorder.h's, then registers the events of this file. */
#define ompt_start_tool mx_recorder_start_tool
#include "recorder.h"
#undef ompt_start_tool

enum mx_kind {
  MX_ACQUIRE = 100,
  MX_ACQUIRED,
  MX_RELEASED,
  MX_NEST_BEGIN,
  MX_NEST_END,
  MX_LOCK_INIT,
  MX_LOCK_DESTROY,
  MX_ERROR,
  MX_CONTROL
};

static char mx_error_message[128];
static size_t mx_error_length;
static uint64_t mx_control_command, mx_control_modifier;
static void* mx_control_arg;

static rec_event* mx_push(int ev, int kind, ompt_wait_id_t wait_id, const void* ra) {
  rec_event* e = rec_push(ev);
  if (!e) return NULL;
  ompt_wait_id_t seen = 0;
  e->state = rec_get_state(&seen);
  e->parallel_id = seen;
  e->kind = kind;
  e->task_id = wait_id;
  e->ra = ra;
  return e;
}

static void mx_acquire(ompt_mutex_t kind, unsigned hint, unsigned impl, ompt_wait_id_t w,
                       const void* ra) {
  rec_event* e = mx_push(MX_ACQUIRE, kind, w, ra);
  if (e) {
    e->n = hint;
    e->index = impl;
  }
}
static void mx_acquired(ompt_mutex_t kind, ompt_wait_id_t w, const void* ra) {
  mx_push(MX_ACQUIRED, kind, w, ra);
}
static void mx_released(ompt_mutex_t kind, ompt_wait_id_t w, const void* ra) {
  mx_push(MX_RELEASED, kind, w, ra);
}
static void mx_nest(ompt_scope_endpoint_t ep, ompt_wait_id_t w, const void* ra) {
  mx_push(ep == ompt_scope_begin ? MX_NEST_BEGIN : MX_NEST_END, 0, w, ra);
}
static void mx_lock_init(ompt_mutex_t kind, unsigned hint, unsigned impl, ompt_wait_id_t w,
                         const void* ra) {
  rec_event* e = mx_push(MX_LOCK_INIT, kind, w, ra);
  if (e) {
    e->n = hint;
    e->index = impl;
  }
}
static void mx_lock_destroy(ompt_mutex_t kind, ompt_wait_id_t w, const void* ra) {
  mx_push(MX_LOCK_DESTROY, kind, w, ra);
}
static void mx_error(ompt_severity_t severity, const char* message, size_t length,
                     const void* ra) {
  mx_push(MX_ERROR, severity, 0, ra);
  mx_error_length = length;
  if (length < sizeof mx_error_message) {
    memcpy(mx_error_message, message, length);
    mx_error_message[length] = 0;
  }
}
static int mx_control(uint64_t command, uint64_t modifier, void* arg, const void* ra) {
  mx_push(MX_CONTROL, 0, 0, ra);
  mx_control_command = command;
  mx_control_modifier = modifier;
  mx_control_arg = arg;
  return 42;
}

static int mx_initialize(ompt_function_lookup_t lookup, int device, ompt_data_t* tool_data) {
  int ok = rec_initialize(lookup, device, tool_data);
  REC_REGISTER(ompt_callback_mutex_acquire, mx_acquire);
  REC_REGISTER(ompt_callback_mutex_acquired, mx_acquired);
  REC_REGISTER(ompt_callback_mutex_released, mx_released);
  REC_REGISTER(ompt_callback_nest_lock, mx_nest);
  REC_REGISTER(ompt_callback_lock_init, mx_lock_init);
  REC_REGISTER(ompt_callback_lock_destroy, mx_lock_destroy);
  REC_REGISTER(ompt_callback_error, mx_error);
#ifndef MX_NO_CONTROL_CALLBACK
  REC_REGISTER(ompt_callback_control_tool, mx_control);
#endif
  return ok;
}

static ompt_start_tool_result_t mx_result = {mx_initialize, rec_finalize, {0}};

ompt_start_tool_result_t* ompt_start_tool(unsigned int omp_version, const char* runtime_version) {
  return mx_recorder_start_tool(omp_version, runtime_version) ? &mx_result : NULL;
}

/* The mutex events of thread t (ev >= MX_ACQUIRE) recorded at or after
 * index `from`, in order, into out[]; returns how many. */
static int mx_events(const rec_thread* t, int from, rec_event* out, int max) {
  int n = 0;
  for (int i = from; i < t->count && n < max; ++i)
    if (t->ev[i].ev >= MX_ACQUIRE) out[n++] = t->ev[i];
  return n;
}

/* ra is the return address of the one call instruction (call rel32) in the
 * exported function fn: fn's only runtime call lands exactly there. */
static int mx_returns_into(const void* ra, void* fn) {
  Dl_info info;
  if (!ra || !dladdr(ra, &info) || info.dli_saddr != fn) return 0;
  return ((const unsigned char*)ra)[-5] == 0xE8;
}

/* One mutex event as expected: what, which kind, on which wait id, from
 * which call site (NULL: not checked). */
#define MX_EXPECT(e, what, mkind, wid, site)                         \
  do {                                                               \
    CHECK((e)->ev == (what));                                        \
    CHECK((e)->kind == (int)(mkind));                                \
    CHECK((e)->task_id == (uint64_t)(uintptr_t)(wid));               \
    if (site) CHECK(mx_returns_into((e)->ra, (void*)(site)));        \
  } while (0)

#endif
