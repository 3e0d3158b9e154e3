/* A device tracing tool for tests (OpenMP 5.2 §19.2.5, §19.6.2), compiled
 * into the program (linked with -rdynamic).
 *
 * At device_initialize it looks up the 14 tracing entry points, enables
 * every OMPT record type and starts tracing with small buffers (tt_buffer_
 * bytes, default a few records), so a run goes through many request /
 * complete cycles. It registers the EMI target callbacks and gives each
 * construct (target_data) and operation (host_op_id) a fresh id, noting
 * omp_get_wtime() in the begin and end callbacks: the host-side interval.
 *
 * Every delivered record is matched to its host-side operation and
 * checked as it arrives (tt_check_record): it belongs to a known operation
 * of the same device, comes once (twice for target: begin and end), in
 * time order per device, and its times translated with ompt_translate_time
 * lie inside the operation's host-side interval (TT_SLACK seconds of
 * slack for the conversions): between its begin and end callbacks; for a
 * kernel, from its submit begin to its construct's end (it runs after the
 * submission); for a map, inside its construct. Failures count in tt_failures with a line on
 * stderr.
 *
 * Knobs before including: TT_SLOW_EVERY n (every n-th buffer_complete
 * sleeps 200 us, a slow tool), TT_STOP_IN_FINALIZE (device_finalize calls
 * ompt_stop_trace and checks everything arrived by its return), TT_NOEMI
 * (the non-EMI callbacks instead: records are checked by
 * tt_check_deferred(), once the operations they match were reported). */
#ifndef KITE_TEST_TRACE_TOOL_H
#define KITE_TEST_TRACE_TOOL_H

#include <omp-tools.h>
#include <omp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define TT_MAX_DEV 8
#define TT_MAX_OPS 20000
#define TT_SLACK 20e-6

enum tt_kind { TT_TARGET = 1, TT_DATA_OP, TT_KERNEL, TT_MAP };

typedef struct tt_op {
  int kind;
  int device;
  uint64_t id;        /* target_data value or host_op_id the tool wrote */
  uint64_t target;    /* the construct's target_data value */
  int optype;         /* data op */
  double begin, end;  /* host-side callback times (omp_get_wtime) */
  int ended;
  int records;        /* records delivered for it */
  int expect;         /* records it must get */
} tt_op;

static tt_op tt_ops[TT_MAX_OPS];
static int tt_nops;
static int tt_failures;
static int tt_lock_word;
static size_t tt_buffer_bytes = 512;

static ompt_device_t* tt_dev_handle[TT_MAX_DEV];
static int tt_dev_count;          /* device_initialize calls */
static int tt_dev_finalized[TT_MAX_DEV];
static long tt_requests[TT_MAX_DEV], tt_completes[TT_MAX_DEV];
static long tt_records[TT_MAX_DEV];       /* OMPT records delivered */
static long tt_native_records[TT_MAX_DEV];
static ompt_device_time_t tt_last_time[TT_MAX_DEV];
static long tt_partial_completes[TT_MAX_DEV]; /* buffers completed not full */
static int tt_in_complete;                    /* inside buffer_complete now */
/* Set by a test: the next buffer_complete calls this entry point (flush or
 * stop) on its own device, from inside the callback, and keeps the answer. */
static int (*tt_call_in_complete)(ompt_device_t*);
static int tt_call_in_complete_result = -1;

static ompt_set_trace_ompt_t tt_set_trace_ompt;
static ompt_set_trace_native_t tt_set_trace_native;
static ompt_start_trace_t tt_start_trace;
static ompt_pause_trace_t tt_pause_trace;
static ompt_flush_trace_t tt_flush_trace;
static ompt_stop_trace_t tt_stop_trace;
static ompt_advance_buffer_cursor_t tt_advance;
static ompt_get_record_type_t tt_get_record_type;
static ompt_get_record_ompt_t tt_get_record_ompt;
static ompt_get_record_native_t tt_get_record_native;
static ompt_get_record_abstract_t tt_get_record_abstract;
static ompt_get_device_num_procs_t tt_get_device_num_procs;
static ompt_get_device_time_t tt_get_device_time;
static ompt_translate_time_t tt_translate_time;
static ompt_function_lookup_t tt_device_lookup;
static int tt_lookup_ok;

