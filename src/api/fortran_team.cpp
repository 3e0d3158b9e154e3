// Fortran entry points for the thread, team, nesting and schedule routines:
// each forwards to the C routine of the same name (team_api.cpp).
#include <omp.h>

#include "api/fortran_args.h"

using namespace kite::fortran;

extern "C" {

KITE_EXPORT void omp_set_num_threads_(const int32_t* n) { omp_set_num_threads(*n); }
KITE_EXPORT void omp_set_num_threads_8_(const int64_t* n) {
  omp_set_num_threads(narrow(*n, "omp_set_num_threads"));
}
KITE_EXPORT int32_t omp_get_num_threads_(void) { return omp_get_num_threads(); }
KITE_EXPORT int32_t omp_get_max_threads_(void) { return omp_get_max_threads(); }
KITE_EXPORT int32_t omp_get_thread_num_(void) { return omp_get_thread_num(); }
KITE_EXPORT int32_t omp_in_parallel_(void) { return c_to_logical(omp_in_parallel()); }

KITE_EXPORT void omp_set_dynamic_(const int32_t* on) { omp_set_dynamic(logical_to_c(*on)); }
KITE_EXPORT void omp_set_dynamic_8_(const int64_t* on) { omp_set_dynamic(logical_to_c(*on)); }
KITE_EXPORT int32_t omp_get_dynamic_(void) { return c_to_logical(omp_get_dynamic()); }

KITE_EXPORT void omp_set_nested_(const int32_t* on) { omp_set_nested(logical_to_c(*on)); }
KITE_EXPORT void omp_set_nested_8_(const int64_t* on) { omp_set_nested(logical_to_c(*on)); }
KITE_EXPORT int32_t omp_get_nested_(void) { return c_to_logical(omp_get_nested()); }

// The schedule kind travels unchanged (including the monotonic bit); the C
// routine validates it.
KITE_EXPORT void omp_set_schedule_(const int32_t* kind, const int32_t* chunk) {
  omp_set_schedule(static_cast<omp_sched_t>(*kind), *chunk);
}
KITE_EXPORT void omp_set_schedule_8_(const int32_t* kind, const int64_t* chunk) {
  omp_set_schedule(static_cast<omp_sched_t>(*kind), narrow(*chunk, "omp_set_schedule"));
}
KITE_EXPORT void omp_get_schedule_(int32_t* kind, int32_t* chunk) {
  omp_sched_t k;
  int c;
  omp_get_schedule(&k, &c);
  *kind = static_cast<int32_t>(k);
  *chunk = c;
}
KITE_EXPORT void omp_get_schedule_8_(int32_t* kind, int64_t* chunk) {
  omp_sched_t k;
  int c;
  omp_get_schedule(&k, &c);
  *kind = static_cast<int32_t>(k);
  *chunk = c;
}

KITE_EXPORT int32_t omp_get_thread_limit_(void) { return omp_get_thread_limit(); }
KITE_EXPORT void omp_set_max_active_levels_(const int32_t* levels) {
  omp_set_max_active_levels(*levels);
}
KITE_EXPORT void omp_set_max_active_levels_8_(const int64_t* levels) {
  omp_set_max_active_levels(narrow(*levels, "omp_set_max_active_levels"));
}
KITE_EXPORT int32_t omp_get_max_active_levels_(void) { return omp_get_max_active_levels(); }
KITE_EXPORT int32_t omp_get_supported_active_levels_(void) {
  return omp_get_supported_active_levels();
}
KITE_EXPORT int32_t omp_get_level_(void) { return omp_get_level(); }
KITE_EXPORT int32_t omp_get_active_level_(void) { return omp_get_active_level(); }

KITE_EXPORT int32_t omp_get_ancestor_thread_num_(const int32_t* level) {
  return omp_get_ancestor_thread_num(*level);
}
KITE_EXPORT int32_t omp_get_ancestor_thread_num_8_(const int64_t* level) {
  return omp_get_ancestor_thread_num(narrow(*level, "omp_get_ancestor_thread_num"));
}
KITE_EXPORT int32_t omp_get_team_size_(const int32_t* level) { return omp_get_team_size(*level); }
KITE_EXPORT int32_t omp_get_team_size_8_(const int64_t* level) {
  return omp_get_team_size(narrow(*level, "omp_get_team_size"));
}

}  // extern "C"
