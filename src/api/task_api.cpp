// omp_* routines about tasks and cancellation (C bindings; the Fortran
// entry points live with the other Fortran bindings).
#include <omp.h>

#include "core/team.h"

using namespace kite;

extern "C" {

KITE_EXPORT int omp_in_final(void) { return task_in_final(self()) ? 1 : 0; }

// OpenMP 5.2: true in an explicit task region (included, undeferred and
// taskloop tasks too), false in an implicit or initial task.
KITE_EXPORT int omp_in_explicit_task(void) {
  Thread* me = self();
  return me->task && me->task->kind == kTaskExplicit ? 1 : 0;
}

KITE_EXPORT int omp_get_max_task_priority(void) {
  runtime_init();
  return g_icv.max_task_priority;
}

KITE_EXPORT int omp_get_cancellation(void) {
  runtime_init();
  return cancellation_enabled() ? 1 : 0;
}

KITE_EXPORT void omp_fulfill_event(omp_event_handle_t event) {
  task_fulfill_event(reinterpret_cast<void*>(static_cast<uintptr_t>(event)));
}

}  // extern "C"