static uint64_t tt_next_id = 1000;

/* Which operations get records: kinds enabled (bit per tt_kind) and
 * whether the device collects now (a test that pauses or stops tracing
 * keeps these in step). By default every kind, always, once started. */
static unsigned tt_expect_kinds = (1u << TT_TARGET) | (1u << TT_DATA_OP) | (1u << TT_KERNEL) |
                                  (1u << TT_MAP);
static int tt_collecting[TT_MAX_DEV];

#define TT_FAIL(...)                                          \
  do {                                                        \
    fprintf(stderr, "trace tool: " __VA_ARGS__);              \
    fputc('\n', stderr);                                      \
    __atomic_add_fetch(&tt_failures, 1, __ATOMIC_RELAXED);    \
  } while (0)

static void tt_lock(void) {
  while (__atomic_exchange_n(&tt_lock_word, 1, __ATOMIC_ACQUIRE)) {
  }
}
static void tt_unlock(void) { __atomic_store_n(&tt_lock_word, 0, __ATOMIC_RELEASE); }

static tt_op* tt_new_op(int kind, int device, uint64_t id, uint64_t target, int expect) {
  if (!(tt_expect_kinds & (1u << kind)) || device < 0 || device >= TT_MAX_DEV ||
      !tt_collecting[device])
    expect = 0;
  tt_lock();
  tt_op* op = tt_nops < TT_MAX_OPS ? &tt_ops[tt_nops++] : NULL;
  if (op) {
    op->kind = kind;
    op->device = device;
    op->id = id;
    op->target = target;
    op->begin = omp_get_wtime();
    op->expect = expect;
  }
  tt_unlock();
  if (!op) TT_FAIL("too many operations");
  return op;
}

/* Lock held. */
static tt_op* tt_find(int kind, uint64_t id) {
  for (int i = tt_nops - 1; i >= 0; --i)
    if (tt_ops[i].kind == kind && tt_ops[i].id == id) return &tt_ops[i];
  return NULL;
}

/* Target-construct bookkeeping: the device of each live target_data. */
static void tt_target_emi(ompt_target_t kind, ompt_scope_endpoint_t ep, int device,
                          ompt_data_t* task, ompt_data_t* target_task, ompt_data_t* target_data,
                          const void* ra) {
  (void)kind, (void)task, (void)target_task, (void)ra;
  if (ep == ompt_scope_begin) {
    target_data->value = __atomic_add_fetch(&tt_next_id, 1, __ATOMIC_RELAXED);
    /* The host is not traced: only emulated devices get records. */
    int traced = device >= 0 && device < TT_MAX_DEV && tt_dev_handle[device];
    tt_new_op(TT_TARGET, device, target_data->value, target_data->value, traced ? 2 : 0);
  } else {
    double now = omp_get_wtime();
    tt_lock();
    tt_op* op = tt_find(TT_TARGET, target_data->value);
    if (op) op->end = now, op->ended = 1;
    tt_unlock();
    if (!op) TT_FAIL("target end without begin");
  }
}

static int tt_device_of_target(uint64_t target) {
  tt_lock();
  tt_op* op = tt_find(TT_TARGET, target);
  int d = op ? op->device : -1;
  tt_unlock();
  return d;
}

static int tt_traced(int device) {
  return device >= 0 && device < TT_MAX_DEV && tt_dev_handle[device] != NULL;
}

