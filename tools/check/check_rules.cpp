// The rules of `kite check`; each violation names its rule, the event that
// broke it, the thread and the ids involved (see check_rules.h).
#include "check_rules.h"

#include <cstdarg>
#include <cstdio>

namespace kite_check {

const char *callback_name(int cb) {
  static const char *const names[kMaxCallback] = {
      "?",                  "thread_begin",     "thread_end",         "parallel_begin",
      "parallel_end",       "task_create",      "task_schedule",      "implicit_task",
      "target",             "target_data_op",   "target_submit",      "control_tool",
      "device_initialize",  "device_finalize",  "device_load",        "device_unload",
      "sync_region_wait",   "mutex_released",   "dependences",        "task_dependence",
      "work",               "masked",           "target_map",         "sync_region",
      "lock_init",          "lock_destroy",     "mutex_acquire",      "mutex_acquired",
      "nest_lock",          "flush",            "cancel",             "reduction",
      "dispatch",           "target_emi",       "target_data_op_emi", "target_submit_emi",
      "target_map_emi",     "error",            "?",                  "?"};
  return cb > 0 && cb < kMaxCallback ? names[cb] : "?";
}

ThreadState *Engine::new_thread() {
  std::lock_guard<std::mutex> g(threads_lock_);
  ThreadState *t;
  if (!free_.empty()) {
    t = free_.back();
    free_.pop_back();
    t->begun = t->ended = false;
    t->thread_data = nullptr;
  } else {
    t = new ThreadState();
    threads_.push_back(t);
  }
  t->number = thread_numbers_++;
  return t;
}

bool Engine::retire(ThreadState &t) {
  if (!t.ended || !t.parallels.empty() || !t.implicits.empty() || !t.syncs.empty() ||
      !t.works.empty() || !t.mutexes.empty() || !t.targets.empty() || !t.data_ops.empty() ||
      !t.submits.empty())
    return false;  // left for the finalizer's checks
  std::lock_guard<std::mutex> g(threads_lock_);
  for (int i = 0; i < kMaxCallback; ++i)
    retired_counts_[i] += t.counts[i].exchange(0, std::memory_order_relaxed);
  free_.push_back(&t);
  return true;
}

void Engine::violation(const ThreadState &t, const char *rule, const char *event,
                       const char *fmt, ...) {
  std::lock_guard<std::mutex> g(rules_lock_);
  Rule &r = rules_[rule];
  if (r.count++ != 0) return;
  char detail[512];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(detail, sizeof detail, fmt, ap);
  va_end(ap);
  char line[640];
  snprintf(line, sizeof line, "event=%s thread=%d %s", event, t.number, detail);
  r.example = line;
}

void Engine::need_begun(ThreadState &t, const char *event) {
  if (!t.begun)
    violation(t, "thread.event-outside-thread", event,
              "an event on a thread before its thread_begin");
  else if (t.ended)
    violation(t, "thread.event-outside-thread", event,
              "an event on a thread after its thread_end");
}

void Engine::check_codeptr(ThreadState &t, const char *event, const void *codeptr, int kind,
                           int endpoint) {
  if (!codeptr) {
    std::string rule = std::string("codeptr.null.") + event;
    violation(t, rule.c_str(), event, "codeptr_ra=NULL kind=%d endpoint=%s", kind,
              endpoint == ompt_scope_begin ? "begin" : endpoint == ompt_scope_end ? "end" : "-");
  }
}

void Engine::check_thread_data(ThreadState &t, const char *event) {
  if (!inquiry_.get_thread_data || !t.begun || t.ended) return;
  ompt_data_t *d = inquiry_.get_thread_data();
  if (d != t.thread_data)
    violation(t, "inquiry.get_thread_data", event,
              "ompt_get_thread_data()=%p, thread_begin gave %p", (void *)d,
              (void *)t.thread_data);
}

// ompt_get_task_info answers parallel_data NULL for an initial task: the
// region that contains the task "or, if the task at the specified level is
// an initial task, NULL" (6.0 §36.15). Every ancestor level is asked, so an
// implicit task's begin also checks the initial task its region nests in.
void Engine::check_initial_task_info(ThreadState &t, const char *event) {
  if (!inquiry_.get_task_info) return;
  for (int level = 0; level < 16; ++level) {
    int flags = 0;
    ompt_data_t *pd = nullptr;
    if (inquiry_.get_task_info(level, &flags, nullptr, nullptr, &pd, nullptr) != 2) return;
    if ((flags & ompt_task_initial) && pd) {
      violation(t, "inquiry.initial-task-parallel-data", event,
                "ompt_get_task_info(%d) of an initial task gave parallel_data=%p (id %llu), "
                "not NULL",
                level, (void *)pd, (unsigned long long)pd->value);
      return;
    }
  }
}

// The callbacks a runtime must dispatch at every occurrence, so
// ompt_set_callback may answer only ompt_set_always for them (5.1 Table
// 4.2, 6.0 Table 32.2; the host's: the tables also list the target and
// device callbacks).
static bool always_only(int callback) {
  switch (callback) {
    case ompt_callback_thread_begin:
    case ompt_callback_thread_end:
    case ompt_callback_parallel_begin:
    case ompt_callback_parallel_end:
    case ompt_callback_task_create:
    case ompt_callback_task_schedule:
    case ompt_callback_implicit_task:
    case ompt_callback_control_tool:
    case ompt_callback_error:
      return true;
    default:
      return false;
  }
}

void Engine::set_callback_answer(int callback, int answer) {
  if (!always_only(callback) || answer == ompt_set_always) return;
  ThreadState none;
  none.number = -1;
  std::string rule = std::string("set_callback.always.") + callback_name(callback);
  violation(none, rule.c_str(), "set_callback",
            "ompt_set_callback(%s) answered %d; this callback allows only ompt_set_always (%d)",
            callback_name(callback), answer, int(ompt_set_always));
}

// ---- threads ---------------------------------------------------------------

void Engine::thread_begin(ThreadState &t, ompt_thread_t type, ompt_data_t *thread_data) {
  if (t.begun)
    violation(t, "thread.pairing", "thread_begin", "a second thread_begin (type %d)", int(type));
  t.begun = true;
  t.ended = false;
  t.thread_data = thread_data;
  if (thread_data) thread_data->value = 0x7000 + t.number;
}

void Engine::thread_end(ThreadState &t, ompt_data_t *thread_data) {
  if (!t.begun || t.ended)
    violation(t, "thread.pairing", "thread_end", "thread_end without a thread_begin");
  else if (thread_data != t.thread_data)
    violation(t, "thread.pairing", "thread_end", "thread_data=%p, thread_begin gave %p",
              (void *)thread_data, (void *)t.thread_data);
  t.ended = true;
}

// ---- parallel regions and implicit tasks -------------------------------------

void Engine::parallel_begin(ThreadState &t, ompt_data_t *parallel_data, unsigned requested,
                            const void *codeptr) {
  need_begun(t, "parallel_begin");
  check_codeptr(t, "parallel_begin", codeptr);
  if (!parallel_data) {
    violation(t, "parallel.pairing", "parallel_begin", "parallel_data=NULL codeptr=%p", codeptr);
    return;
  }
  parallel_data->value = next_id_++;
  t.parallels.push_back({parallel_data, parallel_data->value, codeptr});
}

void Engine::parallel_end(ThreadState &t, ompt_data_t *parallel_data, const void *codeptr) {
  need_begun(t, "parallel_end");
  if (t.parallels.empty()) {
    violation(t, "parallel.pairing", "parallel_end",
              "parallel_end with no open parallel_begin on this thread: parallel_data=%p "
              "(id %llu) codeptr=%p",
              (void *)parallel_data,
              (unsigned long long)(parallel_data ? parallel_data->value : 0), codeptr);
    return;
  }
  ParallelRec top = t.parallels.back();
  t.parallels.pop_back();
  uint64_t id = parallel_data ? parallel_data->value : 0;
  if (id != top.id)
    violation(t, "parallel.id-consistency", "parallel_end",
              "parallel_data=%p (id %llu), the innermost open region began with %p (id %llu) "
              "codeptr=%p",
              (void *)parallel_data, (unsigned long long)id, (void *)top.parallel_data,
              (unsigned long long)top.id, codeptr);
  else if (top.parallel_data != parallel_data)
    // The same id through another object: a tool that keeps the pointer
    // (not the value) would lose the region.
    violation(t, "parallel.data-pointer-changed", "parallel_end",
              "parallel_data=%p at end, %p at begin (same id %llu) codeptr=%p",
              (void *)parallel_data, (void *)top.parallel_data, (unsigned long long)id,
              codeptr);
}

void Engine::implicit_task(ThreadState &t, ompt_scope_endpoint_t endpoint,
                           ompt_data_t *parallel_data, ompt_data_t *task_data,
                           unsigned parallelism, unsigned index, int flags) {
  need_begun(t, "implicit_task");
  if (endpoint == ompt_scope_begin) {
    if (task_data) task_data->value = kImplicitBit | next_id_++;
    bool initial = flags & ompt_task_initial;
    if (!initial && index >= parallelism)
      violation(t, "implicit_task.index", "implicit_task",
                "index=%u outside [0, %u) parallel_data=%p (id %llu)", index, parallelism,
                (void *)parallel_data,
                (unsigned long long)(parallel_data ? parallel_data->value : 0));
    t.implicits.push_back(
        {parallel_data, task_data, task_id(task_data), index, parallelism, flags});
    check_thread_data(t, "implicit_task");
    check_initial_task_info(t, "implicit_task");
    if (!initial && inquiry_.get_parallel_info) {
      ompt_data_t *pd = nullptr;
      int size = 0;
      if (inquiry_.get_parallel_info(0, &pd, &size) != 2 || pd != parallel_data ||
          unsigned(size) != parallelism)
        violation(t, "inquiry.get_parallel_info", "implicit_task",
                  "ompt_get_parallel_info(0) gave parallel_data=%p team_size=%d, the "
                  "callback parallel_data=%p actual_parallelism=%u",
                  (void *)pd, size, (void *)parallel_data, parallelism);
    }
    if (inquiry_.get_task_info) {
      int fl = 0;
      ompt_data_t *td = nullptr;
      if (inquiry_.get_task_info(0, &fl, &td, nullptr, nullptr, nullptr) != 2 ||
          td != task_data)
        violation(t, "inquiry.get_task_info", "implicit_task",
                  "ompt_get_task_info(0) gave task_data=%p, the callback %p", (void *)td,
                  (void *)task_data);
    }
    return;
  }
  if (t.implicits.empty()) {
    violation(t, "implicit_task.pairing", "implicit_task",
              "implicit_task end with none begun on this thread: task_data=%p",
              (void *)task_data);
    return;
  }
  ImplicitRec top = t.implicits.back();
  t.implicits.pop_back();
  // 5.1 and 5.2: "For the implicit-task-end and the initial-task-end
  // events, this argument is NULL" (5.0 passed the region; tools written
  // for it may still read it, see docs/ompt.md).
  if (parallel_data)
    violation(t, "implicit_task.end-parallel-data", "implicit_task",
              "%s end with parallel_data=%p (id %llu), not NULL index=%u",
              (flags & ompt_task_initial) ? "initial-task" : "implicit-task",
              (void *)parallel_data, (unsigned long long)parallel_data->value, index);
  if (task_id(task_data) != top.task_id ||
      (parallel_data && parallel_data != top.parallel_data))
    violation(t, "implicit_task.pairing", "implicit_task",
              "end with parallel_data=%p task_data=%p (id %#llx), begun with "
              "parallel_data=%p task_data=%p (id %#llx) index=%u",
              (void *)parallel_data, (void *)task_data,
              (unsigned long long)task_id(task_data), (void *)top.parallel_data,
              (void *)top.task_data, (unsigned long long)top.task_id, top.index);
  else if (task_data != top.task_data)
    violation(t, "implicit_task.data-pointer-changed", "implicit_task",
              "end with task_data=%p, begun with %p (same id %#llx) index=%u",
              (void *)task_data, (void *)top.task_data, (unsigned long long)top.task_id,
              top.index);
}

// ---- synchronization regions -------------------------------------------------

void Engine::sync_region(ThreadState &t, int kind, ompt_scope_endpoint_t endpoint,
                         ompt_data_t *task_data, const void *codeptr) {
  need_begun(t, "sync_region");
  check_codeptr(t, "sync_region", codeptr, kind, endpoint);
  if (endpoint == ompt_scope_begin) {
    check_thread_data(t, "sync_region");
    t.syncs.push_back({kind, task_data, false, codeptr});
    return;
  }
  if (t.syncs.empty()) {
    violation(t, "sync_region.nesting", "sync_region",
              "end (kind %d) with no open sync_region on this thread codeptr=%p", kind,
              codeptr);
    return;
  }
  SyncRec top = t.syncs.back();
  t.syncs.pop_back();
  if (top.kind != kind)
    violation(t, "sync_region.nesting", "sync_region",
              "end of kind %d, the innermost open region is of kind %d codeptr=%p", kind,
              top.kind, codeptr);
  else if (top.waiting)
    violation(t, "sync_region.nesting", "sync_region",
              "end (kind %d) while its sync_region_wait is still open codeptr=%p", kind,
              codeptr);
}

void Engine::sync_region_wait(ThreadState &t, int kind, ompt_scope_endpoint_t endpoint,
                              const void *codeptr) {
  need_begun(t, "sync_region_wait");
  if (t.syncs.empty()) {
    violation(t, "sync_region_wait.inside-region", "sync_region_wait",
              "%s (kind %d) outside any sync_region codeptr=%p",
              endpoint == ompt_scope_begin ? "begin" : "end", kind, codeptr);
    return;
  }
  SyncRec &top = t.syncs.back();
  if (top.kind != kind) {
    violation(t, "sync_region_wait.inside-region", "sync_region_wait",
              "%s of kind %d inside a sync_region of kind %d codeptr=%p",
              endpoint == ompt_scope_begin ? "begin" : "end", kind, top.kind, codeptr);
    return;
  }
  bool begin = endpoint == ompt_scope_begin;
  if (top.waiting == begin)
    violation(t, "sync_region_wait.pairing", "sync_region_wait",
              "%s (kind %d) %s codeptr=%p", begin ? "begin" : "end", kind,
              begin ? "while a wait of this region is open" : "with no open wait", codeptr);
  top.waiting = begin;
}

void Engine::sync_parallel_data(ThreadState &t, const char *event, int kind,
                                ompt_scope_endpoint_t endpoint, ompt_data_t *parallel_data) {
  // Past the barrier the primary may end the region and the tool free its
  // data, so the ends carry none (6.0 §34.7.4; 5.1 and 5.2: NULL "for the
  // barrier-end event at the end of a parallel region").
  if (endpoint == ompt_scope_end && kind == ompt_sync_region_barrier_implicit_parallel &&
      parallel_data)
    violation(t, "sync_region.implicit-barrier-end-parallel-data", event,
              "end of the implicit barrier of a parallel region with parallel_data=%p "
              "(id %llu), not NULL",
              (void *)parallel_data, (unsigned long long)parallel_data->value);
}

// ---- mutexes -------------------------------------------------------------------

static int mutex_family(int kind) {
  if (kind == ompt_mutex_test_lock) return ompt_mutex_lock;
  if (kind == ompt_mutex_test_nest_lock) return ompt_mutex_nest_lock;
  return kind;
}

static MutexRec *find_mutex(ThreadState &t, int family, ompt_wait_id_t id) {
  for (auto &m : t.mutexes)
    if (m.family == family && m.wait_id == id) return &m;
  return nullptr;
}

void Engine::mutex_acquire(ThreadState &t, int kind, ompt_wait_id_t wait_id,
                           const void *codeptr) {
  need_begun(t, "mutex_acquire");
  check_codeptr(t, "mutex_acquire", codeptr, kind);
  int family = mutex_family(kind);
  bool test = kind == ompt_mutex_test_lock || kind == ompt_mutex_test_nest_lock;
  MutexRec *m = find_mutex(t, family, wait_id);
  if (m && m->state == MutexState::acquiring) {
    // A test routine that failed leaves its acquire without an acquired.
    if (!m->test)
      violation(t, "mutex.order", "mutex_acquire",
                "kind=%d wait_id=%llu: a second mutex_acquire before mutex_acquired (a "
                "failed test routine reported with a non-test kind looks so) codeptr=%p",
                kind, (unsigned long long)wait_id, codeptr);
    m->test = test;
    m->codeptr = codeptr;
    return;
  }
  if (m) return;  // a nest lock's owner asks again: nest_lock events follow
  t.mutexes.push_back({family, wait_id, MutexState::acquiring, test, 0, codeptr});
}

void Engine::mutex_acquired(ThreadState &t, int kind, ompt_wait_id_t wait_id,
                            const void *codeptr) {
  need_begun(t, "mutex_acquired");
  MutexRec *m = find_mutex(t, mutex_family(kind), wait_id);
  if (!m || m->state != MutexState::acquiring) {
    violation(t, "mutex.order", "mutex_acquired",
              "kind=%d wait_id=%llu: %s codeptr=%p", kind, (unsigned long long)wait_id,
              m ? "acquired while already held" : "no mutex_acquire before it", codeptr);
    if (!m) t.mutexes.push_back({mutex_family(kind), wait_id, MutexState::held, false, 1, codeptr});
    return;
  }
  m->state = MutexState::held;
  m->levels = 1;
}

void Engine::mutex_released(ThreadState &t, int kind, ompt_wait_id_t wait_id,
                            const void *codeptr) {
  need_begun(t, "mutex_released");
  int family = mutex_family(kind);
  MutexRec *m = find_mutex(t, family, wait_id);
  if (!m || m->state != MutexState::held) {
    violation(t, "mutex.order", "mutex_released",
              "kind=%d wait_id=%llu: released but not held by this thread codeptr=%p", kind,
              (unsigned long long)wait_id, codeptr);
  } else if (family == ompt_mutex_nest_lock && m->levels != 1) {
    violation(t, "mutex.order", "mutex_released",
              "kind=%d wait_id=%llu: released with %d nesting levels still held codeptr=%p",
              kind, (unsigned long long)wait_id, m->levels - 1, codeptr);
  }
  if (m) t.mutexes.erase(t.mutexes.begin() + (m - t.mutexes.data()));
}

void Engine::nest_lock(ThreadState &t, ompt_scope_endpoint_t endpoint, ompt_wait_id_t wait_id) {
  need_begun(t, "nest_lock");
  MutexRec *m = find_mutex(t, ompt_mutex_nest_lock, wait_id);
  if (!m || m->state != MutexState::held) {
    violation(t, "mutex.order", "nest_lock",
              "%s wait_id=%llu: the nest lock is not held by this thread",
              endpoint == ompt_scope_begin ? "begin" : "end", (unsigned long long)wait_id);
    return;
  }
  if (endpoint == ompt_scope_begin) {
    ++m->levels;
  } else if (m->levels <= 1) {
    violation(t, "mutex.order", "nest_lock",
              "end wait_id=%llu with no further level held (mutex_released expected)",
              (unsigned long long)wait_id);
  } else {
    --m->levels;
  }
}

// ---- tasks ----------------------------------------------------------------------

void Engine::task_create(ThreadState &t, ompt_data_t *new_task_data, int flags,
                         const void *codeptr) {
  need_begun(t, "task_create");
  check_codeptr(t, "task_create", codeptr, flags);
  if (!new_task_data) {
    violation(t, "task.lifecycle", "task_create", "new_task_data=NULL codeptr=%p", codeptr);
    return;
  }
  uint64_t id = next_id_++;
  new_task_data->value = id;
  std::lock_guard<std::mutex> g(tasks_lock_);
  tasks_[id] = TaskState::created;
  if (flags & ompt_task_taskwait) taskwait_tasks_.insert(id);
}

void Engine::task_schedule(ThreadState &t, ompt_data_t *prior, int prior_status,
                           ompt_data_t *next) {
  need_begun(t, "task_schedule");
  uint64_t pid = task_id(prior), nid = task_id(next);
  std::lock_guard<std::mutex> g(tasks_lock_);
  if (prior && !(pid & kImplicitBit)) {
    auto it = tasks_.find(pid);
    if (it == tasks_.end()) {
      violation(t, "task.lifecycle", "task_schedule",
                "prior task %p (id %llu, status %d) was never created", (void *)prior,
                (unsigned long long)pid, prior_status);
    } else if (prior_status == ompt_taskwait_complete || taskwait_tasks_.count(pid)) {
      // The task of a taskwait with depend clauses completes as
      // (taskwait task, ompt_taskwait_complete, NULL) (6.0 §17.5, §34.5.2);
      // no other task completes so. A runtime that switches to the
      // taskwait task first is told at its completion.
      const bool taskwait_task = taskwait_tasks_.count(pid) != 0;
      if (!taskwait_task)
        violation(t, "task.taskwait-complete", "task_schedule",
                  "ompt_taskwait_complete for task id %llu, which was not created as a "
                  "taskwait task (ompt_task_taskwait)",
                  (unsigned long long)pid);
      else if (prior_status == ompt_taskwait_complete && next)
        violation(t, "task.taskwait-complete", "task_schedule",
                  "taskwait task id %llu completed with a next task %p (NULL expected)",
                  (unsigned long long)pid, (void *)next);
      else if (prior_status != ompt_taskwait_complete &&
               (prior_status == ompt_task_complete || prior_status == ompt_task_cancel))
        violation(t, "task.taskwait-complete", "task_schedule",
                  "taskwait task id %llu (taskwait with depend) completed with status %d, "
                  "not ompt_taskwait_complete (%d)",
                  (unsigned long long)pid, prior_status, int(ompt_taskwait_complete));
      if (it->second == TaskState::done)
        violation(t, "task.lifecycle", "task_schedule",
                  "task id %llu (status %d) after it completed", (unsigned long long)pid,
                  prior_status);
      if (prior_status == ompt_taskwait_complete || prior_status == ompt_task_complete ||
          prior_status == ompt_task_cancel)
        it->second = TaskState::done;
      else
        it->second = TaskState::suspended;
      if (prior_status == ompt_taskwait_complete) return;
    } else if (prior_status == ompt_task_late_fulfill) {
      if (it->second != TaskState::detached)
        violation(t, "task.lifecycle", "task_schedule",
                  "late_fulfill of task id %llu that is not detached", (unsigned long long)pid);
      it->second = TaskState::done;
    } else if (prior_status == ompt_task_early_fulfill) {
      // The task-fulfill event, on the fulfilling thread, before the body
      // finished (it may not even have started): no switch, the task's own
      // events go on; its body then ends with ompt_task_complete.
      if (next)
        violation(t, "task.lifecycle", "task_schedule",
                  "early_fulfill of task id %llu with a next task %p", (unsigned long long)pid,
                  (void *)next);
      if (it->second == TaskState::done || it->second == TaskState::detached ||
          !early_fulfilled_.insert(pid).second)
        violation(t, "task.lifecycle", "task_schedule",
                  "early_fulfill of task id %llu after its body ended or a second time",
                  (unsigned long long)pid);
      return;
    } else if (it->second == TaskState::done) {
      violation(t, "task.lifecycle", "task_schedule",
                "task id %llu (status %d) after it completed", (unsigned long long)pid,
                prior_status);
    } else if (it->second != TaskState::running) {
      violation(t, "task.lifecycle", "task_schedule",
                "task id %llu switched away from (status %d) while not running",
                (unsigned long long)pid, prior_status);
    } else if (prior_status == ompt_task_complete || prior_status == ompt_task_cancel) {
      it->second = TaskState::done;
    } else if (prior_status == ompt_task_detach) {
      if (early_fulfilled_.count(pid))
        violation(t, "task.lifecycle", "task_schedule",
                  "task id %llu ends detached after its event was fulfilled (early_fulfill)",
                  (unsigned long long)pid);
      it->second = TaskState::detached;
    } else {
      it->second = TaskState::suspended;
    }
  }
  if (next && !(nid & kImplicitBit)) {
    auto it = tasks_.find(nid);
    if (it == tasks_.end())
      violation(t, "task.lifecycle", "task_schedule",
                "next task %p (id %llu) scheduled but never created", (void *)next,
                (unsigned long long)nid);
    else if (it->second == TaskState::done || it->second == TaskState::detached)
      violation(t, "task.lifecycle", "task_schedule",
                "next task id %llu scheduled after it completed", (unsigned long long)nid);
    else if (it->second == TaskState::running)
      violation(t, "task.lifecycle", "task_schedule",
                "next task id %llu scheduled while already running", (unsigned long long)nid);
    else
      it->second = TaskState::running;
  }
}

void Engine::task_discarded(ThreadState &t, ompt_data_t *task_data) {
  uint64_t id = task_id(task_data);
  if (id & kImplicitBit) return;
  std::lock_guard<std::mutex> g(tasks_lock_);
  auto it = tasks_.find(id);
  // A runtime that takes the task up first (a switch to it) ends it with
  // ompt_task_cancel; one that reports the discard alone ends it here.
  if (it != tasks_.end() && it->second == TaskState::created) it->second = TaskState::done;
}

// ---- worksharing -----------------------------------------------------------------

void Engine::work(ThreadState &t, int type, ompt_scope_endpoint_t endpoint,
                  ompt_data_t *parallel_data, ompt_data_t *task_data, const void *codeptr) {
  need_begun(t, "work");
  check_codeptr(t, "work", codeptr, type, endpoint);
  if (endpoint == ompt_scope_begin) {
    check_thread_data(t, "work");
    t.works.push_back({type, task_data, codeptr});
    return;
  }
  if (t.works.empty()) {
    violation(t, "work.pairing", "work", "end (type %d) with no open work region codeptr=%p",
              type, codeptr);
    return;
  }
  WorkRec top = t.works.back();
  t.works.pop_back();
  if (top.type != type || top.task_data != task_data)
    violation(t, "work.pairing", "work",
              "end type %d task_data=%p, the open region is type %d task_data=%p codeptr=%p",
              type, (void *)task_data, top.type, (void *)top.task_data, codeptr);
}

void Engine::dispatch(ThreadState &t, int kind) {
  need_begun(t, "dispatch");
  if (t.works.empty())
    violation(t, "dispatch.inside-work", "dispatch", "kind=%d outside any work region", kind);
}

void Engine::error(ThreadState &t, int severity) {
  need_begun(t, "error");
  if (severity == ompt_fatal) fatal_error_ = true;
}

// ---- end of run ------------------------------------------------------------------

void Engine::finish() {
  // A fatal error ends the program inside its regions: nothing closes them.
  if (fatal_error_) return;
  std::vector<ThreadState *> threads;
  {
    std::lock_guard<std::mutex> g(threads_lock_);
    threads = threads_;
  }
  for (ThreadState *t : threads) {
    // A thread that delivered no event at all was never seen by the runtime.
    if (t->begun && !t->ended)
      violation(*t, "finalize.thread-not-ended", "finalize",
                "thread_begin without thread_end before the finalizer");
    if (!t->parallels.empty())
      violation(*t, "finalize.open-parallel", "finalize", "%zu parallel region(s) open",
                t->parallels.size());
    if (!t->implicits.empty())
      violation(*t, "finalize.open-implicit-task", "finalize",
                "%zu implicit task(s) open, innermost flags=0x%x index=%u",
                t->implicits.size(), t->implicits.back().flags, t->implicits.back().index);
    if (!t->syncs.empty())
      violation(*t, "finalize.open-sync-region", "finalize",
                "%zu sync region(s) open, innermost kind=%d", t->syncs.size(),
                t->syncs.back().kind);
    if (!t->works.empty())
      violation(*t, "finalize.open-work", "finalize", "%zu work region(s) open",
                t->works.size());
    for (auto &m : t->mutexes)
      if (m.state == MutexState::held)
        violation(*t, "finalize.mutex-held", "finalize", "kind=%d wait_id=%llu held",
                  m.family, (unsigned long long)m.wait_id);
    finish_targets(*t);
  }
  std::lock_guard<std::mutex> g(tasks_lock_);
  for (auto &kv : tasks_)
    if (kv.second != TaskState::done) {
      ThreadState none;
      none.number = -1;
      violation(none, "finalize.task-not-completed", "finalize",
                "task id %llu created but not completed (state %d)",
                (unsigned long long)kv.first, int(kv.second));
    }
}

uint64_t Engine::violation_count() {
  std::lock_guard<std::mutex> g(rules_lock_);
  uint64_t n = 0;
  for (auto &kv : rules_) n += kv.second.count;
  return n;
}

uint64_t Engine::violation_count(const std::string &rule) {
  std::lock_guard<std::mutex> g(rules_lock_);
  auto it = rules_.find(rule);
  return it == rules_.end() ? 0 : it->second.count;
}

std::string Engine::report(const std::string &runtime) {
  uint64_t totals[kMaxCallback] = {};
  size_t nthreads;
  {
    std::lock_guard<std::mutex> g(threads_lock_);
    nthreads = size_t(thread_numbers_);
    for (int i = 0; i < kMaxCallback; ++i) totals[i] = retired_counts_[i];
    for (ThreadState *t : threads_)
      for (int i = 0; i < kMaxCallback; ++i)
        totals[i] += t->counts[i].load(std::memory_order_relaxed);
  }
  std::string out;
  char line[800];
  snprintf(line, sizeof line, "kite check: runtime \"%s\", %zu threads\n", runtime.c_str(),
           nthreads);
  out += line;
  uint64_t all = 0;
  for (int i = 1; i < kMaxCallback; ++i) all += totals[i];
  snprintf(line, sizeof line, "kite check: %llu events\n", (unsigned long long)all);
  out += line;
  for (int i = 1; i < kMaxCallback; ++i)
    if (totals[i]) {
      snprintf(line, sizeof line, "  %-20s %llu\n", callback_name(i),
               (unsigned long long)totals[i]);
      out += line;
    }
  uint64_t n = violation_count();
  snprintf(line, sizeof line, "kite check: %llu violations\n", (unsigned long long)n);
  out += line;
  std::lock_guard<std::mutex> g(rules_lock_);
  for (auto &kv : rules_) {
    snprintf(line, sizeof line, "  %-32s %llu  first: %s\n", kv.first.c_str(),
             (unsigned long long)kv.second.count, kv.second.example.c_str());
    out += line;
  }
  return out;
}

}  // namespace kite_check
