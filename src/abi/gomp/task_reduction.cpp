// libgomp ABI: task reductions (taskgroup task_reduction, in_reduction,
// reduction(task, ...) on parallel and worksharing constructs).
#include "abi/gomp/gomp.h"

using namespace kite;

extern "C" {

KITE_EXPORT void GOMP_taskgroup_reduction_register(uintptr_t* data) {
  task_reduction_register(self(), data);
}

KITE_EXPORT void GOMP_taskgroup_reduction_unregister(uintptr_t* data) {
  task_reduction_unregister(data);
}

KITE_EXPORT void GOMP_task_reduction_remap(size_t cnt, size_t cntorig, void** ptrs) {
  task_reduction_remap(self(), cnt, cntorig, ptrs);
}

KITE_EXPORT unsigned GOMP_parallel_reductions(void (*fn)(void*), void* data, unsigned num_threads,
                                              unsigned flags) {
  return parallel_with_task_reductions(fn, data, num_threads, flags, KITE_RETURN_ADDRESS(),
                                       __builtin_dwarf_cfa());
}

KITE_EXPORT void GOMP_workshare_task_reduction_unregister(bool cancelled) {
  ws_task_reductions_unregister(self(), cancelled, KITE_RETURN_ADDRESS());
}

}  // extern "C"