static void tt_data_op_emi(ompt_scope_endpoint_t ep, ompt_data_t* target_task_data,
                           ompt_data_t* target_data, ompt_id_t* host_op_id,
                           ompt_target_data_op_t optype, void* src, int src_dev, void* dst,
                           int dst_dev, size_t bytes, const void* ra) {
  (void)target_task_data, (void)src, (void)dst, (void)bytes, (void)ra;
  if (ep == ompt_scope_begin) {
    *host_op_id = __atomic_add_fetch(&tt_next_id, 1, __ATOMIC_RELAXED);
    /* The record goes to the device side of the operation. */
    int device = tt_traced(dst_dev) ? dst_dev : src_dev;
    tt_op* op = tt_new_op(TT_DATA_OP, device, *host_op_id, target_data ? target_data->value : 0,
                          tt_traced(device) ? 1 : 0);
    if (op) op->optype = optype;
  } else {
    double now = omp_get_wtime();
    tt_lock();
    tt_op* op = tt_find(TT_DATA_OP, *host_op_id);
    if (op) op->end = now, op->ended = 1;
    tt_unlock();
    if (!op) TT_FAIL("data op end without begin (host_op_id %llu)", (unsigned long long)*host_op_id);
  }
}

static void tt_submit_emi(ompt_scope_endpoint_t ep, ompt_data_t* target_data,
                          ompt_id_t* host_op_id, unsigned int teams) {
  (void)teams;
  if (ep == ompt_scope_begin) {
    *host_op_id = __atomic_add_fetch(&tt_next_id, 1, __ATOMIC_RELAXED);
    int device = tt_device_of_target(target_data->value);
    tt_new_op(TT_KERNEL, device, *host_op_id, target_data->value, tt_traced(device) ? 1 : 0);
  } else {
    double now = omp_get_wtime();
    tt_lock();
    tt_op* op = tt_find(TT_KERNEL, *host_op_id);
    if (op) op->end = now, op->ended = 1;
    tt_unlock();
    if (!op) TT_FAIL("submit end without begin");
  }
}

/* target_map has no end callback: its interval is the construct's. */
static void tt_map_emi(ompt_data_t* target_data, unsigned int nitems, void** host, void** dev,
                       size_t* bytes, unsigned int* flags, const void* ra) {
  (void)nitems, (void)host, (void)dev, (void)bytes, (void)flags, (void)ra;
  int device = tt_device_of_target(target_data->value);
  tt_new_op(TT_MAP, device, target_data->value, target_data->value, tt_traced(device) ? 1 : 0);
}

