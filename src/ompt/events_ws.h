// Emitters for worksharing constructs: work begin/end, dispatch of loop
// chunks and sections, and the implicit barrier at the end of a
// worksharing construct (OpenMP 5.2 §19.5.2.14-16, 19.5.2.13).
//
// A thread's construct in progress is kept in its ThreadState (work type
// and codeptr_ra), so the calls that continue a construct (next chunk, end)
// need not know which construct it is. A construct begun before the tool
// was active, or one that reports no work (doacross loops), leaves the
// work type 0: its chunks and end are not reported either, so a tool never
// sees an end without a begin.
#pragma once

#include "ompt/callbacks.h"

namespace kite {
namespace ompt {

// The ompt_work_t of a loop with core schedule kind `sched` (Sched value).
int loop_work_type(int sched);

void work_begin_slow(Thread* me, int work, uint64_t count, const void* codeptr_ra);
inline void on_work_begin(Thread* me, int work, uint64_t count, const void* codeptr_ra) {
  if (active()) work_begin_slow(me, work, count, codeptr_ra);
}

// The construct in progress ends on this thread.
void work_end_slow(Thread* me);

// The thread got a chunk: loop iterations [first, first + iterations) in
// user values (first) and count; for sections, section index `first`
// (from 0).
void dispatch_slow(Thread* me, uint64_t first, uint64_t iterations);
inline void on_dispatch(Thread* me, uint64_t first, uint64_t iterations) {
  if (active()) dispatch_slow(me, first, iterations);
}

// The taskloop construct: work begin/end (count: iterations) on the
// encountering thread, which keeps no construct state (a taskloop may run
// inside a loop chunk). The encountering task's enter frame is set for the
// whole construct.
void taskloop_slow(Thread* me, ompt_scope_endpoint_t ep, uint64_t count, const void* codeptr_ra,
                   void* enter_frame);
// One task of the taskloop was created: task_create, then its chunk
// (ompt_dispatch_taskloop_chunk, with the new task's data) at once.
void taskloop_task_slow(Thread* me, Task* t, bool undeferred, uint64_t first,
                        uint64_t iterations, const void* codeptr_ra);

// The implicit barrier of a worksharing construct, begin and end, around
// the waiting (sync_region, sync_region_wait, state
// wait_barrier_implicit_workshare). codeptr_ra: the end call's.
void ws_barrier_slow(Thread* me, ompt_scope_endpoint_t ep, const void* codeptr_ra,
                     void* enter_frame);
// The same, for a caller that found active(): inline when nothing fires at
// the barrier (barrier_hooked) and no construct is left open.
inline void ws_barrier(Thread* me, ompt_scope_endpoint_t ep, const void* codeptr_ra,
                       void* enter_frame) {
  if (KITE_UNLIKELY(barrier_hooked()) || (ep == ompt_scope_begin && me->ompt.work))
    ws_barrier_slow(me, ep, codeptr_ra, enter_frame);
  else if (ep == ompt_scope_begin)
    barrier_quiet_begin(me, ompt_state_wait_barrier_implicit_workshare, enter_frame);
  else
    barrier_quiet_end(me);
}
// Any other barrier a construct implies, by kind: sync_region and
// sync_region_wait of `kind` around the waiting, the thread in the waiting
// state that kind calls for (ompt_sync_region_barrier_implementation and
// ompt_sync_region_reduction: wait_barrier_implementation). The begin sets
// the task's enter frame (when given), the end clears it.
void barrier_slow(Thread* me, ompt_sync_region_t kind, ompt_scope_endpoint_t ep,
                  const void* codeptr_ra, void* enter_frame);

// --- scope (ompt_work_scope) ---------------------------------------------------
// The scope construct, on each thread of the team: work begin, and work end
// where the thread leaves the construct's body (before its implicit barrier,
// which the caller reports with ws_barrier_slow). Kept apart from the loop
// state (ThreadState::work): a scope is begun and ended by separate runtime
// calls with other constructs' events possible in between (a nested
// parallel region's loops).
//   gcc: GOMP_scope_start begins it (only scopes with task reductions call
//   the runtime); the thread's next barrier call in the same team is the
//   scope's implicit barrier (scope_pending), which ends it.
//   LLVM ABI (__kmpc_scope / __kmpc_end_scope, clang 19 and later): call
//   on_scope at both ends.
void scope_slow(Thread* me, ompt_scope_endpoint_t ep, const void* codeptr_ra);
inline void on_scope(Thread* me, ompt_scope_endpoint_t ep, const void* codeptr_ra) {
  if (active()) scope_slow(me, ep, codeptr_ra);
}
// A scope begun by GOMP_scope_start in the thread's current team has not
// ended yet (false without a tool: nothing is marked then).
// The team a scope is marked with: the thread itself for an orphaned one.
inline const void* scope_key(Thread* me) {
  return me->team ? static_cast<const void*>(me->team) : static_cast<const void*>(me);
}
inline bool scope_pending(Thread* me) {
  return KITE_UNLIKELY(me->ompt.scope_team != nullptr) && me->ompt.scope_team == scope_key(me);
}

// --- distribute (ompt_work_distribute) -------------------------------------------
// A distribute construct on the thread that runs a team's part of it (the
// team's initial thread, for clang's `distribute`): work begin (count: the
// loop's iterations), one dispatch (ompt_dispatch_distribute_chunk, values
// of the iteration space the runtime was given) per chunk the team gets,
// work end. Kept apart from the loop state (ThreadState::work): in
// `distribute parallel for`, the loops of the regions the distribute forks
// run on this thread before the distribute ends.
void distribute_begin_slow(Thread* me, uint64_t count, const void* codeptr_ra);
void distribute_chunk_slow(Thread* me, uint64_t first, uint64_t iterations);
// Ends the distribute begun in the thread's current team, if any.
void distribute_end_slow(Thread* me);

// A construct whose begin and end the LLVM ABI marks with runtime calls
// but which is no worksharing construct.
// masked (and master): begin on the thread that executes the block, end
// when it leaves it.
void masked_slow(Thread* me, ompt_scope_endpoint_t ep, const void* codeptr_ra);
// The flush directive, on the flushing thread.
void flush_slow(Thread* me, const void* codeptr_ra);
// ompt_callback_reduction (kind ompt_sync_region_reduction) around the
// combination of a thread's partial values into the shared ones.
void reduction_slow(Thread* me, ompt_scope_endpoint_t ep, const void* codeptr_ra);

// Doacross loops: an ordered construct's depend(source) (type
// ompt_dependence_type_source, before the iteration is published) or
// depend(sink: vec) (ompt_dependence_type_sink, once the wait is over):
// ompt_callback_dependences in the context of the thread's implicit task,
// one item per dimension of the loop nest whose variable's value is that
// dimension's logical iteration number, counted from 0 (as libomp reports
// them; gcc folds collapsed loops into one dimension, so its first item
// counts the iterations of the collapsed nest).
void doacross_slow(Thread* me, const unsigned long long* v, unsigned n,
                   ompt_dependence_type_t type);

}  // namespace ompt
}  // namespace kite
