// Fortran entry points for timing, resource pausing and environment display
// (C side: time_api.cpp, pause_api.cpp, affinity_api.cpp).
#include <omp.h>

#include "api/fortran_args.h"

using namespace kite::fortran;

extern "C" {

KITE_EXPORT double omp_get_wtime_(void) { return omp_get_wtime(); }
KITE_EXPORT double omp_get_wtick_(void) { return omp_get_wtick(); }

KITE_EXPORT int32_t omp_pause_resource_(const int32_t* kind, const int32_t* device_num) {
  return omp_pause_resource(static_cast<omp_pause_resource_t>(*kind), *device_num);
}
KITE_EXPORT int32_t omp_pause_resource_all_(const int32_t* kind) {
  return omp_pause_resource_all(static_cast<omp_pause_resource_t>(*kind));
}

KITE_EXPORT void omp_display_env_(const int32_t* verbose) { omp_display_env(logical_to_c(*verbose)); }
KITE_EXPORT void omp_display_env_8_(const int64_t* verbose) {
  omp_display_env(logical_to_c(*verbose));
}

}  // extern "C"
