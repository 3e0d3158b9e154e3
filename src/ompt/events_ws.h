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

}  // namespace ompt
}  // namespace kite