/* Called with the lock held, for one OMPT record of `device`. */
static void tt_check_record(int device, const ompt_record_ompt_t* r) {
  if (r->time < tt_last_time[device])
    TT_FAIL("device %d: record out of order (%llu after %llu)", device,
            (unsigned long long)r->time, (unsigned long long)tt_last_time[device]);
  tt_last_time[device] = r->time;
  tt_op* op = NULL;
  double t0 = tt_translate_time(tt_dev_handle[device], r->time), t1 = t0;
  switch (r->type) {
    case ompt_callback_target:
      op = tt_find(TT_TARGET, r->target_id);
      if (op && r->record.target.device_num != device)
        TT_FAIL("target record names device %d, delivered for %d", r->record.target.device_num,
                device);
      break;
    case ompt_callback_target_data_op:
      op = tt_find(TT_DATA_OP, r->record.target_data_op.host_op_id);
      t1 = tt_translate_time(tt_dev_handle[device], r->record.target_data_op.end_time);
      if (op && (int)r->record.target_data_op.optype != op->optype)
        TT_FAIL("data op record optype %d, host side %d", (int)r->record.target_data_op.optype,
                op->optype);
      break;
    case ompt_callback_target_submit:
      op = tt_find(TT_KERNEL, r->record.target_kernel.host_op_id);
      t1 = tt_translate_time(tt_dev_handle[device], r->record.target_kernel.end_time);
      break;
    case ompt_callback_target_map:
      op = tt_find(TT_MAP, r->record.target_map.target_id);
      /* Several maps of one construct share its id: take one not yet seen. */
      while (op && op->records >= op->expect) {
        tt_op* prev = NULL;
        for (tt_op* o = op - 1; o >= tt_ops; --o)
          if (o->kind == TT_MAP && o->id == op->id) {
            prev = o;
            break;
          }
        if (!prev) break;
        op = prev;
      }
      break;
    default:
      TT_FAIL("record of unexpected type %d", (int)r->type);
      return;
  }
  if (!op) {
    TT_FAIL("record type %d of device %d matches no host-side operation", (int)r->type, device);
    return;
  }
  if (op->device != device) TT_FAIL("record of device %d delivered for %d", op->device, device);
  if (r->target_id != op->target)
    TT_FAIL("record target_id %llu, construct %llu", (unsigned long long)r->target_id,
            (unsigned long long)op->target);
  if (++op->records > op->expect)
    TT_FAIL("operation %llu (kind %d) got %d records, %d expected", (unsigned long long)op->id,
            op->kind, op->records, op->expect);
  if (t1 < t0) TT_FAIL("record ends before it begins");
  /* The record's device times lie inside the host-side interval of the
   * operation: the device took them between the begin and end callbacks.
   * A map has no end callback: it must lie inside its construct. */
  double lo = op->begin, hi = op->ended ? op->end : omp_get_wtime();
  if (op->kind == TT_MAP || op->kind == TT_KERNEL) {
    /* A kernel is submitted between the submit callbacks, then runs:
     * it starts after submit begin and ends inside its construct. */
    tt_op* t = tt_find(TT_TARGET, op->target);
    if (t) hi = t->ended ? t->end : omp_get_wtime();
    if (t && op->kind == TT_MAP) lo = t->begin;
  }
  if (t0 < lo - TT_SLACK || t1 > hi + TT_SLACK)
    TT_FAIL("kind %d op %llu: device interval [%.9f, %.9f] outside host [%.9f, %.9f]", op->kind,
            (unsigned long long)op->id, t0, t1, lo, hi);
}

#ifdef TT_NOEMI
/* Non-EMI callbacks come once per data operation, at its end, after its
 * record may already have been delivered: records are kept (in arrival
 * order) and checked by tt_check_deferred() once the operations ended. */
#define TT_MAX_DEFERRED 20000
static struct {
  int device;
  ompt_record_ompt_t r;
} tt_deferred[TT_MAX_DEFERRED];
static int tt_ndeferred;
static void tt_defer(int device, const ompt_record_ompt_t* r) {
  if (tt_ndeferred == TT_MAX_DEFERRED) {
    TT_FAIL("too many records");
    return;
  }
  tt_deferred[tt_ndeferred].device = device;
  tt_deferred[tt_ndeferred].r = *r;
  ++tt_ndeferred;
}
static void tt_check_deferred(void) {
  tt_lock();
  for (int i = 0; i < tt_ndeferred; ++i) tt_check_record(tt_deferred[i].device, &tt_deferred[i].r);
  tt_ndeferred = 0;
  tt_unlock();
}
#endif

static void tt_buffer_request(int device, ompt_buffer_t** buffer, size_t* bytes) {
  if (device < 0 || device >= TT_MAX_DEV) {
    TT_FAIL("buffer request for device %d", device);
    *buffer = NULL, *bytes = 0;
    return;
  }
  __atomic_add_fetch(&tt_requests[device], 1, __ATOMIC_RELAXED);
  *buffer = malloc(tt_buffer_bytes);
  *bytes = *buffer ? tt_buffer_bytes : 0;
}

