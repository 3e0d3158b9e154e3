/* Recording of device-construct events, on top of recorder.h: include
 * this instead of it. task_create and task_schedule are recorded too, for
 * the target tasks of nowait constructs. Events land in the same per-thread buffers (kinds
 * from EV_TARGET_BEGIN on); their details are in a tgt_detail that the
 * event's enter_frame field points at (tgt_of()).
 *
 * The tool gives every target_data and host_op_id it is handed a fresh
 * unique id at the begin, so a test can tie begin and end together. Inside
 * each callback it also asks ompt_get_target_info and keeps the answer.
 *
 * Knobs, as macros defined before including this header:
 *   TGT_NOEMI   register the non-EMI forms only
 *   TGT_BOTH    register both forms (the runtime must call only EMI ones)
 */
#ifndef KITE_TEST_TARGET_RECORDER_H
#define KITE_TEST_TARGET_RECORDER_H

#define ompt_start_tool tgt_recorder_start_tool
#include "recorder.h"
#undef ompt_start_tool

enum tgt_kind {
  EV_TARGET_BEGIN = 200,
  EV_TARGET_END,
  EV_SUBMIT_BEGIN,
  EV_SUBMIT_END,
  EV_DATA_OP_BEGIN,
  EV_DATA_OP_END,
  /* non-EMI forms */
  EV_TARGET_NOEMI,
  EV_SUBMIT_NOEMI,
  EV_DATA_OP_NOEMI,
  /* task_id = new task, enc_task_id = encountering task, flags, ra */
  EV_TGT_TASK_CREATE,
  /* task_id = prior, enc_task_id = next (0: none), kind = status */
  EV_TGT_TASK_SCHEDULE
};

static void tgt_task_create(ompt_data_t* enc, const ompt_frame_t* frame, ompt_data_t* nt,
                            int flags, int has_deps, const void* ra) {
  (void)frame;
  (void)has_deps;
  nt->value = rec_get_unique_id();
  rec_event* e = rec_push(EV_TGT_TASK_CREATE);
  if (!e) return;
  e->task_id = nt->value;
  e->enc_task_id = enc ? enc->value : 0;
  e->flags = flags;
  e->ra = ra;
}

static void tgt_task_schedule(ompt_data_t* prior, ompt_task_status_t status, ompt_data_t* next) {
  rec_event* e = rec_push(EV_TGT_TASK_SCHEDULE);
  if (!e) return;
  e->task_id = prior ? prior->value : 0;
  e->enc_task_id = next ? next->value : 0;
  e->kind = status;
}

typedef struct tgt_detail {
  int kind;     /* ompt_target_t, or ompt_target_data_op_t for data ops */
  int endpoint;
  int device;
  uint64_t task_id;         /* task_data->value */
  uint64_t target_task_id;  /* target_task_data->value, 0 for NULL */
  int have_target_task;
  ompt_data_t* target_data; /* the pointer handed over (EMI) */
  uint64_t target_value;    /* its value after the callback, or target_id */
  uint64_t host_op_id;
  unsigned teams;
  void* src;
  int src_dev;
  void* dst;
  int dst_dev;
  size_t bytes;
  const void* ra;
  /* ompt_get_target_info inside the callback (after the tool's writes) */
  int info_ret;
  uint64_t info_dev;
  ompt_id_t info_target, info_op;
} tgt_detail;

#define TGT_MAX 4096
static tgt_detail tgt_pool[TGT_MAX];
static int tgt_used;
static ompt_get_target_info_t tgt_get_target_info;
static ompt_get_num_devices_t tgt_get_num_devices;

static tgt_detail* tgt_push(int ev) {
  rec_event* e = rec_push(ev);
  if (!e) return NULL;
  int i = __atomic_fetch_add(&tgt_used, 1, __ATOMIC_RELAXED);
  if (i >= TGT_MAX) return NULL;
  tgt_detail* d = &tgt_pool[i];
  memset(d, 0, sizeof *d);
  e->enter_frame = d;
  return d;
}

static void tgt_info(tgt_detail* d) {
  d->info_ret = tgt_get_target_info(&d->info_dev, &d->info_target, &d->info_op);
}

static const tgt_detail* tgt_of(const rec_event* e) { return (const tgt_detail*)e->enter_frame; }

static void tgt_target_emi(ompt_target_t kind, ompt_scope_endpoint_t ep, int device,
                           ompt_data_t* task_data, ompt_data_t* target_task_data,
                           ompt_data_t* target_data, const void* ra) {
  if (ep == ompt_scope_begin) target_data->value = rec_get_unique_id();
  tgt_detail* d = tgt_push(ep == ompt_scope_begin ? EV_TARGET_BEGIN : EV_TARGET_END);
  if (!d) return;
  d->kind = kind;
  d->endpoint = ep;
  d->device = device;
  d->task_id = task_data ? task_data->value : 0;
  d->have_target_task = target_task_data != NULL;
  d->target_task_id = target_task_data ? target_task_data->value : 0;
  d->target_data = target_data;
  d->target_value = target_data->value;
  d->ra = ra;
  tgt_info(d);
}

