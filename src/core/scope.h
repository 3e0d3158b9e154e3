// The scope construct as tools see it, and the barrier call that ends it in
// gcc programs.
//
// gcc 12 calls the runtime at a scope's start only when the scope has task
// reductions (GOMP_scope_start), and ends every scope with a plain barrier
// call (GOMP_barrier, or GOMP_barrier_cancel in a cancellable region). With
// a tool attached, the start leaves a mark on the thread, and the thread's
// next barrier call in the same team is the scope's end and its implicit
// barrier. A barrier construct cannot be closely nested in a scope region,
// so no other barrier call of that team comes in between.
#pragma once

#include "team.h"

namespace kite {

// GOMP_scope_start: work scope begin (with a tool), then the task
// reductions' registration (scope_start, loop.h).
void scope_enter(Thread* self, uintptr_t* reductions, const void* codeptr_ra);

// The barrier call that ends a marked scope (ompt::scope_pending): work
// scope end, then the barrier as the scope's implicit one
// (barrier_implicit_workshare). The cancellable form also reports a
// detected cancellation of the parallel region; it returns true then.
void scope_end_barrier(Thread* self, const void* codeptr_ra, void* enter_frame);
bool scope_end_barrier_cancellable(Thread* self, const void* codeptr_ra, void* enter_frame);

}  // namespace kite
