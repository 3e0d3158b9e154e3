// The ompc_* names of omp_* routines. clang's omp.h (LLVM's) #defines some
// omp_* routines to these names, so a clang program calls, say,
// ompc_get_affinity_format where the source says omp_get_affinity_format;
// libomp also exports the rest of the family. Each is the omp_* routine
// with the same arguments, by value.
#include <omp.h>

#include "core/base.h"

extern "C" {

KITE_EXPORT void ompc_set_num_threads(int n) { omp_set_num_threads(n); }

KITE_EXPORT void ompc_set_dynamic(int flag) { omp_set_dynamic(flag); }

KITE_EXPORT void ompc_set_nested(int flag) { omp_set_nested(flag); }

KITE_EXPORT void ompc_set_max_active_levels(int levels) { omp_set_max_active_levels(levels); }

KITE_EXPORT void ompc_set_schedule(omp_sched_t kind, int chunk) { omp_set_schedule(kind, chunk); }

KITE_EXPORT int ompc_get_ancestor_thread_num(int level) {
  return omp_get_ancestor_thread_num(level);
}

KITE_EXPORT int ompc_get_team_size(int level) { return omp_get_team_size(level); }

KITE_EXPORT void ompc_set_affinity_format(const char* format) { omp_set_affinity_format(format); }

KITE_EXPORT size_t ompc_get_affinity_format(char* buffer, size_t size) {
  return omp_get_affinity_format(buffer, size);
}

KITE_EXPORT void ompc_display_affinity(const char* format) { omp_display_affinity(format); }

KITE_EXPORT size_t ompc_capture_affinity(char* buffer, size_t size, const char* format) {
  return omp_capture_affinity(buffer, size, format);
}

}  // extern "C"