static void tt_buffer_complete(int device, ompt_buffer_t* buffer, size_t bytes,
                               ompt_buffer_cursor_t begin, int owned) {
  if (device < 0 || device >= TT_MAX_DEV || !tt_dev_handle[device]) {
    TT_FAIL("buffer complete for device %d", device);
    return;
  }
  long n = __atomic_add_fetch(&tt_completes[device], 1, __ATOMIC_RELAXED);
  if (!owned) TT_FAIL("buffer not handed over (buffer_owned 0)");
  if (bytes > tt_buffer_bytes) TT_FAIL("buffer complete with %zu bytes of %zu", bytes, tt_buffer_bytes);
#ifdef TT_SLOW_EVERY
  if (n % TT_SLOW_EVERY == 0) usleep(200);
#else
  (void)n;
#endif
  __atomic_add_fetch(&tt_in_complete, 1, __ATOMIC_RELAXED);
  int count = 0;
  size_t last_end = 0;
  if (bytes > 0) {
    ompt_buffer_cursor_t cur = begin;
    tt_lock();
    do {
      ompt_record_t type = tt_get_record_type(buffer, cur);
      if (type == ompt_record_ompt) {
        ompt_record_ompt_t* r = tt_get_record_ompt(buffer, cur);
        if (!r) {
          TT_FAIL("ompt record without content");
          break;
        }
#ifdef TT_NOEMI
        tt_defer(device, r);
#else
        tt_check_record(device, r);
#endif
        tt_records[device]++;
      } else if (type == ompt_record_native) {
        ompt_id_t op_id = 0;
        void* nat = tt_get_record_native(buffer, cur, &op_id);
        ompt_record_abstract_t* a = nat ? tt_get_record_abstract(nat) : NULL;
        if (!a || !a->type || a->end_time < a->start_time) TT_FAIL("bad native record");
        tt_native_records[device]++;
      } else {
        TT_FAIL("invalid record at cursor %llu of %zu bytes", (unsigned long long)cur, bytes);
        break;
      }
      ++count;
      last_end = cur;
    } while (tt_advance(tt_dev_handle[device], buffer, bytes, cur, &cur));
    tt_unlock();
    /* The cursor walks exactly the bytes delivered. */
    if (count > 0 && last_end >= bytes) TT_FAIL("cursor went past the delivered bytes");
  }
  if (bytes + bytes / (count ? count : 1) <= tt_buffer_bytes) tt_partial_completes[device]++;
  int (*call)(ompt_device_t*) = tt_call_in_complete;
  if (call) {
    tt_call_in_complete = NULL;
    tt_call_in_complete_result = call(tt_dev_handle[device]);
  }
  __atomic_sub_fetch(&tt_in_complete, 1, __ATOMIC_RELAXED);
  free(buffer);
}

/* Records still owed: every operation of `device` that has ended and has
 * fewer records than expected (all of them when device < 0). */
static int tt_missing(int device) {
  int missing = 0;
  tt_lock();
  for (int i = 0; i < tt_nops; ++i) {
    tt_op* op = &tt_ops[i];
    if (device >= 0 && op->device != device) continue;
    if (op->records != op->expect && (op->kind == TT_MAP || op->ended)) {
      if (missing < 5)
        fprintf(stderr, "trace tool: op %llu kind %d device %d: %d of %d records\n",
                (unsigned long long)op->id, op->kind, op->device, op->records, op->expect);
      ++missing;
    }
  }
  tt_unlock();
  return missing;
}

