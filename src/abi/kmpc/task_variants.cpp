// LLVM ABI: task entry points beside the ones clang emits for the task
// construct: target tasks, "task parts", and proxy tasks (libomptarget's
// way to keep a task incomplete until an asynchronous device operation
// ends; created with the proxy flag of __kmpc_omp_task_alloc).
#include "abi/kmpc/task_block.h"

using namespace kite;
using namespace kite::kmpc;

namespace {

void complete_proxy(void* ptask, const char* entry) {
  if (!ptask) {
    warn("%s: null task; nothing completed", entry);
    return;
  }
  Task* t = header_of(ptask)->task;
  if (!(t->rt.flags & kTaskDetached)) {
    warn("%s: task %p was not created as a proxy task; nothing completed", entry, ptask);
    return;
  }
  task_fulfill_event(t);
}

}  // namespace

extern "C" {

// The task of a target construct (nowait or with dependences). Kite runs
// target regions on the host, so it is an ordinary task; device_id does
// not change where it runs.
KITE_EXPORT void* __kmpc_omp_target_task_alloc(ident_t*, kmp_int32, kmp_int32 flags,
                                               size_t sizeof_kmp_task_t, size_t sizeof_shareds,
                                               kmp_routine_entry_t task_entry, kmp_int64) {
  return task_of(new_task_block(self(), flags, sizeof_kmp_task_t, sizeof_shareds, task_entry));
}

// Schedules a task that may be switched out at its parts (libomp queues it
// like __kmpc_omp_task). Returns 0: the current task was not queued.
KITE_EXPORT kmp_int32 __kmpc_omp_task_parts(ident_t*, kmp_int32, void* new_task) {
  return task_hand_back_at(new_task, KITE_RETURN_ADDRESS(), __builtin_dwarf_cfa());
}

// The asynchronous part of a proxy task is over: by a thread of the team
// that created it, or (_ooo, out of order) by any thread.
KITE_EXPORT void __kmpc_proxy_task_completed(kmp_int32, void* ptask) {
  complete_proxy(ptask, "__kmpc_proxy_task_completed");
}

KITE_EXPORT void __kmpc_proxy_task_completed_ooo(void* ptask) {
  complete_proxy(ptask, "__kmpc_proxy_task_completed_ooo");
}

}  // extern "C"
