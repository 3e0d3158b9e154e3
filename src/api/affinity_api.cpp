// omp_* routines for processors, places, binding, the affinity format and
// omp_display_env.
#include <string.h>

#include "core/places.h"

using namespace kite;

namespace {

inline bool valid_place(int place) { return place >= 0 && place < places_count(); }

// The caller's place partition, clamped to the place list.
void partition(const Thread* me, int* lo, int* hi) {
  int n = places_count();
  *lo = me->place_lo;
  *hi = me->place_hi;
  if (*lo < 0 || *hi >= n || *lo > *hi) {
    *lo = 0;
    *hi = n - 1;
  }
}

}  // namespace

extern "C" {

KITE_EXPORT int omp_get_num_procs(void) {
  runtime_init();
  return g_icv.num_procs;
}

KITE_EXPORT int omp_get_proc_bind(void) { return self()->task->icv.bind; }

KITE_EXPORT int omp_get_num_places(void) {
  runtime_init();
  return places_count();
}

KITE_EXPORT int omp_get_place_num_procs(int place) {
  runtime_init();
  return valid_place(place) ? place_procs(place, nullptr, 0) : 0;
}

KITE_EXPORT void omp_get_place_proc_ids(int place, int* ids) {
  runtime_init();
  if (!valid_place(place) || !ids) return;
  place_procs(place, ids, place_procs(place, nullptr, 0));
}

KITE_EXPORT int omp_get_place_num(void) {
  Thread* me = self();
  return places_count() > 0 && me->place >= 0 ? me->place : -1;
}

KITE_EXPORT int omp_get_partition_num_places(void) {
  Thread* me = self();
  if (places_count() == 0) return 0;
  int lo, hi;
  partition(me, &lo, &hi);
  return hi - lo + 1;
}

KITE_EXPORT void omp_get_partition_place_nums(int* place_nums) {
  Thread* me = self();
  if (places_count() == 0 || !place_nums) return;
  int lo, hi;
  partition(me, &lo, &hi);
  for (int p = lo; p <= hi; ++p) place_nums[p - lo] = p;
}

KITE_EXPORT void omp_set_affinity_format(const char* format) {
  runtime_init();
  if (!format) return;
  size_t n = strlen(format);
  if (n >= sizeof g_icv.affinity_format) {
    warn("omp_set_affinity_format: the format is longer than %zu characters; using its first %zu",
         sizeof g_icv.affinity_format - 1, sizeof g_icv.affinity_format - 1);
    n = sizeof g_icv.affinity_format - 1;
  }
  memcpy(g_icv.affinity_format, format, n);
  g_icv.affinity_format[n] = '\0';
}

KITE_EXPORT size_t omp_get_affinity_format(char* buffer, size_t size) {
  runtime_init();
  size_t n = strlen(g_icv.affinity_format);
  if (buffer && size > 0) {
    size_t c = n < size - 1 ? n : size - 1;
    memcpy(buffer, g_icv.affinity_format, c);
    buffer[c] = '\0';
  }
  return n;
}

KITE_EXPORT void omp_display_affinity(const char* format) { affinity_display(format, self()); }

KITE_EXPORT size_t omp_capture_affinity(char* buffer, size_t size, const char* format) {
  Thread* me = self();
  if (!format || !*format) format = g_icv.affinity_format;
  if (!buffer) size = 0;
  return affinity_format_expand(buffer, size, format, me);
}

KITE_EXPORT void omp_display_env(int verbose) {
  runtime_init();
  display_env(verbose != 0);
}

}  // extern "C"