static void tt_device_initialize(int device, const char* type, ompt_device_t* handle,
                                 ompt_function_lookup_t lookup, const char* doc) {
  (void)type, (void)doc;
  if (device < 0 || device >= TT_MAX_DEV || !handle || !lookup) {
    TT_FAIL("device_initialize(%d, %p, %p)", device, (void*)handle, (void*)lookup);
    return;
  }
  __atomic_add_fetch(&tt_dev_count, 1, __ATOMIC_RELAXED);
  tt_device_lookup = lookup;
#define TT_LOOK(var, type_, name)                      \
  var = (type_)lookup(name);                           \
  if (!var) TT_FAIL("lookup(\"%s\") is null", name);
  TT_LOOK(tt_set_trace_ompt, ompt_set_trace_ompt_t, "ompt_set_trace_ompt")
  TT_LOOK(tt_set_trace_native, ompt_set_trace_native_t, "ompt_set_trace_native")
  TT_LOOK(tt_start_trace, ompt_start_trace_t, "ompt_start_trace")
  TT_LOOK(tt_pause_trace, ompt_pause_trace_t, "ompt_pause_trace")
  TT_LOOK(tt_flush_trace, ompt_flush_trace_t, "ompt_flush_trace")
  TT_LOOK(tt_stop_trace, ompt_stop_trace_t, "ompt_stop_trace")
  TT_LOOK(tt_advance, ompt_advance_buffer_cursor_t, "ompt_advance_buffer_cursor")
  TT_LOOK(tt_get_record_type, ompt_get_record_type_t, "ompt_get_record_type")
  TT_LOOK(tt_get_record_ompt, ompt_get_record_ompt_t, "ompt_get_record_ompt")
  TT_LOOK(tt_get_record_native, ompt_get_record_native_t, "ompt_get_record_native")
  TT_LOOK(tt_get_record_abstract, ompt_get_record_abstract_t, "ompt_get_record_abstract")
  TT_LOOK(tt_get_device_num_procs, ompt_get_device_num_procs_t, "ompt_get_device_num_procs")
  TT_LOOK(tt_get_device_time, ompt_get_device_time_t, "ompt_get_device_time")
  TT_LOOK(tt_translate_time, ompt_translate_time_t, "ompt_translate_time")
#undef TT_LOOK
  if (lookup("ompt_set_callback") || lookup("ompt_no_such_entry"))
    TT_FAIL("the device lookup answers a name outside the tracing interface");
  tt_lookup_ok = tt_set_trace_ompt && tt_start_trace && tt_advance && tt_get_record_type &&
                 tt_get_record_ompt && tt_translate_time && tt_stop_trace;
  if (!tt_lookup_ok) return;
  tt_dev_handle[device] = handle;
#ifndef TT_NO_AUTOSTART
  if (tt_set_trace_ompt(handle, 1, 0) != ompt_set_always) TT_FAIL("set_trace_ompt(all) failed");
  if (!tt_start_trace(handle, tt_buffer_request, tt_buffer_complete))
    TT_FAIL("start_trace failed");
  tt_collecting[device] = 1;
#endif
}

static void tt_device_finalize(int device) {
  if (device < 0 || device >= TT_MAX_DEV) return;
  tt_dev_finalized[device] = 1;
#ifdef TT_STOP_IN_FINALIZE
  if (tt_dev_handle[device]) {
    if (!tt_stop_trace(tt_dev_handle[device])) TT_FAIL("stop_trace in device_finalize failed");
    /* "every record of that device has been delivered by the time it returns" */
    int missing = tt_missing(device);
    if (missing) TT_FAIL("device %d: %d operations lack records after stop_trace", device, missing);
  }
#endif
}

static void tt_register(ompt_set_callback_t set);
static int tt_init(ompt_function_lookup_t lookup, int device, ompt_data_t* data) {
  (void)device, (void)data;
  ompt_set_callback_t set = (ompt_set_callback_t)lookup("ompt_set_callback");
  tt_register(set);
  return 1;
}

static void tt_fini(ompt_data_t* data);

/* TT_VERBOSE=1 in the environment: a summary per device on stderr. */
static void tt_summary(void) {
  if (!getenv("TT_VERBOSE")) return;
  for (int d = 0; d < TT_MAX_DEV; ++d)
    if (tt_dev_handle[d])
      fprintf(stderr, "trace tool: device %d: %ld records, %ld native, %ld requests, %ld completes (%ld partial)\n",
              d, tt_records[d], tt_native_records[d], tt_requests[d], tt_completes[d],
              tt_partial_completes[d]);
}

