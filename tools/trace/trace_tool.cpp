// libkite-trace.so: the in-process half of `kite trace`. An OMPT tool (the
// public interface only, so it records LLVM's libomp as well as Kite) that
// appends one fixed-size record per event to the calling thread's own file.
//
// Each thread records into a ring of windows kept in a small file beside
// its trace file (tools/common/recorder.cpp): a record is a few plain
// stores, with no lock, no allocation and no system call; full windows are
// copied into the trace file by the recorder's writer thread. Memory per
// thread stays at one ring (KITE_TRACE_BUFFER, default 1 MiB). If the
// program crashes, calls _exit or abort, or is killed, every event recorded
// so far is in the trace file or in the ring's file, which the converter
// copies back: it converts.
// Names, file:line and formats are the converter's job, after the program.
//
// Environment (set by `kite trace`):
//   KITE_TRACE_DIR     directory for the raw files (required; must exist)
//   KITE_TRACE_EVENTS  groups: parallel,work,dispatch,tasks,sync,mutex,target
//                      or all / default (all but dispatch)
//
// Device activity (group target) comes from OMPT device tracing, not from
// callbacks: at device_initialize the tool asks the device for records of
// its data operations and kernels, and writes each buffer's records as it
// arrives (kDeviceOp, on the thread the runtime delivers it on) with the
// device's time stamps translated to the host's clock. That is the device's
// own view of when a transfer or kernel ran, where the host-side callbacks
// only say when the host asked; device_finalize stops the trace, so every
// record is written before the tool's finalizer.
//   KITE_TRACE_BUFFER  memory per thread: bytes, or with a K/M/G suffix
//   KITE_TRACE_MAX_SIZE  stop recording once the raw files reach this many
//                      bytes (kite trace --max-size; recorder.h set_max_bytes)
//   KITE_TRACE_START_AFTER, KITE_TRACE_DURATION  seconds: record only that
//                      window of the run; KITE_TRACE_REGIONS FILE:LINE,...:
//                      only those parallel regions (trace_filter.h)
//   OMPI_COMM_WORLD_RANK, PMI_RANK, SLURM_PROCID, ...: the MPI rank, which
//                      names the files (one trace per rank, same directory)
#include <omp-tools.h>

#include <atomic>
#include <cerrno>
#include <cstdarg>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <ctime>
#include <dlfcn.h>
#include <fcntl.h>
#include <pthread.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "raw_format.h"
#include "recorder.h"
#include "trace_filter.h"

