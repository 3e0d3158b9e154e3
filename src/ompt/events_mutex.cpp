// The mutex events of events_mutex.h. Each function writes the thread's
// state (the only places the wait_lock / wait_critical / wait_atomic /
// wait_ordered states are written) and then calls the tool, so a tool that
// asks ompt_get_state from mutex_acquire already sees the wait state and
// the mutex's wait id, and from mutex_acquired sees the thread working again.
#include "ompt/events_mutex.h"

namespace kite {
namespace ompt {

namespace {

inline ompt_wait_id_t as_wait_id(const void* p) { return reinterpret_cast<ompt_wait_id_t>(p); }

// Mutexes are taken by tasks, so a thread holding or waiting for one is
// working in its implicit task's region (or serially outside any team).
void set_working(Thread* me) {
  set_state(me, me->team ? ompt_state_work_parallel : ompt_state_work_serial);
  me->ompt.wait_id = ompt_wait_id_none;
}

void set_waiting(Thread* me, int wait_state, const void* wait_id) {
  // The wait id first: a signal handler that sees the wait state must not
  // see a stale id.
  me->ompt.wait_id = as_wait_id(wait_id);
  std::atomic_signal_fence(std::memory_order_release);
  set_state(me, wait_state);
}

// Ordered regions have no lock of their own: the loop's shared record is
// what the thread waits on.
const void* ordered_wait_id(Thread* me) {
  if (me->ws_cur) return me->ws_cur;
  return me->team;
}

}  // namespace

void on_mutex_acquire(Thread* me, ompt_mutex_t kind, unsigned hint, const void* wait_id,
                      int wait_state, const void* codeptr_ra) {
  if (wait_state) set_waiting(me, wait_state, wait_id);
  auto cb = callback<ompt_callback_mutex_acquire_t>(ompt_callback_mutex_acquire);
  if (cb) cb(kind, hint, kMutexImplSpinFutex, as_wait_id(wait_id), codeptr_ra);
}

void on_mutex_acquired(Thread* me, ompt_mutex_t kind, const void* wait_id,
                       const void* codeptr_ra) {
  set_working(me);
  auto cb = callback<ompt_callback_mutex_t>(ompt_callback_mutex_acquired);
  if (cb) cb(kind, as_wait_id(wait_id), codeptr_ra);
}

void on_mutex_released(ompt_mutex_t kind, const void* wait_id, const void* codeptr_ra) {
  auto cb = callback<ompt_callback_mutex_t>(ompt_callback_mutex_released);
  if (cb) cb(kind, as_wait_id(wait_id), codeptr_ra);
}

void on_nest_lock(Thread* me, ompt_scope_endpoint_t ep, const void* wait_id,
                  const void* codeptr_ra) {
  if (ep == ompt_scope_begin) set_working(me);
  auto cb = callback<ompt_callback_nest_lock_t>(ompt_callback_nest_lock);
  if (cb) cb(ep, as_wait_id(wait_id), codeptr_ra);
}

void on_ordered_begin(Thread* me, const void* codeptr_ra) {
  on_mutex_acquire(me, ompt_mutex_ordered, 0 /* omp_sync_hint_none */, ordered_wait_id(me),
                   ompt_state_wait_ordered, codeptr_ra);
}

void on_ordered_acquired(Thread* me, const void* codeptr_ra) {
  on_mutex_acquired(me, ompt_mutex_ordered, ordered_wait_id(me), codeptr_ra);
}

void on_ordered_end(Thread* me, const void* codeptr_ra) {
  on_mutex_released(ompt_mutex_ordered, ordered_wait_id(me), codeptr_ra);
}

void on_lock_init(ompt_mutex_t kind, unsigned hint, const void* wait_id, const void* codeptr_ra) {
  auto cb = callback<ompt_callback_mutex_acquire_t>(ompt_callback_lock_init);
  if (cb) cb(kind, hint, kMutexImplSpinFutex, as_wait_id(wait_id), codeptr_ra);
}

void on_lock_destroy(ompt_mutex_t kind, const void* wait_id, const void* codeptr_ra) {
  auto cb = callback<ompt_callback_mutex_t>(ompt_callback_lock_destroy);
  if (cb) cb(kind, as_wait_id(wait_id), codeptr_ra);
}

int control_tool(uint64_t command, uint64_t modifier, void* arg, const void* codeptr_ra) {
  constexpr int kNoTool = -2;      // omp_control_tool_notool
  constexpr int kNoCallback = -1;  // omp_control_tool_nocallback
  if (!active()) return kNoTool;
  auto cb = callback<ompt_callback_control_tool_t>(ompt_callback_control_tool);
  if (!cb) return kNoCallback;
  return cb(command, modifier, arg, codeptr_ra);
}

}  // namespace ompt
}  // namespace kite
