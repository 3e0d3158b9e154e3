// The rule engine of `kite check`: it is fed OMPT events (already decoded
// into plain arguments) together with the state of the thread that saw them,
// and records every departure from the event order OpenMP 5.2 ch. 19
// promises. It knows nothing of how events arrive, so a test can feed it a
// hand-made sequence (tests/tools/unit/) and the OMPT glue
// (kite_check.cpp) stays a thin translation.
#pragma once

#include <omp-tools.h>

#include <atomic>
#include <cstdint>
#include <map>
#include <mutex>
#include <string>
#include <unordered_map>
#include <unordered_set>
#include <vector>

namespace kite_check {

constexpr int kMaxCallback = 40;  // above the largest ompt_callbacks_t value

struct ParallelRec {
  ompt_data_t *parallel_data;
  uint64_t id;
  const void *codeptr;
};
struct ImplicitRec {
  ompt_data_t *parallel_data;
  ompt_data_t *task_data;
  uint64_t task_id;
  unsigned index, parallelism;
  int flags;
};
struct SyncRec {
  int kind;
  ompt_data_t *task_data;
  bool waiting;
  const void *codeptr;
};
struct WorkRec {
  int type;
  ompt_data_t *task_data;
  const void *codeptr;
};
enum class MutexState { acquiring, held };
struct MutexRec {
  int family;  // the lock kind with test_* folded into its plain kind
  ompt_wait_id_t wait_id;
  MutexState state;
  bool test;  // a test routine may give up after mutex_acquire
  int levels;
  const void *codeptr;
};

// Device constructs and operations open on a thread (EMI callbacks): the
// tool-data locations the runtime passed at the begin, and the ids the
// engine wrote there, so the end can be matched to its begin.
struct TargetRec {
  ompt_data_t *target_data;
  uint64_t id;
  int kind, device;
  const void *codeptr;
};
struct DataOpRec {
  ompt_id_t *host_op_id;
  uint64_t id;
  int optype, src_device, dest_device;
};
struct SubmitRec {
  ompt_data_t *target_data;
  ompt_id_t *host_op_id;
  uint64_t id;
};

// Everything the engine knows about one thread. Only that thread touches it
// while events flow; the counters are atomics so the report may read them
// while late threads still run.
struct ThreadState {
  int number = 0;
  bool begun = false, ended = false;
  ompt_data_t *thread_data = nullptr;
  std::atomic<uint64_t> counts[kMaxCallback] = {};
  std::vector<ParallelRec> parallels;
  std::vector<ImplicitRec> implicits;
  std::vector<SyncRec> syncs;
  std::vector<WorkRec> works;
  std::vector<MutexRec> mutexes;
  std::vector<TargetRec> targets;
  std::vector<DataOpRec> data_ops;
  std::vector<SubmitRec> submits;
};

// The runtime's inquiry entry points, any of which may be absent (a unit
// test passes none): the engine compares their answers with the callbacks'.
struct Inquiry {
  ompt_get_thread_data_t get_thread_data = nullptr;
  ompt_get_parallel_info_t get_parallel_info = nullptr;
  ompt_get_task_info_t get_task_info = nullptr;
};

class Engine {
 public:
  explicit Engine(Inquiry inquiry = Inquiry()) : inquiry_(inquiry) {}

  // One record per thread. A thread that ended with nothing open is
  // retired: its counters join the run's totals and its record serves the
  // next new thread, so a program that churns through many native threads
  // does not grow the tool (the report reads the rest at the end).
  ThreadState *new_thread();
  // After thread_end: true when `t` was retired (the caller forgets it).
  bool retire(ThreadState &t);

  void thread_begin(ThreadState &t, ompt_thread_t type, ompt_data_t *thread_data);
  void thread_end(ThreadState &t, ompt_data_t *thread_data);
  void parallel_begin(ThreadState &t, ompt_data_t *parallel_data, unsigned requested,
                      const void *codeptr);
  void parallel_end(ThreadState &t, ompt_data_t *parallel_data, const void *codeptr);
  void implicit_task(ThreadState &t, ompt_scope_endpoint_t endpoint,
                     ompt_data_t *parallel_data, ompt_data_t *task_data,
                     unsigned parallelism, unsigned index, int flags);
  void sync_region(ThreadState &t, int kind, ompt_scope_endpoint_t endpoint,
                   ompt_data_t *task_data, const void *codeptr);
  void sync_region_wait(ThreadState &t, int kind, ompt_scope_endpoint_t endpoint,
                        const void *codeptr);
  // The parallel_data argument of a sync_region or sync_region_wait event
  // (`event` names which): NULL at the end of the implicit barrier that ends
  // a parallel region (5.1+; 6.0 §34.7.4).
  void sync_parallel_data(ThreadState &t, const char *event, int kind,
                          ompt_scope_endpoint_t endpoint, ompt_data_t *parallel_data);
  // What ompt_set_callback answered for `callback` at registration: the
  // callbacks 5.1 (Table 4.2) and 6.0 (Table 32.2) allow only
  // ompt_set_always for must get it.
  void set_callback_answer(int callback, int answer);
  void mutex_acquire(ThreadState &t, int kind, ompt_wait_id_t wait_id, const void *codeptr);
  void mutex_acquired(ThreadState &t, int kind, ompt_wait_id_t wait_id, const void *codeptr);
  void mutex_released(ThreadState &t, int kind, ompt_wait_id_t wait_id, const void *codeptr);
  void nest_lock(ThreadState &t, ompt_scope_endpoint_t endpoint, ompt_wait_id_t wait_id);
  void task_create(ThreadState &t, ompt_data_t *new_task_data, int flags, const void *codeptr);
  void task_schedule(ThreadState &t, ompt_data_t *prior, int prior_status, ompt_data_t *next);
  void task_discarded(ThreadState &t, ompt_data_t *task_data);
  void work(ThreadState &t, int type, ompt_scope_endpoint_t endpoint,
            ompt_data_t *parallel_data, ompt_data_t *task_data, const void *codeptr);
  void dispatch(ThreadState &t, int kind);
  // An `error` event: at ompt_fatal severity the program is being ended
  // where it stands, so what is still open at the finalizer is expected.
  void error(ThreadState &t, int severity);

