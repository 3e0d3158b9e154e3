// Feeds the rule engine of `kite check` hand-made event sequences: a correct
// one must give no violation, each broken one exactly the rule it breaks.
// This is how the checker is proven able to fail without a broken runtime.
#include <check_rules.h>

#include <cstdio>
#include <cstdlib>

using kite_check::Engine;
using kite_check::ThreadState;

static int failures;

static void expect(Engine &e, const char *rule, uint64_t n, int line) {
  uint64_t got = rule ? e.violation_count(rule) : e.violation_count();
  if (got != n) {
    fprintf(stderr, "line %d: %s: %llu violations, expected %llu\n%s", line,
            rule ? rule : "all", (unsigned long long)got, (unsigned long long)n,
            e.report("unit").c_str());
    ++failures;
  }
}
#define EXPECT(e, rule, n) expect(e, rule, n, __LINE__)

static const void *const code = (const void *)0x1234;

// A runtime's ompt_get_task_info as a unit test fakes it: level 0 is an
// initial task whose parallel_data is `initial_pd` (NULL is the answer
// 6.0 §36.15 gives), and no level above it.
static ompt_data_t *initial_pd;
static ompt_data_t initial_task_data;
static int fake_task_info(int level, int *flags, ompt_data_t **task_data, ompt_frame_t **,
                          ompt_data_t **parallel_data, int *thread_num) {
  if (level != 0) return 0;
  if (flags) *flags = ompt_task_initial;
  if (task_data) *task_data = &initial_task_data;
  if (parallel_data) *parallel_data = initial_pd;
  if (thread_num) *thread_num = 0;
  return 2;
}