static void tgt_submit_emi(ompt_scope_endpoint_t ep, ompt_data_t* target_data,
                           ompt_id_t* host_op_id, unsigned teams) {
  if (ep == ompt_scope_begin) *host_op_id = rec_get_unique_id();
  tgt_detail* d = tgt_push(ep == ompt_scope_begin ? EV_SUBMIT_BEGIN : EV_SUBMIT_END);
  if (!d) return;
  d->endpoint = ep;
  d->target_data = target_data;
  d->target_value = target_data ? target_data->value : 0;
  d->host_op_id = *host_op_id;
  d->teams = teams;
  tgt_info(d);
}

static void tgt_data_op_emi(ompt_scope_endpoint_t ep, ompt_data_t* target_task_data,
                            ompt_data_t* target_data, ompt_id_t* host_op_id,
                            ompt_target_data_op_t op, void* src, int src_dev, void* dst,
                            int dst_dev, size_t bytes, const void* ra) {
  if (ep == ompt_scope_begin) *host_op_id = rec_get_unique_id();
  tgt_detail* d = tgt_push(ep == ompt_scope_begin ? EV_DATA_OP_BEGIN : EV_DATA_OP_END);
  if (!d) return;
  d->kind = op;
  d->endpoint = ep;
  d->have_target_task = target_task_data != NULL;
  d->target_task_id = target_task_data ? target_task_data->value : 0;
  d->target_data = target_data;
  d->target_value = target_data ? target_data->value : 0;
  d->host_op_id = *host_op_id;
  d->src = src;
  d->src_dev = src_dev;
  d->dst = dst;
  d->dst_dev = dst_dev;
  d->bytes = bytes;
  d->ra = ra;
  tgt_info(d);
}

static void tgt_target(ompt_target_t kind, ompt_scope_endpoint_t ep, int device,
                       ompt_data_t* task_data, ompt_id_t target_id, const void* ra) {
  tgt_detail* d = tgt_push(EV_TARGET_NOEMI);
  if (!d) return;
  d->kind = kind;
  d->endpoint = ep;
  d->device = device;
  d->task_id = task_data ? task_data->value : 0;
  d->target_value = target_id;
  d->ra = ra;
  tgt_info(d);
}

static void tgt_submit(ompt_id_t target_id, ompt_id_t host_op_id, unsigned teams) {
  tgt_detail* d = tgt_push(EV_SUBMIT_NOEMI);
  if (!d) return;
  d->target_value = target_id;
  d->host_op_id = host_op_id;
  d->teams = teams;
  tgt_info(d);
}

static void tgt_data_op(ompt_id_t target_id, ompt_id_t host_op_id, ompt_target_data_op_t op,
                        void* src, int src_dev, void* dst, int dst_dev, size_t bytes,
                        const void* ra) {
  tgt_detail* d = tgt_push(EV_DATA_OP_NOEMI);
  if (!d) return;
  d->kind = op;
  d->target_value = target_id;
  d->host_op_id = host_op_id;
  d->src = src;
  d->src_dev = src_dev;
  d->dst = dst;
  d->dst_dev = dst_dev;
  d->bytes = bytes;
  d->ra = ra;
  tgt_info(d);
}

static int tgt_initialize(ompt_function_lookup_t lookup, int device, ompt_data_t* tool_data) {
  int r = rec_initialize(lookup, device, tool_data);
  REC_REGISTER(ompt_callback_task_create, tgt_task_create);
  REC_REGISTER(ompt_callback_task_schedule, tgt_task_schedule);
  tgt_get_target_info = (ompt_get_target_info_t)lookup("ompt_get_target_info");
  tgt_get_num_devices = (ompt_get_num_devices_t)lookup("ompt_get_num_devices");
#if !defined(TGT_NOEMI)
  REC_REGISTER(ompt_callback_target_emi, tgt_target_emi);
  REC_REGISTER(ompt_callback_target_submit_emi, tgt_submit_emi);
  REC_REGISTER(ompt_callback_target_data_op_emi, tgt_data_op_emi);
#endif
#if defined(TGT_NOEMI) || defined(TGT_BOTH)
  REC_REGISTER(ompt_callback_target, tgt_target);
  REC_REGISTER(ompt_callback_target_submit, tgt_submit);
  REC_REGISTER(ompt_callback_target_data_op, tgt_data_op);
#endif
  return r;
}

static ompt_start_tool_result_t tgt_result = {tgt_initialize, rec_finalize, {0}};

ompt_start_tool_result_t* ompt_start_tool(unsigned int omp_version, const char* runtime_version) {
  return tgt_recorder_start_tool(omp_version, runtime_version) ? &tgt_result : NULL;
}

/* Is `ra` the return address of a call instruction inside function fn? */
static int tgt_returns_into(const void* ra, void* fn) {
  Dl_info info;
  if (!ra || !dladdr(ra, &info) || info.dli_saddr != fn) return 0;
  return ((const unsigned char*)ra)[-5] == 0xE8; /* call rel32 */
}

/* The events of thread t at or after `from` whose kind is a target event,
 * in order, into out[] (at most max); returns how many. */
static int tgt_events(const rec_thread* t, int from, const rec_event** out, int max) {
  int n = 0;
  for (int i = from; i < t->count && n < max; ++i)
    if (t->ev[i].ev >= EV_TARGET_BEGIN && t->ev[i].ev <= EV_DATA_OP_NOEMI) out[n++] = &t->ev[i];
  return n;
}

#endif