  // Devices and device constructs (check_target.cpp). The host's device
  // number is the initializer's initial_device_num: events naming it need
  // no device_initialize.
  void set_initial_device(int device) { initial_device_ = device; }
  void device_initialize(ThreadState &t, int device);
  void device_finalize(ThreadState &t, int device);
  void device_load(ThreadState &t, int device, uint64_t module_id);
  void device_unload(ThreadState &t, int device, uint64_t module_id);
  void target(ThreadState &t, int kind, ompt_scope_endpoint_t endpoint, int device,
              ompt_data_t *target_data, const void *codeptr);
  void target_data_op(ThreadState &t, ompt_scope_endpoint_t endpoint, ompt_data_t *target_data,
                      ompt_id_t *host_op_id, int optype, int src_device, int dest_device);
  void target_submit(ThreadState &t, ompt_scope_endpoint_t endpoint, ompt_data_t *target_data,
                     ompt_id_t *host_op_id);
  void target_map(ThreadState &t, ompt_data_t *target_data, unsigned nitems);

  // End-of-run checks: what is still open when the tool is finalized.
  void finish();

  // The report (see docs/kite-check.md for its layout).
  std::string report(const std::string &runtime);
  uint64_t violation_count();
  uint64_t violation_count(const std::string &rule);

  // Records one violation of `rule`; the first one's text is kept.
  void violation(const ThreadState &t, const char *rule, const char *event, const char *fmt,
                 ...) __attribute__((format(printf, 5, 6)));

 private:
  enum class TaskState { created, running, suspended, detached, done };
  struct Rule {
    uint64_t count = 0;
    std::string example;
  };

  void need_begun(ThreadState &t, const char *event);
  void check_codeptr(ThreadState &t, const char *event, const void *codeptr, int kind = 0,
                     int endpoint = 0);
  void check_thread_data(ThreadState &t, const char *event);
  void check_initial_task_info(ThreadState &t, const char *event);
  uint64_t task_id(ompt_data_t *d) const { return d ? d->value : 0; }

  Inquiry inquiry_;
  std::mutex threads_lock_;
  std::vector<ThreadState *> threads_;
  std::vector<ThreadState *> free_;  // retired records, to reuse
  int thread_numbers_ = 0;           // threads seen so far
  uint64_t retired_counts_[kMaxCallback] = {};
  std::mutex rules_lock_;
  std::map<std::string, Rule> rules_;
  // Explicit tasks, by the id the tool stores in their task_data. Shared:
  // a task may be created on one thread and run on another.
  std::mutex tasks_lock_;
  std::unordered_map<uint64_t, TaskState> tasks_;
  std::unordered_set<uint64_t> early_fulfilled_;  // early_fulfill seen
  std::unordered_set<uint64_t> taskwait_tasks_;   // created with ompt_task_taskwait
  std::atomic<uint64_t> next_id_{1};
  // Devices: 1 initialized, 2 finalized; loaded code objects; the target
  // constructs open on any thread (a data op or map may come from a thread
  // of the construct's region, not the one that began it).
  void check_device(ThreadState &t, const char *event, int device);
  void finish_targets(ThreadState &t);
  int initial_device_ = -1;
  std::mutex devices_lock_;
  std::map<int, int> devices_;
  std::map<std::pair<int, uint64_t>, int> modules_;
  std::unordered_set<ompt_data_t *> open_targets_;
  std::atomic<bool> fatal_error_{false};
};

// Tool-assigned ids: implicit (and initial) tasks carry this bit so a
// task_schedule naming them is not taken for an unknown explicit task.
constexpr uint64_t kImplicitBit = uint64_t(1) << 62;

const char *callback_name(int cb);

}  // namespace kite_check
