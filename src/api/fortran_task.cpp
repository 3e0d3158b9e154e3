// Fortran entry points for the task-related queries and events (C side:
// task_api.cpp).
#include <omp.h>

#include "api/fortran_args.h"

using namespace kite::fortran;

extern "C" {

KITE_EXPORT int32_t omp_in_final_(void) { return c_to_logical(omp_in_final()); }
KITE_EXPORT int32_t omp_in_explicit_task_(void) { return c_to_logical(omp_in_explicit_task()); }
KITE_EXPORT int32_t omp_get_cancellation_(void) { return c_to_logical(omp_get_cancellation()); }
KITE_EXPORT int32_t omp_get_max_task_priority_(void) { return omp_get_max_task_priority(); }

// omp_lib declares the event handle VALUE, so it arrives by value.
KITE_EXPORT void omp_fulfill_event_(intptr_t event) {
  omp_fulfill_event(static_cast<omp_event_handle_t>(event));
}

}  // extern "C"
