/* Recording of task and worksharing events, on top of recorder.h: include
 * this instead of recorder.h. Events land in the same per-thread buffers,
 * with kinds from EV_TASK_CREATE on.
 *
 *   task_create     task_id = new task, enc_task_id = encountering task,
 *                   flags, n = has_dependences, ra, enter_frame = the
 *                   encountering task's enter frame
 *   task_schedule   task_id = prior, enc_task_id = next (0: none),
 *                   kind = prior_task_status
 *   dependences     task_id, n = count; the items go to trec_deps
 *   task_dependence task_id = source, enc_task_id = sink
 *   work            kind = work type, index = endpoint, n = count
 *   dispatch        kind = dispatch kind, task_id, parallel_id; the chunk's
 *                   start in enc_task_id and iterations in n (sections: the
 *                   section's instance in enc_task_id)
 *   cancel          task_id, flags, ra
 */
#ifndef KITE_TEST_TASK_RECORDER_H
#define KITE_TEST_TASK_RECORDER_H

/* recorder.h's ompt_start_tool, renamed: the one below hands out an
 * initializer that runs recorder.h's, then registers these events. */
#define ompt_start_tool trec_recorder_start_tool
#include "recorder.h"
#undef ompt_start_tool

enum trec_kind {
  EV_TASK_CREATE = 100,
  EV_TASK_SCHEDULE,
  EV_DEPENDENCES,
  EV_TASK_DEPENDENCE,
  EV_WORK_BEGIN,
  EV_WORK_END,
  EV_DISPATCH,
  EV_CANCEL
};

#define TREC_MAX_DEPS 64
static ompt_dependence_t trec_deps[TREC_MAX_DEPS];
static int trec_ndeps;

static void trec_task_create(ompt_data_t* enc, const ompt_frame_t* frame, ompt_data_t* nt,
                             int flags, int has_deps, const void* ra) {
  nt->value = rec_get_unique_id();
  rec_event* e = rec_push(EV_TASK_CREATE);
  if (!e) return;
  e->task_id = nt->value;
  e->enc_task_id = enc ? enc->value : 0;
  e->flags = flags;
  e->n = (unsigned)has_deps;
  e->ra = ra;
  e->frame = frame;
  e->enter_frame = frame ? frame->enter_frame.ptr : NULL;
}

static void trec_task_schedule(ompt_data_t* prior, ompt_task_status_t status, ompt_data_t* next) {
  rec_event* e = rec_push(EV_TASK_SCHEDULE);
  if (!e) return;
  e->task_id = prior ? prior->value : 0;
  e->enc_task_id = next ? next->value : 0;
  e->kind = status;
}

static void trec_dependences(ompt_data_t* td, const ompt_dependence_t* deps, int n) {
  rec_event* e = rec_push(EV_DEPENDENCES);
  if (!e) return;
  e->task_id = td->value;
  e->n = (unsigned)n;
  for (int i = 0; i < n && trec_ndeps < TREC_MAX_DEPS; ++i) trec_deps[trec_ndeps++] = deps[i];
}

static void trec_task_dependence(ompt_data_t* src, ompt_data_t* sink) {
  rec_event* e = rec_push(EV_TASK_DEPENDENCE);
  if (!e) return;
  e->task_id = src->value;
  e->enc_task_id = sink->value;
}

static void trec_work(ompt_work_t wt, ompt_scope_endpoint_t ep, ompt_data_t* pd, ompt_data_t* td,
                      uint64_t count, const void* ra) {
  rec_event* e = rec_push(ep == ompt_scope_begin ? EV_WORK_BEGIN : EV_WORK_END);
  if (!e) return;
  e->kind = wt;
  e->parallel_id = pd ? pd->value : 0;
  e->task_id = td ? td->value : 0;
  e->n = (unsigned)count;
  e->ra = ra;
}

static void trec_dispatch(ompt_data_t* pd, ompt_data_t* td, ompt_dispatch_t kind,
                          ompt_data_t instance) {
  rec_event* e = rec_push(EV_DISPATCH);
  if (!e) return;
  e->kind = kind;
  e->parallel_id = pd ? pd->value : 0;
  e->task_id = td ? td->value : 0;
  if (kind == ompt_dispatch_ws_loop_chunk || kind == ompt_dispatch_taskloop_chunk ||
      kind == ompt_dispatch_distribute_chunk) {
    const ompt_dispatch_chunk_t* c = (const ompt_dispatch_chunk_t*)instance.ptr;
    e->enc_task_id = c->start;
    e->n = (unsigned)c->iterations;
  } else {
    e->enc_task_id = instance.value;
  }
}

static void trec_cancel(ompt_data_t* td, int flags, const void* ra) {
  rec_event* e = rec_push(EV_CANCEL);
  if (!e) return;
  e->task_id = td ? td->value : 0;
  e->flags = flags;
  e->ra = ra;
}

static void trec_register(void) {
  REC_REGISTER(ompt_callback_task_create, trec_task_create);
  REC_REGISTER(ompt_callback_task_schedule, trec_task_schedule);
  REC_REGISTER(ompt_callback_dependences, trec_dependences);
  REC_REGISTER(ompt_callback_task_dependence, trec_task_dependence);
  REC_REGISTER(ompt_callback_work, trec_work);
  REC_REGISTER(ompt_callback_dispatch, trec_dispatch);
  REC_REGISTER(ompt_callback_cancel, trec_cancel);
}

static int trec_initialize(ompt_function_lookup_t lookup, int device, ompt_data_t* tool_data) {
  int r = rec_initialize(lookup, device, tool_data);
  trec_register();
  return r;
}

static ompt_start_tool_result_t trec_result = {trec_initialize, rec_finalize, {0}};

ompt_start_tool_result_t* ompt_start_tool(unsigned int omp_version, const char* runtime_version) {
  return trec_recorder_start_tool(omp_version, runtime_version) ? &trec_result : NULL;
}

/* Number of events `ev` in thread t. */
static int trec_count(const rec_thread* t, int ev) {
  int n = 0;
  for (int i = 0; i < t->count; ++i) n += t->ev[i].ev == ev;
  return n;
}

#endif
