// The slow halves of the task emitters (events_task.h): they run only with
// a tool attached.
//
// Per task, a tool sees: task_create (with dependences, then one
// task_dependence per predecessor still live), task_schedule prior -> task
// when a thread starts its body, task_schedule task -> prior when the body
// returns (ompt_task_complete, or ompt_task_detach while its event is
// unfulfilled, then ompt_task_late_fulfill when it is).
#include "ompt/events_task.h"

#include "core/depend.h"
#include "core/wait.h"
#include "ompd/runtime/debug.h"
#include "ompt/ora.h"
#include "ompt/tr2.h"

namespace kite {
namespace ompt {

namespace {

int working_state(Thread* me) {
  return me->team ? ompt_state_work_parallel : ompt_state_work_serial;
}

void schedule(Task* prior, int status, Task* next) {
  auto cb = callback<ompt_callback_task_schedule_t>(ompt_callback_task_schedule);
  if (cb)
    cb(&prior->ompt.task_data, static_cast<ompt_task_status_t>(status),
       next ? &next->ompt.task_data : nullptr);
  tr2::task_schedule(prior, status, next);
}

// Kinds stored in gcc's omp_depend_t objects (depobj, inoutset).
ompt_dependence_type_t object_kind(uintptr_t k) {
  switch (k) {
    case 1: return ompt_dependence_type_in;
    case 2: return ompt_dependence_type_out;
    case 4: return ompt_dependence_type_mutexinoutset;
    case 5: return ompt_dependence_type_inoutset;
    default: return ompt_dependence_type_inout;
  }
}

// An out-like item on a null address is omp_all_memory (depend.h), which
// tools are told as such (5.2 ompt_dependence_type_t:
// ompt_dependence_type_out_all_memory, _inout_all_memory), with a null
// variable.
ompt_dependence_type_t out_like(void* addr, ompt_dependence_type_t kind) {
  if (addr) return kind;
  return kind == ompt_dependence_type_out ? ompt_dependence_type_out_all_memory
                                          : ompt_dependence_type_inout_all_memory;
}

// Translates a libgomp depend array. gcc passes out and inout items in one
// group it does not tell apart; both order the task after every earlier
// sibling item on the address, which is inout's meaning, so they are
// reported as inout.
void report_dependences(Task* t, void** depend) {
  auto cb = callback<ompt_callback_dependences_t>(ompt_callback_dependences);
  if (!cb) return;
  size_t n = depend_count(depend);
  ompt_dependence_t stack[32];
  ompt_dependence_t* deps =
      n <= 32 ? stack : static_cast<ompt_dependence_t*>(xmalloc(n * sizeof(ompt_dependence_t)));
  auto set = [&](size_t i, void* addr, ompt_dependence_type_t kind) {
    deps[i].variable.ptr = addr;
    deps[i].dependence_type = kind;
  };
  auto word = [&](size_t i) { return reinterpret_cast<uintptr_t>(depend[i]); };
  if (word(0)) {
    size_t nout = word(1);
    for (size_t i = 0; i < n; ++i)
      set(i, depend[2 + i],
          i < nout ? out_like(depend[2 + i], ompt_dependence_type_inout) : ompt_dependence_type_in);
  } else {
    size_t nout = word(2), nmtx = word(3), nin = word(4);
    size_t normal = nout + nmtx + nin;
    if (normal > n) normal = n;  // the core warned about it already
    for (size_t i = 0; i < n; ++i) {
      if (i < normal) {
        ompt_dependence_type_t kind = i < nout ? out_like(depend[5 + i], ompt_dependence_type_inout)
                                      : i < nout + nmtx ? ompt_dependence_type_mutexinoutset
                                                        : ompt_dependence_type_in;
        set(i, depend[5 + i], kind);
      } else {
        void** obj = static_cast<void**>(depend[5 + i]);
        ompt_dependence_type_t kind = object_kind(reinterpret_cast<uintptr_t>(obj[1]));
        if (kind == ompt_dependence_type_out || kind == ompt_dependence_type_inout)
          kind = out_like(obj[0], kind);
        set(i, obj[0], kind);
      }
    }
  }
  cb(&t->ompt.task_data, deps, int(n));
  if (deps != stack) xfree(deps);
}

// A detached task's body end and its event's fulfillment may race on two
// threads; each reads the task's detach count before it reports, so both
// could see the other pending (detach + early_fulfill, and no late_fulfill
// ever) or both done. The first to claim fulfill_order decides and reports
// first: the body ending first reports detach, the fulfillment then
// late_fulfill; the fulfillment first reports early_fulfill, the body then
// complete. The second waits until the first's callback returned, so a
// tool never sees late_fulfill before detach (or complete before
// early_fulfill). The wait lasts one tool callback, on a path only
// detached tasks with a tool attached take.
enum : int { kNoneYet = 0, kBodyReporting, kBodyReported, kEventReporting, kEventReported };

// Claims the first report for `who` (kBodyReporting or kEventReporting);
// false when the other side has it, once its report is out.
bool claim_first(Task* t, int who) {
  int seen = kNoneYet;
  if (__atomic_compare_exchange_n(&t->ompt.fulfill_order, &seen, who, false, __ATOMIC_ACQ_REL,
                                  __ATOMIC_ACQUIRE))
    return true;
  for (uint64_t i = 0; seen == kBodyReporting || seen == kEventReporting; ++i) {
    spin_step_any(i);
    seen = __atomic_load_n(&t->ompt.fulfill_order, __ATOMIC_ACQUIRE);
  }
  return false;
}

void report_claimed(Task* t, int who, ompt_task_status_t status, Task* next) {
  schedule(t, status, next);
  __atomic_store_n(&t->ompt.fulfill_order, who + 1, __ATOMIC_RELEASE);
}

// The task of a taskwait with depend clauses (created with
// ompt_task_taskwait) has no body a thread switches to: when its
// dependences are met, the taskwait completes, and a tool is told that
// alone, as task_schedule (taskwait task, ompt_taskwait_complete, NULL)
// (6.0 §17.5, §34.5.2).
bool is_taskwait_task(const Task* t) { return (t->ompt.flags & ompt_task_taskwait) != 0; }

// event_pending: the runtime saw the event unfulfilled when the body ended.
void report_body_end(Task* t, bool event_pending, Task* prior) {
  if (is_taskwait_task(t))
    schedule(t, ompt_taskwait_complete, nullptr);
  else if (event_pending && claim_first(t, kBodyReporting))
    report_claimed(t, kBodyReporting, ompt_task_detach, prior);
  else
    schedule(t, ompt_task_complete, prior);
}

}  // namespace

void task_create_slow(Thread* me, Task* t, int flags, void** depend, const void* codeptr_ra,
                      void* enter_frame) {
  Task* enc = me->task;
  t->ompt.flags = flags;
  t->ompt.fulfill_order = kNoneYet;
  // A taskwait's dependence task is no task the program created.
  if (!(flags & ompt_task_taskwait)) ora::create_begin(me);
  if (enter_frame) set_enter_frame(enc, enter_frame);
  auto cb = callback<ompt_callback_task_create_t>(ompt_callback_task_create);
  if (cb)
    cb(&enc->ompt.task_data, &enc->ompt.frame, &t->ompt.task_data, flags, depend != nullptr,
       codeptr_ra);
  tr2::task_create(me, t);
  if (depend) report_dependences(t, depend);
}

void task_dependence_slow(Task* pred, Task* succ) {
  auto cb = callback<ompt_callback_task_dependence_t>(ompt_callback_task_dependence);
  if (cb) cb(&pred->ompt.task_data, &succ->ompt.task_data);
}

void run_task_body(Thread* me, Task* t) {
  Task* prior = me->task;
  if (is_taskwait_task(t)) {
    me->task = t;
    t->rt.fn(t->rt.arg);  // empty
    me->task = prior;
    return;
  }
  int saved_state = me->ompt.state;
  ompt_wait_id_t saved_wait = me->ompt.wait_id;
  t->ompt.thread_num = me->team ? me->tid : 0;
  // At a taskyield the yielding task is suspended with ompt_task_yield;
  // the tasks the yielded-to one runs in turn switch as usual.
  const bool yielded = me->ompt.yielding;
  me->ompt.yielding = false;
  schedule(prior, yielded ? ompt_task_yield : ompt_task_switch, t);
  set_state(me, working_state(me));
  me->ompt.wait_id = 0;
  me->task = t;
  t->ompt.scheduling_task = prior;
  t->ompt.frame.exit_frame_flags = ompt_frame_runtime | ompt_frame_cfa;
  const uint8_t ora_resume = ora::exec_begin(me);
  ompd::bp_task_begin();
  kite_ompt_call_outlined(t->rt.fn, t->rt.arg, &t->ompt.frame);
  ompd::bp_task_end();
  ora::finish_begin(me, ora_resume);
  t->ompt.frame.exit_frame.ptr = nullptr;
  t->ompt.frame.exit_frame_flags = 0;
  me->task = prior;
  set_state(me, saved_state);
  me->ompt.wait_id = saved_wait;
}

void task_body_end(Thread* me, Task* t, Task* prior, bool event_pending) {
  report_body_end(t, event_pending, prior);
  if (!is_taskwait_task(t)) ora::finish_end(me);
}

void inline_body_begin_slow(Thread* me, Task* t, void* exit_frame) {
  t->ompt.thread_num = me->team ? me->tid : 0;
  t->ompt.scheduling_task = me->task;
  schedule(me->task, ompt_task_switch, t);
  t->ompt.frame.exit_frame.ptr = exit_frame;
  t->ompt.frame.exit_frame_flags = exit_frame ? ompt_frame_runtime | ompt_frame_cfa : 0;
  ora::exec_begin(me);
  ompd::bp_task_begin();
}

void inline_body_end_slow(Thread* me, Task* t, Task* prior, bool event_pending) {
  ompd::bp_task_end();
  // The creator's task was working before the body, as after it.
  ora::finish_begin(me, 0);
  t->ompt.frame.exit_frame.ptr = nullptr;
  t->ompt.frame.exit_frame_flags = 0;
  report_body_end(t, event_pending, prior);
  ora::finish_end(me);
}

void task_discarded_slow(Thread* me, Task* t, int which) {
  // The task is discarded where it would have started: the thread takes
  // it up, the cancel event comes in its context with the kind of the
  // construct whose cancellation discards it, and it ends as cancelled
  // (ompt_task_cancel), its body never run.
  Task* prior = me->task;
  const bool yielded = me->ompt.yielding;
  me->ompt.yielding = false;
  t->ompt.thread_num = me->team ? me->tid : 0;
  schedule(prior, yielded ? ompt_task_yield : ompt_task_switch, t);
  me->task = t;
  auto cb = callback<ompt_callback_cancel_t>(ompt_callback_cancel);
  int kind = (which & kCancelTaskgroup) ? ompt_cancel_taskgroup : ompt_cancel_parallel;
  if (cb) cb(&t->ompt.task_data, kind | ompt_cancel_discarded_task, nullptr);
  me->task = prior;
  schedule(t, ompt_task_cancel, prior);
}

void cancel_slow(Thread* me, int which, int how, const void* codeptr_ra) {
  auto cb = callback<ompt_callback_cancel_t>(ompt_callback_cancel);
  if (!cb) return;
  int flags = how;
  if (which & kCancelParallel) {
    flags |= ompt_cancel_parallel;
    me->ompt.cancel_seen_team = me->team;
  }
  if (which & (kCancelLoop | kCancelSections)) me->ompt.ws_cancel_seen = true;
  if (which & kCancelLoop) flags |= ompt_cancel_loop;
  if (which & kCancelSections) flags |= ompt_cancel_sections;
  if (which & kCancelTaskgroup) flags |= ompt_cancel_taskgroup;
  cb(&me->task->ompt.task_data, flags, codeptr_ra);
}

void ws_cancel_at_barrier_slow(Thread* me, ompt_scope_endpoint_t ep, const void* codeptr_ra) {
  if (ep == ompt_scope_begin) {
    // No barrier is inside a worksharing construct: this one ends the
    // thread's current construct, if any.
    Team* team = me->team;
    const int kind = team ? team->ws_cancelled.load(std::memory_order_acquire) : 0;
    me->ompt.ws_cancel_pending = me->ompt.ws_cancel_seen ? 0 : kind;
    me->ompt.ws_cancel_seen = false;
    return;
  }
  const int kind = me->ompt.ws_cancel_pending;
  me->ompt.ws_cancel_pending = 0;
  if (kind) {
    cancel_slow(me, kind, ompt_cancel_detected, codeptr_ra);
    me->ompt.ws_cancel_seen = false;  // the construct is over
  }
}

void task_fulfill_slow(Task* t, bool body_done) {
  // Any native thread may fulfill an event (a plain pthread too): it
  // becomes known to the runtime (thread_begin, its initial task) before
  // it reports, as on any other OpenMP call, so no event reaches a tool
  // from a thread it was never told about.
  (void)self();
  if (!body_done && claim_first(t, kEventReporting))
    report_claimed(t, kEventReporting, ompt_task_early_fulfill, nullptr);
  else
    schedule(t, ompt_task_late_fulfill, nullptr);
}

void league_slow(Thread* me, ompt_scope_endpoint_t ep, ompt_data_t* league, int n,
                 const void* codeptr_ra, void* enter_frame) {
  Task* enc = me->task;
  const int flags = ompt_parallel_league | ompt_parallel_invoker_runtime;
  if (ep == ompt_scope_begin) {
    if (enter_frame) set_enter_frame(enc, enter_frame);
    auto cb = callback<ompt_callback_parallel_begin_t>(ompt_callback_parallel_begin);
    if (cb) cb(&enc->ompt.task_data, &enc->ompt.frame, league, unsigned(n), flags, codeptr_ra);
  } else {
    auto cb = callback<ompt_callback_parallel_end_t>(ompt_callback_parallel_end);
    if (cb) cb(league, &enc->ompt.task_data, flags, codeptr_ra);
    clear_enter_frame(enc);
  }
}

void league_task_slow(Thread* me, ompt_data_t* league, int n, int index, void (*fn)(void*),
                      void* data) {
  Task* task = me->task;
  // The inquiries answer an initial task's region from the task itself:
  // ompt_get_parallel_info(0) in a team is the league.
  task->ompt.league = league;
  // The implicit_task events of the team's initial task carry data of the
  // team's own (fresh, like every initial task's: the task's
  // implicit_parallel_data, unused otherwise while `league` is set), not
  // the league's: a tool that initializes the parallel data of each
  // initial task it is told of (LLVM's OMPT test tool does) would
  // otherwise overwrite the league's, and the league's parallel_end would
  // no longer carry what its parallel_begin was given.
  auto cb = callback<ompt_callback_implicit_task_t>(ompt_callback_implicit_task);
  if (cb)
    cb(ompt_scope_begin, &task->ompt.implicit_parallel_data, &task->ompt.task_data, unsigned(n),
       unsigned(index), ompt_task_initial);
  task->ompt.frame.exit_frame_flags = ompt_frame_runtime | ompt_frame_cfa;
  kite_ompt_call_outlined(fn, data, &task->ompt.frame);
  task->ompt.frame.exit_frame.ptr = nullptr;
  task->ompt.frame.exit_frame_flags = 0;
  if (cb) cb(ompt_scope_end, nullptr, &task->ompt.task_data, 0, unsigned(index), ompt_task_initial);
}

void target_initial_task_slow(Thread* me, void (*fn)(void*), void* data) {
  Task* task = me->task;
  auto cb = callback<ompt_callback_implicit_task_t>(ompt_callback_implicit_task);
  if (cb)
    cb(ompt_scope_begin, &task->ompt.implicit_parallel_data, &task->ompt.task_data, 1, 1,
       ompt_task_initial);
  task->ompt.frame.exit_frame_flags = ompt_frame_runtime | ompt_frame_cfa;
  ++me->ompt.target_depth;
  kite_ompt_call_outlined(fn, data, &task->ompt.frame);
  --me->ompt.target_depth;
  task->ompt.frame.exit_frame.ptr = nullptr;
  task->ompt.frame.exit_frame_flags = 0;
  // A league GOMP_teams opened in this region ends with it (its team's
  // initial task first, then the league), inside the region's initial task.
  if (me->ompt.league_open && me->ompt.league_legacy_task == task)
    target_league_step_slow(me, false, false, me->ompt.league_ra, nullptr);
  if (cb) cb(ompt_scope_end, nullptr, &task->ompt.task_data, 0, 1, ompt_task_initial);
}

void sync_task_region_slow(Thread* me, ompt_sync_region_t kind, ompt_scope_endpoint_t ep,
                           const void* codeptr_ra, void* enter_frame) {
  Task* task = me->task;
  if (ep == ompt_scope_begin && enter_frame) set_enter_frame(task, enter_frame);
  auto cb = callback<ompt_callback_sync_region_t>(ompt_callback_sync_region);
  if (cb) cb(kind, ep, current_region(me), &task->ompt.task_data, codeptr_ra);
  tr2::task_sync(me, kind, ep == ompt_scope_begin, false);
  if (ep == ompt_scope_end) clear_enter_frame(task);
}

void taskgroup_begin_slow(Thread* me, const void* codeptr_ra, void* enter_frame) {
  Task* task = me->task;
  // A taskloop's group opens while the taskloop holds the frame: keep it.
  const bool had_frame = task->ompt.frame.enter_frame.ptr != nullptr;
  if (enter_frame && !had_frame) set_enter_frame(task, enter_frame);
  auto cb = callback<ompt_callback_sync_region_t>(ompt_callback_sync_region);
  if (cb)
    cb(ompt_sync_region_taskgroup, ompt_scope_begin, current_region(me), &task->ompt.task_data,
       codeptr_ra);
  tr2::task_sync(me, ompt_sync_region_taskgroup, true, false);
  if (enter_frame && !had_frame) clear_enter_frame(task);
}

void sync_task_wait_slow(Thread* me, ompt_sync_region_t kind, ompt_scope_endpoint_t ep,
                         const void* codeptr_ra) {
  Task* task = me->task;
  auto cb = callback<ompt_callback_sync_region_t>(ompt_callback_sync_region_wait);
  if (ep == ompt_scope_begin) {
    set_state(me, kind == ompt_sync_region_taskwait ? ompt_state_wait_taskwait
                                                    : ompt_state_wait_taskgroup);
    if (cb) cb(kind, ep, current_region(me), &task->ompt.task_data, codeptr_ra);
    tr2::task_sync(me, kind, true, true);
  } else {
    if (cb) cb(kind, ep, current_region(me), &task->ompt.task_data, codeptr_ra);
    tr2::task_sync(me, kind, false, true);
    set_state(me, working_state(me));
  }
}

}  // namespace ompt
}  // namespace kite
