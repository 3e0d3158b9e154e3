// Mutual-exclusion events (OpenMP 5.2 §19.5.2.14-19.5.2.16): locks, nest
// locks, critical, atomic and ordered regions; the thread's wait_* state
// while it may block on one of them; lock_init / lock_destroy. Also the two
// tool-facing directives that take no lock but are dispatched from the same
// call sites' ABI layer: the error directive and omp_control_tool.
//
// Call sites test active() once and take an "observed" path that brackets
// the real work with these functions, so the uncontended path without a
// tool pays exactly one predictable branch. Everything here runs only with
// a tool attached.
#pragma once

#include "ompt/callbacks.h"

namespace kite {
namespace ompt {

// The one mutex implementation Kite has (ompt_enumerate_mutex_impls lists it
// under this value): spin briefly, then sleep on a futex.
constexpr unsigned kMutexImplSpinFutex = 1;

// A thread begins to acquire `wait_id`. `wait_state` is the state it holds
// while it may block (ompt_state_wait_lock, _critical, _atomic, _ordered),
// or 0 for the test routines, which never block.
void on_mutex_acquire(Thread* me, ompt_mutex_t kind, unsigned hint, const void* wait_id,
                      int wait_state, const void* codeptr_ra);
// It holds the mutex now (first acquisition of a nest lock too); its
// working state is back.
void on_mutex_acquired(Thread* me, ompt_mutex_t kind, const void* wait_id,
                       const void* codeptr_ra);
// The mutex is free again (a nest lock: its last level was released).
void on_mutex_released(ompt_mutex_t kind, const void* wait_id, const void* codeptr_ra);
// The owner of a nest lock took another level (begin) or released one that
// was not the last (end).
void on_nest_lock(Thread* me, ompt_scope_endpoint_t ep, const void* wait_id,
                  const void* codeptr_ra);

// An ordered region of the loop `me` is in: the wait id is the loop's
// shared record (the team's, for an ordered region outside a loop).
void on_ordered_begin(Thread* me, const void* codeptr_ra);
void on_ordered_acquired(Thread* me, const void* codeptr_ra);
void on_ordered_end(Thread* me, const void* codeptr_ra);

// lock_init also remembers the hint of a lock created with one, for the
// mutex_acquire events of that lock (the lock word has no room for it);
// lock_hint answers it, omp_sync_hint_none for any other lock.
void on_lock_init(ompt_mutex_t kind, unsigned hint, const void* wait_id, const void* codeptr_ra);
unsigned lock_hint(const void* lock);
void on_lock_destroy(ompt_mutex_t kind, const void* wait_id, const void* codeptr_ra);

// The error directive at execution time; `length` excludes any terminator.
inline void on_error(ompt_severity_t severity, const char* message, size_t length,
                     const void* codeptr_ra) {
  if (active()) {
    auto cb = callback<ompt_callback_error_t>(ompt_callback_error);
    if (cb) cb(severity, message, length, codeptr_ra);
  }
}

// omp_control_tool: the tool's answer, or omp_control_tool_notool (-2)
// without a tool, omp_control_tool_nocallback (-1) when the tool did not
// register the callback. The current task's enter frame is `enter_frame`
// (the CFA of omp_control_tool) while the tool's callback runs.
int control_tool(Thread* me, uint64_t command, uint64_t modifier, void* arg,
                 const void* codeptr_ra, void* enter_frame);

}  // namespace ompt
}  // namespace kite
