// libkite-check.so: the OMPT tool behind `kite check`. It registers every
// host callback the runtime accepts, hands each event to the rule engine
// (check_rules.h) with the calling thread's state, and prints the report
// when the runtime finalizes the tool. Only the public OMPT interface is
// used, so the same library checks Kite and LLVM's libomp.
#include <omp-tools.h>

#include <cstdarg>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>

#include "check_rules.h"

namespace kite_check {
namespace {

// Never destroyed: the runtime may deliver events (and finalize) after this
// library's static destructors would have run.
Engine *engine;
std::string *runtime_name;
std::atomic<bool> reported{false};
thread_local ThreadState *self;
bool tracing;  // KITE_CHECK_TRACE=1: every checked event on stderr, as it comes

__attribute__((format(printf, 2, 3))) void trace(const ThreadState &t, const char *fmt, ...) {
  char line[256];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(line, sizeof line, fmt, ap);
  va_end(ap);
  fprintf(stderr, "kite check trace: thread=%d %s\n", t.number, line);
}
#define KITE_CHECK_TRACE(t, ...) \
  do {                           \
    if (tracing) trace(t, __VA_ARGS__); \
  } while (0)

ThreadState &me(int cb) {
  ThreadState *t = self;
  if (!t) self = t = engine->new_thread();
  t->counts[cb].fetch_add(1, std::memory_order_relaxed);
  return *t;
}

void on_thread_begin(ompt_thread_t type, ompt_data_t *thread_data) {
  engine->thread_begin(me(ompt_callback_thread_begin), type, thread_data);
}
void on_thread_end(ompt_data_t *thread_data) {
  ThreadState &t = me(ompt_callback_thread_end);
  engine->thread_end(t, thread_data);
  if (engine->retire(t)) self = nullptr;
}
void on_parallel_begin(ompt_data_t *, const ompt_frame_t *, ompt_data_t *parallel_data,
                       unsigned requested, int, const void *codeptr) {
  ThreadState &t = me(ompt_callback_parallel_begin);
  KITE_CHECK_TRACE(t, "parallel_begin pd=%p codeptr=%p", (void *)parallel_data, codeptr);
  engine->parallel_begin(t, parallel_data, requested, codeptr);
}
void on_parallel_end(ompt_data_t *parallel_data, ompt_data_t *, int, const void *codeptr) {
  ThreadState &t = me(ompt_callback_parallel_end);
  KITE_CHECK_TRACE(t, "parallel_end pd=%p codeptr=%p", (void *)parallel_data, codeptr);
  engine->parallel_end(t, parallel_data, codeptr);
}
void on_implicit_task(ompt_scope_endpoint_t endpoint, ompt_data_t *parallel_data,
                      ompt_data_t *task_data, unsigned parallelism, unsigned index, int flags) {
  ThreadState &t = me(ompt_callback_implicit_task);
  KITE_CHECK_TRACE(t, "implicit_task %d pd=%p td=%p n=%u index=%u flags=%#x", endpoint,
                   (void *)parallel_data, (void *)task_data, parallelism, index, flags);
  engine->implicit_task(t, endpoint, parallel_data, task_data, parallelism, index, flags);
}
void on_sync_region(ompt_sync_region_t kind, ompt_scope_endpoint_t endpoint,
                    ompt_data_t *parallel_data, ompt_data_t *task_data, const void *codeptr) {
  ThreadState &t = me(ompt_callback_sync_region);
  KITE_CHECK_TRACE(t, "sync_region kind=%d %d pd=%p codeptr=%p", kind, endpoint,
                   (void *)parallel_data, codeptr);
  engine->sync_parallel_data(t, "sync_region", kind, endpoint, parallel_data);
  engine->sync_region(t, kind, endpoint, task_data, codeptr);
}
void on_sync_region_wait(ompt_sync_region_t kind, ompt_scope_endpoint_t endpoint,
                         ompt_data_t *parallel_data, ompt_data_t *, const void *codeptr) {
  ThreadState &t = me(ompt_callback_sync_region_wait);
  KITE_CHECK_TRACE(t, "sync_region_wait kind=%d %d pd=%p codeptr=%p", kind, endpoint,
                   (void *)parallel_data, codeptr);
  engine->sync_parallel_data(t, "sync_region_wait", kind, endpoint, parallel_data);
  engine->sync_region_wait(t, kind, endpoint, codeptr);
}
void on_reduction(ompt_sync_region_t, ompt_scope_endpoint_t, ompt_data_t *, ompt_data_t *,
                  const void *) {
  me(ompt_callback_reduction);
}
void on_mutex_acquire(ompt_mutex_t kind, unsigned, unsigned, ompt_wait_id_t wait_id,
                      const void *codeptr) {
  ThreadState &t = me(ompt_callback_mutex_acquire);
  KITE_CHECK_TRACE(t, "mutex_acquire kind=%d wait_id=%#llx codeptr=%p", kind,
                   (unsigned long long)wait_id, codeptr);
  engine->mutex_acquire(t, kind, wait_id, codeptr);
}
void on_mutex_acquired(ompt_mutex_t kind, ompt_wait_id_t wait_id, const void *codeptr) {
  ThreadState &t = me(ompt_callback_mutex_acquired);
  KITE_CHECK_TRACE(t, "mutex_acquired kind=%d wait_id=%#llx codeptr=%p", kind,
                   (unsigned long long)wait_id, codeptr);
  engine->mutex_acquired(t, kind, wait_id, codeptr);
}
void on_mutex_released(ompt_mutex_t kind, ompt_wait_id_t wait_id, const void *codeptr) {
  ThreadState &t = me(ompt_callback_mutex_released);
  KITE_CHECK_TRACE(t, "mutex_released kind=%d wait_id=%#llx codeptr=%p", kind,
                   (unsigned long long)wait_id, codeptr);
  engine->mutex_released(t, kind, wait_id, codeptr);
}
void on_nest_lock(ompt_scope_endpoint_t endpoint, ompt_wait_id_t wait_id, const void *) {
  ThreadState &t = me(ompt_callback_nest_lock);
  KITE_CHECK_TRACE(t, "nest_lock %d wait_id=%#llx", endpoint, (unsigned long long)wait_id);
  engine->nest_lock(t, endpoint, wait_id);
}
void on_lock_init(ompt_mutex_t, unsigned, unsigned, ompt_wait_id_t, const void *) {
  me(ompt_callback_lock_init);
}
void on_lock_destroy(ompt_mutex_t, ompt_wait_id_t, const void *) {
  me(ompt_callback_lock_destroy);
}
void on_task_create(ompt_data_t *, const ompt_frame_t *, ompt_data_t *new_task_data, int flags,
                    int, const void *codeptr) {
  ThreadState &t = me(ompt_callback_task_create);
  KITE_CHECK_TRACE(t, "task_create td=%p flags=%#x codeptr=%p", (void *)new_task_data, flags,
                   codeptr);
  engine->task_create(t, new_task_data, flags, codeptr);
}
void on_task_schedule(ompt_data_t *prior, ompt_task_status_t status, ompt_data_t *next) {
  ThreadState &t = me(ompt_callback_task_schedule);
  KITE_CHECK_TRACE(t, "task_schedule prior=%p status=%d next=%p", (void *)prior, status,
                   (void *)next);
  engine->task_schedule(t, prior, status, next);
}
void on_dependences(ompt_data_t *, const ompt_dependence_t *, int) {
  me(ompt_callback_dependences);
}
void on_task_dependence(ompt_data_t *, ompt_data_t *) { me(ompt_callback_task_dependence); }
void on_cancel(ompt_data_t *task_data, int flags, const void *) {
  ThreadState &t = me(ompt_callback_cancel);
  if (flags & ompt_cancel_discarded_task) engine->task_discarded(t, task_data);
}
void on_work(ompt_work_t type, ompt_scope_endpoint_t endpoint, ompt_data_t *parallel_data,
             ompt_data_t *task_data, uint64_t, const void *codeptr) {
  ThreadState &t = me(ompt_callback_work);
  KITE_CHECK_TRACE(t, "work type=%d %d td=%p codeptr=%p", type, endpoint, (void *)task_data,
                   codeptr);
  engine->work(t, type, endpoint, parallel_data, task_data, codeptr);
}
void on_dispatch(ompt_data_t *, ompt_data_t *, ompt_dispatch_t kind, ompt_data_t) {
  ThreadState &t = me(ompt_callback_dispatch);
  KITE_CHECK_TRACE(t, "dispatch kind=%d", kind);
  engine->dispatch(t, kind);
}
void on_masked(ompt_scope_endpoint_t, ompt_data_t *, ompt_data_t *, const void *) {
  me(ompt_callback_masked);
}
void on_flush(ompt_data_t *, const void *) { me(ompt_callback_flush); }
int on_control_tool(uint64_t, uint64_t, void *, const void *) {
  me(ompt_callback_control_tool);
  return 0;
}
void on_error(ompt_severity_t severity, const char *, size_t, const void *) {
  ThreadState &t = me(ompt_callback_error);
  KITE_CHECK_TRACE(t, "error severity=%d", severity);
  engine->error(t, severity);
}

// Devices and device constructs (EMI forms: a runtime that has them calls
// only those when both are registered).
void on_device_initialize(int device, const char *, ompt_device_t *, ompt_function_lookup_t,
                          const char *) {
  ThreadState &t = me(ompt_callback_device_initialize);
  KITE_CHECK_TRACE(t, "device_initialize %d", device);
  engine->device_initialize(t, device);
}
void on_device_finalize(int device) {
  ThreadState &t = me(ompt_callback_device_finalize);
  KITE_CHECK_TRACE(t, "device_finalize %d", device);
  engine->device_finalize(t, device);
}
void on_device_load(int device, const char *, int64_t, void *, size_t, void *, void *,
                    uint64_t module_id) {
  engine->device_load(me(ompt_callback_device_load), device, module_id);
}
void on_device_unload(int device, uint64_t module_id) {
  engine->device_unload(me(ompt_callback_device_unload), device, module_id);
}
void on_target_emi(ompt_target_t kind, ompt_scope_endpoint_t endpoint, int device, ompt_data_t *,
                   ompt_data_t *, ompt_data_t *target_data, const void *codeptr) {
  ThreadState &t = me(ompt_callback_target_emi);
  KITE_CHECK_TRACE(t, "target kind=%d %d device=%d td=%p", kind, endpoint, device,
                   (void *)target_data);
  engine->target(t, kind, endpoint, device, target_data, codeptr);
}
void on_target_data_op_emi(ompt_scope_endpoint_t endpoint, ompt_data_t *, ompt_data_t *target_data,
                           ompt_id_t *host_op_id, ompt_target_data_op_t optype, void *,
                           int src_device, void *, int dest_device, size_t, const void *) {
  ThreadState &t = me(ompt_callback_target_data_op_emi);
  KITE_CHECK_TRACE(t, "target_data_op optype=%d %d %d->%d", optype, endpoint, src_device,
                   dest_device);
  engine->target_data_op(t, endpoint, target_data, host_op_id, optype, src_device, dest_device);
}
void on_target_submit_emi(ompt_scope_endpoint_t endpoint, ompt_data_t *target_data,
                          ompt_id_t *host_op_id, unsigned int) {
  engine->target_submit(me(ompt_callback_target_submit_emi), endpoint, target_data, host_op_id);
}
void on_target_map_emi(ompt_data_t *target_data, unsigned int nitems, void **, void **, size_t *,
                       unsigned int *, const void *) {
  engine->target_map(me(ompt_callback_target_map_emi), target_data, nitems);
}

void write_report() {
  if (reported.exchange(true)) return;
  engine->finish();
  std::string text = engine->report(*runtime_name);
  const char *path = getenv("KITE_CHECK_OUTPUT");
  FILE *f = path && *path ? fopen(path, "w") : nullptr;
  if (path && *path && !f) fprintf(stderr, "kite check: cannot write %s, using stderr\n", path);
  fputs(text.c_str(), f ? f : stderr);
  if (f) fclose(f);
}

int initialize(ompt_function_lookup_t lookup, int initial_device_num, ompt_data_t *) {
  auto set_callback = (ompt_set_callback_t)lookup("ompt_set_callback");
  if (!set_callback) return 0;
  Inquiry inq;
  inq.get_thread_data = (ompt_get_thread_data_t)lookup("ompt_get_thread_data");
  inq.get_parallel_info = (ompt_get_parallel_info_t)lookup("ompt_get_parallel_info");
  inq.get_task_info = (ompt_get_task_info_t)lookup("ompt_get_task_info");
  engine = new Engine(inq);
  engine->set_initial_device(initial_device_num);
  const char *tr = getenv("KITE_CHECK_TRACE");
  tracing = tr && *tr && strcmp(tr, "0") != 0;
#define KITE_CHECK_REGISTER(event, fn) \
  engine->set_callback_answer(event, set_callback(event, (ompt_callback_t)(fn)))
  KITE_CHECK_REGISTER(ompt_callback_thread_begin, on_thread_begin);
  KITE_CHECK_REGISTER(ompt_callback_thread_end, on_thread_end);
  KITE_CHECK_REGISTER(ompt_callback_parallel_begin, on_parallel_begin);
  KITE_CHECK_REGISTER(ompt_callback_parallel_end, on_parallel_end);
  KITE_CHECK_REGISTER(ompt_callback_implicit_task, on_implicit_task);
  KITE_CHECK_REGISTER(ompt_callback_sync_region, on_sync_region);
  KITE_CHECK_REGISTER(ompt_callback_sync_region_wait, on_sync_region_wait);
  KITE_CHECK_REGISTER(ompt_callback_reduction, on_reduction);
  KITE_CHECK_REGISTER(ompt_callback_mutex_acquire, on_mutex_acquire);
  KITE_CHECK_REGISTER(ompt_callback_mutex_acquired, on_mutex_acquired);
  KITE_CHECK_REGISTER(ompt_callback_mutex_released, on_mutex_released);
  KITE_CHECK_REGISTER(ompt_callback_nest_lock, on_nest_lock);
  KITE_CHECK_REGISTER(ompt_callback_lock_init, on_lock_init);
  KITE_CHECK_REGISTER(ompt_callback_lock_destroy, on_lock_destroy);
  KITE_CHECK_REGISTER(ompt_callback_task_create, on_task_create);
  KITE_CHECK_REGISTER(ompt_callback_task_schedule, on_task_schedule);
  KITE_CHECK_REGISTER(ompt_callback_dependences, on_dependences);
  KITE_CHECK_REGISTER(ompt_callback_task_dependence, on_task_dependence);
  KITE_CHECK_REGISTER(ompt_callback_cancel, on_cancel);
  KITE_CHECK_REGISTER(ompt_callback_work, on_work);
  KITE_CHECK_REGISTER(ompt_callback_dispatch, on_dispatch);
  KITE_CHECK_REGISTER(ompt_callback_masked, on_masked);
  KITE_CHECK_REGISTER(ompt_callback_flush, on_flush);
  KITE_CHECK_REGISTER(ompt_callback_control_tool, on_control_tool);
  KITE_CHECK_REGISTER(ompt_callback_error, on_error);
  KITE_CHECK_REGISTER(ompt_callback_device_initialize, on_device_initialize);
  KITE_CHECK_REGISTER(ompt_callback_device_finalize, on_device_finalize);
  KITE_CHECK_REGISTER(ompt_callback_device_load, on_device_load);
  KITE_CHECK_REGISTER(ompt_callback_device_unload, on_device_unload);
  KITE_CHECK_REGISTER(ompt_callback_target_emi, on_target_emi);
  KITE_CHECK_REGISTER(ompt_callback_target_data_op_emi, on_target_data_op_emi);
  KITE_CHECK_REGISTER(ompt_callback_target_submit_emi, on_target_submit_emi);
  KITE_CHECK_REGISTER(ompt_callback_target_map_emi, on_target_map_emi);
#undef KITE_CHECK_REGISTER
  return 1;
}

void finalize(ompt_data_t *) { write_report(); }

// A runtime that never calls the finalizer still gets a report, marked so.
__attribute__((destructor)) void report_at_unload() {
  if (!engine || reported.load()) return;
  ThreadState none;
  none.number = -1;
  engine->violation(none, "finalize.not-called", "unload",
                    "the runtime had not called the tool's finalizer when the tool was "
                    "unloaded");
  write_report();
}

}  // namespace
}  // namespace kite_check

extern "C" __attribute__((visibility("default"))) ompt_start_tool_result_t *ompt_start_tool(
    unsigned int omp_version, const char *runtime_version) {
  static ompt_start_tool_result_t result;
  result.initialize = kite_check::initialize;
  result.finalize = kite_check::finalize;
  result.tool_data.value = 0;
  char buf[64];
  snprintf(buf, sizeof buf, " (omp_version %u)", omp_version);
  std::string name = std::string(runtime_version ? runtime_version : "?") + buf;
  // Two OpenMP runtimes in one process may each start the tool; the report
  // names both ("A + B"), since its events then come from either.
  if (kite_check::runtime_name)
    *kite_check::runtime_name += " + " + name;
  else
    kite_check::runtime_name = new std::string(name);
  return &result;
}