namespace kite_trace {
namespace {

using kite_rec::new_id;

unsigned groups = kGroupDefault;
bool active;

inline uint64_t idof(const ompt_data_t *d) { return d ? d->value & kIdMask : 0; }
inline bool marked(const ompt_data_t *d, uint64_t bit) { return d && (d->value & bit); }
inline uint64_t ra(const void *p) { return reinterpret_cast<uint64_t>(p); }

// Records one event (KITE_RECORD_EVENT), or with a window or --regions
// hands it to the filter (trace_filter.h) with whether it is inside a chosen
// region: the fields are set in a record of the stack first.
#define KT_RECORD_IN(IN_REGION, KIND, ...)                                           \
  KITE_RECORD_EVENT_GATED(!filtering,                                                \
                          if (filtering) filtered(rec_, (IN_REGION));                \
                          else ::kite_rec::record_slow(rec_),                        \
                          KIND, __VA_ARGS__)
#define KT_RECORD(KIND, ...) KT_RECORD_IN(!regions_on || inside() > 0, KIND, __VA_ARGS__)

// The callbacks that keep --regions' state have one body, a template on
// whether a region list is on (R): NAME runs the body without any of the
// filter's state unless regions_on, and the body with it out of line, so
// that the common case is a few instructions without a stack frame. FULL
// forwards NAME's parameters, ARGS are the body's.
#define KT_SPLIT(NAME, BODY, PARAMS, FULL, ARGS)                        \
  __attribute__((noinline)) void NAME##_regions PARAMS { BODY<true> ARGS; } \
  void NAME PARAMS {                                                \
    if (__builtin_expect(regions_on, 0)) return NAME##_regions FULL;  \
    BODY<false> ARGS;                                               \
  }

// Thread begin and end name the tracks: recorded with any --regions.
void on_thread_begin(ompt_thread_t type, ompt_data_t *thread_data) {
  if (filtering) filter_thread_begin();
  KT_RECORD_IN(true, kThreadBegin, r_->sub = uint8_t(type));
  if (thread_data) thread_data->value = uint64_t(kite_rec::thread_index());
}
void on_thread_end(ompt_data_t *) { KT_RECORD_IN(true, kThreadEnd, (void)0); }

// --regions: a region is chosen when its code is one of the list's lines or
// it begins inside a chosen one; the thread is inside it until its end.
template <bool R>
__attribute__((always_inline)) inline void parallel_begin(ompt_data_t *task, ompt_data_t *parallel,
                                                           unsigned requested, int flags,
                                                           const void *codeptr) {
  uint64_t id = new_id();
  bool chosen = R && (inside() > 0 || chosen_codeptr(ra(codeptr)));
  if (chosen) inside()++;
  if (parallel) parallel->value = id | (chosen ? kChosen : 0);
  KT_RECORD_IN(!R || chosen, kParallelBegin, r_->a = id; r_->b = idof(task);
               r_->u32 = requested; r_->d = unsigned(flags); r_->c = ra(codeptr));
}
KT_SPLIT(on_parallel_begin, parallel_begin,
         (ompt_data_t *task, const ompt_frame_t *frame, ompt_data_t *parallel,
          unsigned requested, int flags, const void *codeptr),
         (task, frame, parallel, requested, flags, codeptr), (task, parallel, requested, flags, codeptr))
template <bool R>
__attribute__((always_inline)) inline void parallel_end(ompt_data_t *parallel, ompt_data_t *task,
                                                         int flags, const void *codeptr) {
  bool chosen = R && marked(parallel, kChosen);
  KT_RECORD_IN(!R || chosen, kParallelEnd, r_->a = idof(parallel); r_->b = idof(task);
               r_->d = unsigned(flags); r_->c = ra(codeptr));
  if (chosen && inside() > 0) inside()--;
}
KT_SPLIT(on_parallel_end, parallel_end,
         (ompt_data_t *parallel, ompt_data_t *task, int flags, const void *codeptr),
         (parallel, task, flags, codeptr), (parallel, task, flags, codeptr))
// The implicit task of a chosen region, on every thread of its team (the
// implicit task's end has no parallel_data: the mark is on the task's).
template <bool R>
__attribute__((always_inline)) inline void implicit_task(ompt_scope_endpoint_t endpoint,
                                                          ompt_data_t *parallel, ompt_data_t *task,
                                                          unsigned parallelism, unsigned index,
                                                          int flags) {
  bool chosen = false;
  if (endpoint == ompt_scope_begin) {
    chosen = R && (inside() > 0 || marked(parallel, kChosen));
    if (chosen) inside()++;
    if (task) task->value = new_id() | (chosen ? kChosen : 0);
  } else {
    chosen = R && marked(task, kChosen);
  }
  KT_RECORD_IN(!R || chosen, kImplicitTask, r_->sub = uint8_t(endpoint);
               r_->a = idof(parallel); r_->b = idof(task); r_->u32 = parallelism; r_->d = index;
               r_->f16 = (flags & ompt_task_initial) ? 1 : 0);
  if (endpoint == ompt_scope_end && chosen && inside() > 0) inside()--;
}
KT_SPLIT(on_implicit_task, implicit_task,
         (ompt_scope_endpoint_t endpoint, ompt_data_t *parallel, ompt_data_t *task,
          unsigned parallelism, unsigned index, int flags),
         (endpoint, parallel, task, parallelism, index, flags),
         (endpoint, parallel, task, parallelism, index, flags))

void on_work(ompt_work_t type, ompt_scope_endpoint_t endpoint, ompt_data_t *parallel,
             ompt_data_t *task, uint64_t count, const void *codeptr) {
  KT_RECORD(kWork, r_->sub = uint8_t(endpoint); r_->f16 = uint16_t(type);
            r_->a = idof(parallel); r_->b = idof(task); r_->d = count; r_->c = ra(codeptr));
}
void on_dispatch(ompt_data_t *, ompt_data_t *task, ompt_dispatch_t kind, ompt_data_t instance) {
  uint64_t start = instance.value, iterations = 0;
  if (kind == ompt_dispatch_ws_loop_chunk || kind == ompt_dispatch_taskloop_chunk ||
      kind == ompt_dispatch_distribute_chunk) {
    const auto *chunk = static_cast<const ompt_dispatch_chunk_t *>(instance.ptr);
    if (chunk) {
      start = chunk->start;
      iterations = chunk->iterations;
    }
  }
  KT_RECORD(kDispatch, r_->sub = uint8_t(kind); r_->b = idof(task); r_->a = start;
            r_->d = iterations);
}
__attribute__((always_inline)) inline void on_sync(uint8_t kind, ompt_sync_region_t region, ompt_scope_endpoint_t endpoint,
             ompt_data_t *parallel, ompt_data_t *task, const void *codeptr) {
  KT_RECORD(kind, r_->sub = uint8_t(endpoint); r_->f16 = uint16_t(region);
            r_->a = idof(parallel); r_->b = idof(task); r_->c = ra(codeptr));
}
void on_sync_region(ompt_sync_region_t k, ompt_scope_endpoint_t e, ompt_data_t *p,
                    ompt_data_t *t, const void *c) {
  on_sync(kSyncRegion, k, e, p, t, c);
}
void on_sync_wait(ompt_sync_region_t k, ompt_scope_endpoint_t e, ompt_data_t *p, ompt_data_t *t,
                  const void *c) {
  on_sync(kSyncWait, k, e, p, t, c);
}
void on_reduction(ompt_sync_region_t k, ompt_scope_endpoint_t e, ompt_data_t *p, ompt_data_t *t,
                  const void *c) {
  on_sync(kReduction, k, e, p, t, c);
}
template <bool R>
__attribute__((always_inline)) inline void task_create(ompt_data_t *parent, ompt_data_t *task,
                                                        int flags, int has_dependences,
                                                        const void *codeptr) {
  uint64_t id = new_id();
  bool chosen = R && inside() > 0;  // it is inside, wherever it runs
  if (task) task->value = id | (chosen ? kChosenTask : 0);
  KT_RECORD_IN(!R || chosen, kTaskCreate, r_->a = id; r_->b = idof(parent);
               r_->u32 = unsigned(flags); r_->sub = has_dependences ? 1 : 0;
               r_->c = ra(codeptr));
}
KT_SPLIT(on_task_create, task_create,
         (ompt_data_t *parent, const ompt_frame_t *frame, ompt_data_t *task, int flags,
          int has_dependences, const void *codeptr),
         (parent, frame, task, flags, has_dependences, codeptr),
         (parent, task, flags, has_dependences, codeptr))
// A thread running an explicit task created inside a chosen region is inside
// it while the task runs; the task's switches in and out pair up per thread
// (the fulfill events of detached tasks are no switch).
template <bool R>
__attribute__((always_inline)) inline void task_schedule(ompt_data_t *prior,
                                                          ompt_task_status_t status,
                                                          ompt_data_t *next) {
  bool switches = R && status != ompt_task_early_fulfill && status != ompt_task_late_fulfill;
  bool out = switches && marked(prior, kChosenTask), in = switches && marked(next, kChosenTask);
  KT_RECORD_IN(!R || out || in || inside() > 0, kTaskSchedule, r_->a = idof(prior);
               r_->sub = uint8_t(status); r_->b = idof(next));
  if (out && inside() > 0) inside()--;
  if (in) inside()++;
}
KT_SPLIT(on_task_schedule, task_schedule,
         (ompt_data_t *prior, ompt_task_status_t status, ompt_data_t *next),
         (prior, status, next), (prior, status, next))
void on_task_dependence(ompt_data_t *src, ompt_data_t *sink) {
  KT_RECORD(kTaskDependence, r_->a = idof(src); r_->b = idof(sink));
}
void on_mutex_acquire(ompt_mutex_t kind, unsigned hint, unsigned, ompt_wait_id_t wait_id,
                      const void *codeptr) {
  KT_RECORD(kMutexAcquire, r_->f16 = uint16_t(kind); r_->a = wait_id; r_->u32 = hint;
            r_->c = ra(codeptr));
}
void on_mutex_acquired(ompt_mutex_t kind, ompt_wait_id_t wait_id, const void *codeptr) {
  KT_RECORD(kMutexAcquired, r_->f16 = uint16_t(kind); r_->a = wait_id; r_->c = ra(codeptr));
}
void on_mutex_released(ompt_mutex_t kind, ompt_wait_id_t wait_id, const void *codeptr) {
  KT_RECORD(kMutexReleased, r_->f16 = uint16_t(kind); r_->a = wait_id; r_->c = ra(codeptr));
}
void on_nest_lock(ompt_scope_endpoint_t endpoint, ompt_wait_id_t wait_id, const void *codeptr) {
  KT_RECORD(kNestLock, r_->sub = uint8_t(endpoint); r_->a = wait_id; r_->c = ra(codeptr));
}
void on_cancel(ompt_data_t *task, int flags, const void *codeptr) {
  KT_RECORD(kCancel, r_->u32 = unsigned(flags); r_->b = idof(task); r_->c = ra(codeptr));
}
void on_masked(ompt_scope_endpoint_t endpoint, ompt_data_t *parallel, ompt_data_t *task,
               const void *codeptr) {
  KT_RECORD(kMasked, r_->sub = uint8_t(endpoint); r_->a = idof(parallel); r_->b = idof(task);
            r_->c = ra(codeptr));
}
void on_target_emi(ompt_target_t kind, ompt_scope_endpoint_t endpoint, int device,
                   ompt_data_t *task, ompt_data_t *target_task, ompt_data_t *target,
                   const void *codeptr) {
  if (endpoint == ompt_scope_begin && target) target->value = new_id();
  (void)target_task;
  KT_RECORD(kTarget, r_->sub = uint8_t(endpoint); r_->f16 = uint16_t(kind);
            r_->u32 = unsigned(device); r_->a = idof(target); r_->b = idof(task);
            r_->c = ra(codeptr); r_->d = kite_rec::now_ns());
}
void on_target(ompt_target_t kind, ompt_scope_endpoint_t endpoint, int device, ompt_data_t *task,
               ompt_id_t target_id, const void *codeptr) {
  KT_RECORD(kTarget, r_->sub = uint8_t(endpoint); r_->f16 = uint16_t(kind);
            r_->u32 = unsigned(device); r_->a = target_id; r_->b = idof(task);
            r_->c = ra(codeptr); r_->d = kite_rec::now_ns());
}
void on_target_data_op_emi(ompt_scope_endpoint_t endpoint, ompt_data_t *, ompt_data_t *target,
                           ompt_id_t *, ompt_target_data_op_t optype, void *, int, void *,
                           int dest_device, size_t bytes, const void *codeptr) {
  KT_RECORD(kTargetDataOp, r_->sub = uint8_t(endpoint); r_->f16 = uint16_t(optype);
            r_->u32 = unsigned(dest_device); r_->a = idof(target); r_->d = bytes;
            r_->c = ra(codeptr));
}
void on_target_data_op(ompt_id_t target_id, ompt_id_t, ompt_target_data_op_t optype, void *, int,
                       void *, int dest_device, size_t bytes, const void *codeptr) {
  KT_RECORD(kTargetDataOp, r_->sub = uint8_t(ompt_scope_beginend); r_->f16 = uint16_t(optype);
            r_->u32 = unsigned(dest_device); r_->a = target_id; r_->d = bytes;
            r_->c = ra(codeptr));
}

// --- device tracing -----------------------------------------------------------

constexpr int kMaxDevices = 64;
constexpr size_t kDeviceBufferBytes = 256 * 1024;
ompt_device_t *device_handles[kMaxDevices];
ompt_translate_time_t translate_time;
ompt_advance_buffer_cursor_t advance_cursor;
ompt_get_record_type_t record_type;
ompt_get_record_ompt_t record_ompt;
ompt_stop_trace_t stop_trace;

void device_buffer_request(int, ompt_buffer_t **buffer, size_t *bytes) {
  *buffer = malloc(kDeviceBufferBytes);
  *bytes = *buffer ? kDeviceBufferBytes : 0;
}

uint64_t host_ns(ompt_device_t *device, ompt_device_time_t t) {
  double s = translate_time(device, t);  // omp_get_wtime's base: CLOCK_MONOTONIC on Kite
  return s > 0 ? uint64_t(s * 1e9 + 0.5) : 0;
}

void device_buffer_complete(int device, ompt_buffer_t *buffer, size_t bytes,
                            ompt_buffer_cursor_t begin, int owned) {
  ompt_device_t *handle = device >= 0 && device < kMaxDevices ? device_handles[device] : nullptr;
  // A clock pair first: this record's stamp and CLOCK_MONOTONIC read next
  // to it, so the converter can place the device times (CLOCK_MONOTONIC)
  // on the host records' time line however the run's TSC calibration
  // maps stamps.
  if (handle && bytes > 0) KT_RECORD(kDeviceOp, r_->sub = 0; r_->a = kite_rec::now_ns());
  if (handle && bytes > 0) {
    ompt_buffer_cursor_t cur = begin;
    do {
      if (record_type(buffer, cur) != ompt_record_ompt) continue;
      const ompt_record_ompt_t *r = record_ompt(buffer, cur);
      if (!r) continue;
      if (r->type == ompt_callback_target_data_op) {
        const ompt_record_target_data_op_t &op = r->record.target_data_op;
        KT_RECORD(kDeviceOp, r_->sub = uint8_t(r->type); r_->f16 = uint16_t(op.optype);
                  r_->u32 = unsigned(device); r_->a = host_ns(handle, r->time);
                  r_->b = host_ns(handle, op.end_time); r_->c = ra(op.codeptr_ra);
                  r_->d = op.bytes);
      } else if (r->type == ompt_callback_target_submit) {
        const ompt_record_target_kernel_t &k = r->record.target_kernel;
        KT_RECORD(kDeviceOp, r_->sub = uint8_t(r->type); r_->u32 = unsigned(device);
                  r_->a = host_ns(handle, r->time); r_->b = host_ns(handle, k.end_time);
                  r_->d = k.requested_num_teams);
      }
    } while (advance_cursor(handle, buffer, bytes, cur, &cur));
  }
  if (owned) free(buffer);
}

void on_device_initialize(int device, const char *, ompt_device_t *handle,
                          ompt_function_lookup_t lookup, const char *) {
  if (device < 0 || device >= kMaxDevices || !handle || !lookup) return;
  auto set_trace = reinterpret_cast<ompt_set_trace_ompt_t>(lookup("ompt_set_trace_ompt"));
  auto start = reinterpret_cast<ompt_start_trace_t>(lookup("ompt_start_trace"));
  translate_time = reinterpret_cast<ompt_translate_time_t>(lookup("ompt_translate_time"));
  advance_cursor =
      reinterpret_cast<ompt_advance_buffer_cursor_t>(lookup("ompt_advance_buffer_cursor"));
  record_type = reinterpret_cast<ompt_get_record_type_t>(lookup("ompt_get_record_type"));
  record_ompt = reinterpret_cast<ompt_get_record_ompt_t>(lookup("ompt_get_record_ompt"));
  stop_trace = reinterpret_cast<ompt_stop_trace_t>(lookup("ompt_stop_trace"));
  if (!set_trace || !start || !translate_time || !advance_cursor || !record_type || !record_ompt)
    return;
  set_trace(handle, 1, ompt_callback_target_data_op);
  set_trace(handle, 1, ompt_callback_target_submit);
  device_handles[device] = handle;
  if (!start(handle, device_buffer_request, device_buffer_complete)) device_handles[device] = nullptr;
}

// Everything the device still holds is written before the tool finalizes.
void on_device_finalize(int device) {
  if (device < 0 || device >= kMaxDevices || !device_handles[device]) return;
  if (stop_trace) stop_trace(device_handles[device]);
}

unsigned parse_groups(const char *s) {
  if (!s || !*s || !strcmp(s, "default")) return kGroupDefault;
  unsigned g = 0;
  char copy[512];
  snprintf(copy, sizeof copy, "%s", s);
  char *save = nullptr;
  for (char *t = strtok_r(copy, ",", &save); t; t = strtok_r(nullptr, ",", &save)) {
    static const struct {
      const char *name;
      unsigned bits;
    } table[] = {{"parallel", kGroupParallel}, {"work", kGroupWork},
                 {"dispatch", kGroupDispatch}, {"tasks", kGroupTasks},
                 {"sync", kGroupSync},         {"mutex", kGroupMutex},
                 {"target", kGroupTarget},     {"default", kGroupDefault},
                 {"all", kGroupDefault | kGroupDispatch}};
    bool known = false;
    for (const auto &e : table)
      if (!strcmp(t, e.name)) {
        g |= e.bits;
        known = true;
      }
    if (!known) kite_rec::warn("KITE_TRACE_EVENTS: unknown group '%s' ignored", t);
  }
  return g ? g : kGroupDefault;
}

int initialize(ompt_function_lookup_t lookup, int, ompt_data_t *) {
  auto set_callback = reinterpret_cast<ompt_set_callback_t>(lookup("ompt_set_callback"));
  if (!set_callback) return 0;
  auto reg = [&](ompt_callbacks_t which, void (*fn)()) {
    return set_callback(which, reinterpret_cast<ompt_callback_t>(fn));
  };
#define KT_REG(WHICH, FN) reg(WHICH, reinterpret_cast<void (*)()>(FN))
  // Thread records name the tracks; always on.
  KT_REG(ompt_callback_thread_begin, on_thread_begin);
  KT_REG(ompt_callback_thread_end, on_thread_end);
  if (groups & (kGroupParallel | kGroupTasks)) {
    KT_REG(ompt_callback_parallel_begin, on_parallel_begin);
    KT_REG(ompt_callback_parallel_end, on_parallel_end);
    KT_REG(ompt_callback_implicit_task, on_implicit_task);
  }
  if (groups & kGroupWork) {
    KT_REG(ompt_callback_work, on_work);
    KT_REG(ompt_callback_masked, on_masked);
  }
  if (groups & kGroupDispatch) KT_REG(ompt_callback_dispatch, on_dispatch);
  if (groups & kGroupTasks) {
    KT_REG(ompt_callback_task_create, on_task_create);
    KT_REG(ompt_callback_task_schedule, on_task_schedule);
    KT_REG(ompt_callback_task_dependence, on_task_dependence);
  }
  if (groups & kGroupSync) {
    KT_REG(ompt_callback_sync_region, on_sync_region);
    KT_REG(ompt_callback_sync_region_wait, on_sync_wait);
    KT_REG(ompt_callback_reduction, on_reduction);
    KT_REG(ompt_callback_cancel, on_cancel);
  }
  if (groups & kGroupMutex) {
    KT_REG(ompt_callback_mutex_acquire, on_mutex_acquire);
    KT_REG(ompt_callback_mutex_acquired, on_mutex_acquired);
    KT_REG(ompt_callback_mutex_released, on_mutex_released);
    KT_REG(ompt_callback_nest_lock, on_nest_lock);
  }
  if (groups & kGroupTarget) {
    if (KT_REG(ompt_callback_target_emi, on_target_emi) == ompt_set_never)
      KT_REG(ompt_callback_target, on_target);
    if (KT_REG(ompt_callback_target_data_op_emi, on_target_data_op_emi) == ompt_set_never)
      KT_REG(ompt_callback_target_data_op, on_target_data_op);
    KT_REG(ompt_callback_device_initialize, on_device_initialize);
    KT_REG(ompt_callback_device_finalize, on_device_finalize);
  }
#undef KT_REG
  // The runtime's own file: a codeptr_ra inside it (a construct whose
  // runtime call the compiler made a tail call) is attributed by the
  // converter to the enclosing construct.
  Dl_info info;
  char real[4096];
  if (dladdr(reinterpret_cast<void *>(set_callback), &info) && info.dli_fname &&
      realpath(info.dli_fname, real))  // as the memory map names it
    kite_rec::append_meta("runtime_module=%s\n", real);
  kite_rec::append_meta("events=%u\n", groups);
  if (filtering) filter_initialize();
  active = true;
  return 1;
}

void finalize(ompt_data_t *) {
  if (!active) return;
  active = false;
  filter_finish();
  kite_rec::finish();
}

}  // namespace
}  // namespace kite_trace

extern "C" __attribute__((visibility("default"))) ompt_start_tool_result_t *ompt_start_tool(
    unsigned int, const char *runtime_version) {
  using namespace kite_trace;
  groups = parse_groups(getenv("KITE_TRACE_EVENTS"));
  if (!kite_rec::start_from_env("trace", "KITE_TRACE", runtime_version)) return nullptr;
  filter_from_env();
  if (const char *max = getenv("KITE_TRACE_MAX_SIZE")) {  // bytes, from kite trace --max-size
    char *end = nullptr;
    unsigned long long v = *max >= '0' && *max <= '9' ? strtoull(max, &end, 10) : 0;
    if (end && !*end && v)
      kite_rec::set_max_bytes(v);
    else
      kite_rec::warn("KITE_TRACE_MAX_SIZE=%s is not a number of bytes; no limit", max);
  }
  static ompt_start_tool_result_t result = {initialize, finalize, {0}};
  return &result;
}
