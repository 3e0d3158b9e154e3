// Cancellation as seen at a barrier construct (cancel.cpp; the cancel
// construct and cancellation points are declared in task.h).
#pragma once

#include "team.h"

namespace kite {

// The barrier construct in a region that may be cancelled (GOMP_barrier_cancel,
// clang's __kmpc_cancel_barrier with an explicit-barrier location): returns
// true when the parallel region was cancelled, which tools hear as a
// detected cancellation (ompt_cancel_parallel | ompt_cancel_detected) after
// the barrier's own events.
bool explicit_barrier_cancel(Thread* self, const void* codeptr_ra, void* enter_frame);

}  // namespace kite
