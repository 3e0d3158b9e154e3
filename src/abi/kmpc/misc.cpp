// LLVM ABI: queries and controls libomp exports besides the constructs:
// task ids, the runtime's thread count, the pushed num_threads, pause,
// target-offload-var and thread-limit-var, and re-running the team's
// outlined function.
#include <omp.h>

#include "abi/kmpc/kmpc.h"
#include "core/target.h"
#include "ompt/callbacks.h"

using namespace kite;

namespace {

// A task's id is the address of its descriptor: unique among the tasks
// that exist at the same time, stable for the task's life, never 0.
kmp_uint64 task_id(const Task* t) { return reinterpret_cast<uintptr_t>(t); }

// kmp_pause_status_t.
constexpr int kNotPaused = 0;
constexpr int kSoftPaused = 1;
constexpr int kHardPaused = 2;
constexpr int kStopToolPaused = 3;

}  // namespace

extern "C" {

// The id of the calling thread's current task (0 before the thread has
// run any OpenMP code); the parent's, 0 for an initial task.
KITE_EXPORT kmp_uint64 __kmpc_get_taskid() {
  Thread* me = tls_self;
  return me && me->task ? task_id(me->task) : 0;
}

KITE_EXPORT kmp_uint64 __kmpc_get_parent_taskid() {
  Thread* me = tls_self;
  if (!me || !me->task || !me->task->parent) return 0;
  return task_id(me->task->parent);
}

// Threads the runtime has now: every initial thread that has called into
// it, and the pool's workers.
KITE_EXPORT kmp_int32 __kmpc_global_num_threads(ident_t*) {
  self();
  return runtime_thread_count();
}

// A value pushed by __kmpc_push_num_threads applies to the next fork only:
// the fork takes it off (fork.cpp), as libomp's does, so nothing is left
// here to pop.
KITE_EXPORT void __kmpc_pop_num_threads(ident_t*, kmp_int32) {}

// 0 on success, 1 on failure (libomp's convention, unlike
// omp_pause_resource's -1). The runtime keeps working after any pause, so
// "resume" always succeeds; stopping the tool finalizes it.
KITE_EXPORT int __kmpc_pause_resource(int level) {
  switch (level) {
    case kNotPaused: return 0;
    case kSoftPaused: return omp_pause_resource_all(omp_pause_soft) == 0 ? 0 : 1;
    case kHardPaused: return omp_pause_resource_all(omp_pause_hard) == 0 ? 0 : 1;
    case kStopToolPaused:
      ompt::finalize_tool();
      return 0;
    default:
      warn("__kmpc_pause_resource: unknown pause level %d; nothing paused", level);
      return 1;
  }
}

// thread_limit on a target construct without teams (clang 19+ calls this
// in the target region's task): thread-limit-var of the current task, so
// of the target region and what it encloses.
KITE_EXPORT void __kmpc_set_thread_limit(ident_t*, kmp_int32, kmp_int32 thread_limit) {
  Thread* me = self();
  if (thread_limit <= 0) {
    warn("thread_limit(%d) is not positive; keeping thread-limit-var %d", thread_limit,
         me->task->icv.thread_limit);
    return;
  }
  me->task->icv.thread_limit = thread_limit;
}

// target-offload-var in libomp's numbering (kmp_target_offload_kind):
// disabled 0, default 1, mandatory 2.
KITE_EXPORT int __kmpc_get_target_offload(void) {
  self();
  switch (g_icv.target_offload) {
    case kOffloadDisabled: return 0;
    case kOffloadMandatory: return 2;
    default: return 1;
  }
}

// Runs the calling thread's team's outlined function again, as that
// thread's part of the region (libomp exports this internal step of its
// fork; no compiler emits it). Returns 1, or 0 outside a parallel region.
KITE_EXPORT int __kmpc_invoke_task_func(int) {
  Thread* me = self();
  Team* team = me->team;
  if (!team || !team->fn) {
    warn("__kmpc_invoke_task_func: called outside a parallel region; nothing run");
    return 0;
  }
  team->fn(team->data);
  return 1;
}

}  // extern "C"