int main() {
  {  // A well-formed region with a barrier, a loop, a task and a lock.
    Engine e;
    ThreadState &t = *e.new_thread();
    ompt_data_t thr{}, par{}, impl{}, task{};
    e.thread_begin(t, ompt_thread_initial, &thr);
    e.parallel_begin(t, &par, 1, code);
    e.implicit_task(t, ompt_scope_begin, &par, &impl, 1, 0, ompt_task_implicit);
    e.work(t, ompt_work_loop_dynamic, ompt_scope_begin, &par, &impl, code);
    e.dispatch(t, ompt_dispatch_ws_loop_chunk);
    e.work(t, ompt_work_loop_dynamic, ompt_scope_end, &par, &impl, code);
    e.task_create(t, &task, ompt_task_explicit, code);
    e.sync_region(t, ompt_sync_region_barrier_explicit, ompt_scope_begin, &impl, code);
    e.sync_region_wait(t, ompt_sync_region_barrier_explicit, ompt_scope_begin, code);
    e.task_schedule(t, &impl, ompt_task_switch, &task);
    e.mutex_acquire(t, ompt_mutex_lock, 42, code);
    e.mutex_acquired(t, ompt_mutex_lock, 42, code);
    e.mutex_released(t, ompt_mutex_lock, 42, code);
    e.task_schedule(t, &task, ompt_task_complete, &impl);
    e.sync_region_wait(t, ompt_sync_region_barrier_explicit, ompt_scope_end, code);
    e.sync_region(t, ompt_sync_region_barrier_explicit, ompt_scope_end, &impl, code);
    e.implicit_task(t, ompt_scope_end, nullptr, &impl, 0, 0, ompt_task_implicit);
    e.parallel_end(t, &par, code);
    e.thread_end(t, &thr);
    e.finish();
    EXPECT(e, nullptr, 0);
  }
  {  // parallel_end with another region's data, and one never begun.
    Engine e;
    ThreadState &t = *e.new_thread();
    ompt_data_t thr{}, a{}, b{};
    e.thread_begin(t, ompt_thread_initial, &thr);
    e.parallel_begin(t, &a, 2, code);
    e.parallel_end(t, &b, code);
    e.parallel_end(t, &a, code);
    EXPECT(e, "parallel.id-consistency", 1);
    EXPECT(e, "parallel.pairing", 1);
  }
  {  // A NULL codeptr_ra, an event before thread_begin, thread_end twice.
    Engine e;
    ThreadState &t = *e.new_thread();
    ompt_data_t thr{}, par{};
    e.parallel_begin(t, &par, 2, nullptr);
    EXPECT(e, "codeptr.null.parallel_begin", 1);
    EXPECT(e, "thread.event-outside-thread", 1);
    e.thread_begin(t, ompt_thread_initial, &thr);
    e.thread_end(t, &thr);
    e.thread_end(t, &thr);
    EXPECT(e, "thread.pairing", 1);
  }
  {  // Implicit task index out of range; end with another task's data.
    Engine e;
    ThreadState &t = *e.new_thread();
    ompt_data_t thr{}, par{}, x{}, y{};
    e.thread_begin(t, ompt_thread_worker, &thr);
    e.implicit_task(t, ompt_scope_begin, &par, &x, 2, 2, ompt_task_implicit);
    EXPECT(e, "implicit_task.index", 1);
    e.implicit_task(t, ompt_scope_end, nullptr, &y, 0, 2, ompt_task_implicit);
    EXPECT(e, "implicit_task.pairing", 1);
  }
  {  // A wait outside its region, a region ended with the wrong kind.
    Engine e;
    ThreadState &t = *e.new_thread();
    ompt_data_t thr{}, task{};
    e.thread_begin(t, ompt_thread_initial, &thr);
    e.sync_region_wait(t, ompt_sync_region_taskwait, ompt_scope_begin, code);
    EXPECT(e, "sync_region_wait.inside-region", 1);
    e.sync_region(t, ompt_sync_region_taskwait, ompt_scope_begin, &task, code);
    e.sync_region(t, ompt_sync_region_taskgroup, ompt_scope_end, &task, code);
    EXPECT(e, "sync_region.nesting", 1);
  }
  {  // Mutex events out of order; a failed test lock is not one.
    Engine e;
    ThreadState &t = *e.new_thread();
    ompt_data_t thr{};
    e.thread_begin(t, ompt_thread_initial, &thr);
    e.mutex_acquire(t, ompt_mutex_test_lock, 7, code);
    e.mutex_acquire(t, ompt_mutex_lock, 7, code);
    e.mutex_acquired(t, ompt_mutex_lock, 7, code);
    e.mutex_released(t, ompt_mutex_lock, 7, code);
    EXPECT(e, "mutex.order", 0);
    e.mutex_released(t, ompt_mutex_critical, 8, code);
    e.mutex_acquired(t, ompt_mutex_critical, 9, code);
    EXPECT(e, "mutex.order", 2);
  }
  {  // A task scheduled before it was created, and after it completed.
    Engine e;
    ThreadState &t = *e.new_thread();
    ompt_data_t thr{}, impl{}, ghost{}, task{};
    e.thread_begin(t, ompt_thread_initial, &thr);
    e.implicit_task(t, ompt_scope_begin, nullptr, &impl, 1, 1, ompt_task_initial);
    ghost.value = 999;
    e.task_schedule(t, &impl, ompt_task_switch, &ghost);
    EXPECT(e, "task.lifecycle", 1);
    e.task_create(t, &task, ompt_task_explicit, code);
    e.task_schedule(t, &impl, ompt_task_switch, &task);
    e.task_schedule(t, &task, ompt_task_complete, &impl);
    e.task_schedule(t, &impl, ompt_task_switch, &task);
    EXPECT(e, "task.lifecycle", 2);
  }
  {  // Detach: an event fulfilled before the task even started (the
     // task-fulfill event, early_fulfill, on the fulfilling thread), then the
     // task runs and completes; another fulfilled after its body ended.
    Engine e;
    ThreadState &t = *e.new_thread();
    ompt_data_t thr{}, impl{}, a{}, b{};
    e.thread_begin(t, ompt_thread_initial, &thr);
    e.implicit_task(t, ompt_scope_begin, nullptr, &impl, 1, 1, ompt_task_initial);
    e.task_create(t, &a, ompt_task_explicit, code);
    e.task_create(t, &b, ompt_task_explicit, code);
    e.task_schedule(t, &a, ompt_task_early_fulfill, nullptr);
    e.task_schedule(t, &impl, ompt_task_switch, &a);
    e.task_schedule(t, &a, ompt_task_complete, &impl);
    e.task_schedule(t, &impl, ompt_task_switch, &b);
    e.task_schedule(t, &b, ompt_task_detach, &impl);
    e.task_schedule(t, &b, ompt_task_late_fulfill, nullptr);
    e.implicit_task(t, ompt_scope_end, nullptr, &impl, 0, 1, ompt_task_initial);
    e.thread_end(t, &thr);
    e.finish();
    EXPECT(e, nullptr, 0);
  }
  {  // Broken: fulfilled twice; ending detached after an early fulfill.
    Engine e;
    ThreadState &t = *e.new_thread();
    ompt_data_t thr{}, impl{}, c{};
    e.thread_begin(t, ompt_thread_initial, &thr);
    e.implicit_task(t, ompt_scope_begin, nullptr, &impl, 1, 1, ompt_task_initial);
    e.task_create(t, &c, ompt_task_explicit, code);
    e.task_schedule(t, &c, ompt_task_early_fulfill, nullptr);
    e.task_schedule(t, &c, ompt_task_early_fulfill, nullptr);
    EXPECT(e, "task.lifecycle", 1);
    e.task_schedule(t, &impl, ompt_task_switch, &c);
    e.task_schedule(t, &c, ompt_task_detach, &impl);
    EXPECT(e, "task.lifecycle", 2);
  }
  {  // A fatal error ends the program inside a region: nothing open is
     // reported at the finalizer then, but is without it.
    for (int fatal = 0; fatal < 2; ++fatal) {
      Engine e;
      ThreadState &t = *e.new_thread();
      ompt_data_t thr{}, par{}, impl{};
      e.thread_begin(t, ompt_thread_initial, &thr);
      e.parallel_begin(t, &par, 1, code);
      e.implicit_task(t, ompt_scope_begin, &par, &impl, 1, 0, ompt_task_implicit);
      e.error(t, fatal ? ompt_fatal : ompt_warning);
      e.finish();
      EXPECT(e, nullptr, fatal ? 0 : 3);
    }
  }
  {  // A thread that ended with nothing open is retired and its record
     // reused; one that ended inside a region is kept for the finalizer.
    Engine e;
    ThreadState &a = *e.new_thread();
    ompt_data_t thr{}, par{};
    a.counts[ompt_callback_thread_begin] = 1;
    e.thread_begin(a, ompt_thread_other, &thr);
    e.thread_end(a, &thr);
    if (!e.retire(a) || e.new_thread() != &a) {
      fprintf(stderr, "line %d: an ended thread's record was not reused\n", __LINE__);
      ++failures;
    }
    e.thread_begin(a, ompt_thread_other, &thr);
    e.parallel_begin(a, &par, 1, code);
    e.thread_end(a, &thr);
    if (e.retire(a)) {
      fprintf(stderr, "line %d: a thread with an open region was retired\n", __LINE__);
      ++failures;
    }
    e.finish();
    EXPECT(e, "finalize.open-parallel", 1);
    if (e.report("unit").find("2 threads") == std::string::npos ||
        e.report("unit").find("thread_begin         1") == std::string::npos) {
      fprintf(stderr, "line %d: report lost a retired thread:\n%s", __LINE__,
              e.report("unit").c_str());
      ++failures;
    }
  }
  {  // Work regions that do not pair, a dispatch outside any.
    Engine e;
    ThreadState &t = *e.new_thread();
    ompt_data_t thr{}, impl{};
    e.thread_begin(t, ompt_thread_initial, &thr);
    e.dispatch(t, ompt_dispatch_ws_loop_chunk);
    EXPECT(e, "dispatch.inside-work", 1);
    e.work(t, ompt_work_sections, ompt_scope_begin, nullptr, &impl, code);
    e.work(t, ompt_work_loop, ompt_scope_end, nullptr, &impl, code);
    EXPECT(e, "work.pairing", 1);
    e.work(t, ompt_work_loop, ompt_scope_begin, nullptr, &impl, code);
    e.finish();
    EXPECT(e, "finalize.open-work", 1);
  }
  {  // ompt_set_callback's answers: always-only callbacks must get always.
    Engine e;
    e.set_callback_answer(ompt_callback_thread_begin, ompt_set_always);
    e.set_callback_answer(ompt_callback_work, ompt_set_sometimes);  // any answer allowed
    e.set_callback_answer(ompt_callback_mutex_acquire, ompt_set_never);
    EXPECT(e, nullptr, 0);
    e.set_callback_answer(ompt_callback_parallel_begin, ompt_set_sometimes);
    e.set_callback_answer(ompt_callback_implicit_task, ompt_set_sometimes_paired);
    e.set_callback_answer(ompt_callback_error, ompt_set_never);
    EXPECT(e, "set_callback.always.parallel_begin", 1);
    EXPECT(e, "set_callback.always.implicit_task", 1);
    EXPECT(e, "set_callback.always.error", 1);
    EXPECT(e, nullptr, 3);
  }
  {  // An initial task's parallel_data from ompt_get_task_info: NULL only.
    kite_check::Inquiry inq;
    inq.get_task_info = fake_task_info;
    ompt_data_t thr{}, implicit_region{};
    ompt_data_t &task = initial_task_data;
    initial_pd = nullptr;
    Engine good(inq);
    ThreadState &g = *good.new_thread();
    good.thread_begin(g, ompt_thread_initial, &thr);
    good.implicit_task(g, ompt_scope_begin, &implicit_region, &task, 1, 1, ompt_task_initial);
    EXPECT(good, nullptr, 0);
    initial_pd = &implicit_region;
    Engine bad(inq);
    ThreadState &b = *bad.new_thread();
    bad.thread_begin(b, ompt_thread_initial, &thr);
    bad.implicit_task(b, ompt_scope_begin, &implicit_region, &task, 1, 1, ompt_task_initial);
    EXPECT(bad, "inquiry.initial-task-parallel-data", 1);
    initial_pd = nullptr;
  }
  {  // implicit-task end and initial-task end: parallel_data NULL (5.1+).
    Engine e;
    ThreadState &t = *e.new_thread();
    ompt_data_t thr{}, par{}, impl{}, init{};
    e.thread_begin(t, ompt_thread_initial, &thr);
    e.implicit_task(t, ompt_scope_begin, &par, &init, 1, 1, ompt_task_initial);
    e.implicit_task(t, ompt_scope_begin, &par, &impl, 1, 0, ompt_task_implicit);
    e.implicit_task(t, ompt_scope_end, &par, &impl, 0, 0, ompt_task_implicit);
    e.implicit_task(t, ompt_scope_end, &par, &init, 0, 1, ompt_task_initial);
    EXPECT(e, "implicit_task.end-parallel-data", 2);
    EXPECT(e, nullptr, 2);
  }
  {  // The implicit barrier that ends a region: its ends carry no parallel_data.
    Engine e;
    ThreadState &t = *e.new_thread();
    ompt_data_t thr{}, par{};
    e.thread_begin(t, ompt_thread_initial, &thr);
    const int k = ompt_sync_region_barrier_implicit_parallel;
    e.sync_parallel_data(t, "sync_region", k, ompt_scope_begin, &par);
    e.sync_parallel_data(t, "sync_region_wait", k, ompt_scope_begin, &par);
    e.sync_parallel_data(t, "sync_region_wait", k, ompt_scope_end, nullptr);
    e.sync_parallel_data(t, "sync_region", k, ompt_scope_end, nullptr);
    e.sync_parallel_data(t, "sync_region", ompt_sync_region_barrier_explicit, ompt_scope_end,
                         &par);  // other barriers: the region
    EXPECT(e, nullptr, 0);
    e.sync_parallel_data(t, "sync_region_wait", k, ompt_scope_end, &par);
    e.sync_parallel_data(t, "sync_region", k, ompt_scope_end, &par);
    EXPECT(e, "sync_region.implicit-barrier-end-parallel-data", 2);
  }
  {  // taskwait with depend: its task completes as taskwait_complete, next NULL.
    Engine e;
    ThreadState &t = *e.new_thread();
    ompt_data_t thr{}, impl{}, tw{}, tw2{}, tw3{}, task{};
    e.thread_begin(t, ompt_thread_initial, &thr);
    e.implicit_task(t, ompt_scope_begin, nullptr, &impl, 1, 1, ompt_task_initial);
    e.task_create(t, &tw, ompt_task_taskwait | ompt_task_undeferred, code);
    e.task_schedule(t, &tw, ompt_taskwait_complete, nullptr);
    EXPECT(e, nullptr, 0);
    // libomp 14's way: a switch to the taskwait task, then ompt_task_complete.
    e.task_create(t, &tw2, ompt_task_taskwait | ompt_task_undeferred, code);
    e.task_schedule(t, &impl, ompt_task_switch, &tw2);
    e.task_schedule(t, &tw2, ompt_task_complete, &impl);
    EXPECT(e, "task.taskwait-complete", 1);
    // A next task given, and taskwait_complete for an ordinary task.
    e.task_create(t, &tw3, ompt_task_taskwait | ompt_task_undeferred, code);
    e.task_schedule(t, &tw3, ompt_taskwait_complete, &impl);
    e.task_create(t, &task, ompt_task_explicit, code);
    e.task_schedule(t, &impl, ompt_task_switch, &task);
    e.task_schedule(t, &task, ompt_taskwait_complete, nullptr);
    EXPECT(e, "task.taskwait-complete", 3);
    EXPECT(e, "task.lifecycle", 0);
    e.implicit_task(t, ompt_scope_end, nullptr, &impl, 0, 1, ompt_task_initial);
    e.thread_end(t, &thr);
    e.finish();
    EXPECT(e, "finalize.task-not-completed", 0);
  }
  {  // Devices and device constructs: a well-formed target region on device 0
     // (host 2), then each pairing broken once.
    Engine e;
    e.set_initial_device(2);
    ThreadState &t = *e.new_thread();
    ompt_data_t thr{}, tgt{}, tgt2{}, other{};
    ompt_id_t op = 0, op2 = 0, sub = 0;
    e.thread_begin(t, ompt_thread_initial, &thr);
    e.device_initialize(t, 0);
    e.device_load(t, 0, 7);
    e.target(t, ompt_target, ompt_scope_begin, 0, &tgt, code);
    e.target_data_op(t, ompt_scope_begin, &tgt, &op, ompt_target_data_alloc, 2, 0);
    e.target_data_op(t, ompt_scope_end, &tgt, &op, ompt_target_data_alloc, 2, 0);
    e.target_map(t, &tgt, 1);
    e.target_submit(t, ompt_scope_begin, &tgt, &sub);
    e.target_submit(t, ompt_scope_end, &tgt, &sub);
    e.target(t, ompt_target, ompt_scope_end, 0, &tgt, code);
    e.target_data_op(t, ompt_scope_begin, nullptr, &op, ompt_target_data_transfer_to_device, 2, 0);
    e.target_data_op(t, ompt_scope_end, nullptr, &op, ompt_target_data_transfer_to_device, 2, 0);
    EXPECT(e, nullptr, 0);
    // An end with another construct's data, the wrong kind of data op end,
    // a submission and a map outside any construct, a data op naming a
    // construct that is not open.
    e.target(t, ompt_target, ompt_scope_begin, 0, &tgt2, code);
    e.target(t, ompt_target, ompt_scope_end, 0, &other, code);
    EXPECT(e, "target.pairing", 1);
    e.target_data_op(t, ompt_scope_begin, nullptr, &op, ompt_target_data_alloc, 2, 0);
    e.target_data_op(t, ompt_scope_end, nullptr, &op2, ompt_target_data_alloc, 2, 0);
    EXPECT(e, "target.data-op-pairing", 1);
    e.target_submit(t, ompt_scope_begin, &other, &sub);
    EXPECT(e, "target.submit-outside-target", 1);
    e.target_submit(t, ompt_scope_end, &tgt, &sub);
    EXPECT(e, "target.submit-pairing", 1);
    e.target_map(t, &other, 2);
    EXPECT(e, "target.map-outside-target", 1);
    e.target_data_op(t, ompt_scope_begin, &other, &op, ompt_target_data_alloc, 2, 0);
    EXPECT(e, "target.data-op-target", 1);
    // Device 1 was never initialized; device 0 is finalized, then named.
    e.target(t, ompt_target_update, ompt_scope_begin, 1, &tgt2, code);
    EXPECT(e, "device.not-initialized", 1);
    e.device_unload(t, 0, 7);
    e.device_unload(t, 0, 7);
    EXPECT(e, "device.unload-pairing", 1);
    e.device_finalize(t, 0);
    e.device_finalize(t, 0);
    EXPECT(e, "device.finalize-pairing", 1);
    e.device_initialize(t, 0);
    EXPECT(e, "device.initialize-once", 1);
    e.device_finalize(t, 0);
    e.target_data_op(t, ompt_scope_end, &other, &op, ompt_target_data_alloc, 2, 0);
    EXPECT(e, "device.event-after-finalize", 1);
    e.thread_end(t, &thr);
    e.finish();
    EXPECT(e, "finalize.open-target", 1);
  }
  if (failures) return 1;
  puts("rules_test: all sequences judged as expected");
  return 0;
}