ompt_start_tool_result_t* ompt_start_tool(unsigned omp_version, const char* runtime_version) {
  (void)omp_version, (void)runtime_version;
  static ompt_start_tool_result_t result = {tt_init, tt_fini, {0}};
  return &result;
}

#ifdef TT_NOEMI
/* The non-EMI forms: the runtime's target id and host op ids, which the
 * records must carry. A data operation is known at its end only (its
 * interval: from its construct's begin, or unchecked outside one, to the
 * callback); a submission at its begin. */
static void tt_target(ompt_target_t kind, ompt_scope_endpoint_t ep, int device, ompt_data_t* task,
                      ompt_id_t target_id, const void* ra) {
  (void)kind, (void)task, (void)ra;
  if (ep == ompt_scope_begin) {
    tt_new_op(TT_TARGET, device, target_id, target_id, tt_traced(device) ? 2 : 0);
  } else {
    double now = omp_get_wtime();
    tt_lock();
    tt_op* op = tt_find(TT_TARGET, target_id);
    if (op) op->end = now, op->ended = 1;
    tt_unlock();
    if (!op) TT_FAIL("target end without begin");
  }
}
static void tt_data_op(ompt_id_t target_id, ompt_id_t host_op_id, ompt_target_data_op_t optype,
                       void* src, int src_dev, void* dst, int dst_dev, size_t bytes,
                       const void* ra) {
  (void)src, (void)dst, (void)bytes, (void)ra;
  double now = omp_get_wtime();
  int device = tt_traced(dst_dev) ? dst_dev : src_dev;
  tt_op* op = tt_new_op(TT_DATA_OP, device, host_op_id, target_id, tt_traced(device) ? 1 : 0);
  if (!op) return;
  tt_lock();
  tt_op* t = target_id ? tt_find(TT_TARGET, target_id) : NULL;
  op->begin = t ? t->begin : 0;
  op->end = now;
  op->ended = 1;
  op->optype = optype;
  tt_unlock();
}
static void tt_submit(ompt_id_t target_id, ompt_id_t host_op_id, unsigned int teams) {
  (void)teams;
  int device = tt_device_of_target(target_id);
  tt_op* op = tt_new_op(TT_KERNEL, device, host_op_id, target_id, tt_traced(device) ? 1 : 0);
  if (op) op->ended = 1, op->end = op->begin; /* the construct's end bounds it */
}
static void tt_map(ompt_id_t target_id, unsigned int nitems, void** host, void** dev,
                   size_t* bytes, unsigned int* flags, const void* ra) {
  (void)nitems, (void)host, (void)dev, (void)bytes, (void)flags, (void)ra;
  int device = tt_device_of_target(target_id);
  tt_new_op(TT_MAP, device, target_id, target_id, tt_traced(device) ? 1 : 0);
}
#endif

static void tt_register(ompt_set_callback_t set) {
#define TT_SET(ev, fn)                                                   \
  if (set(ev, (ompt_callback_t)fn) != ompt_set_always)                   \
    TT_FAIL("set_callback(%s) is not ompt_set_always", #ev);
  TT_SET(ompt_callback_device_initialize, tt_device_initialize)
  TT_SET(ompt_callback_device_finalize, tt_device_finalize)
#ifdef TT_NOEMI
  TT_SET(ompt_callback_target, tt_target)
  TT_SET(ompt_callback_target_data_op, tt_data_op)
  TT_SET(ompt_callback_target_submit, tt_submit)
  TT_SET(ompt_callback_target_map, tt_map)
#else
  TT_SET(ompt_callback_target_emi, tt_target_emi)
  TT_SET(ompt_callback_target_data_op_emi, tt_data_op_emi)
  TT_SET(ompt_callback_target_submit_emi, tt_submit_emi)
  TT_SET(ompt_callback_target_map_emi, tt_map_emi)
#endif
#undef TT_SET
}

#endif
