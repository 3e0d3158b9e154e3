// Fortran entry points for the processor, place and binding queries
// (C side: affinity_api.cpp).
#include <omp.h>

#include <cstring>

#include "api/fortran_args.h"

using namespace kite::fortran;

namespace {

// The C routines fill int arrays; the _8_ entry points receive an
// INTEGER(8) array of the same element count. Let the C routine fill the
// front half, then widen in place from the last element down: element i is
// read (bytes 4i..4i+3) before anything is written over it, because the
// writes so far only covered bytes from 8(i+1) up.
void widen_in_place(int64_t* array, int count) {
  for (int i = count - 1; i >= 0; --i) {
    int32_t v;
    std::memcpy(&v, reinterpret_cast<const char*>(array) + 4 * static_cast<std::size_t>(i), 4);
    array[i] = v;
  }
}

}  // namespace

extern "C" {

KITE_EXPORT int32_t omp_get_num_procs_(void) { return omp_get_num_procs(); }
KITE_EXPORT int32_t omp_get_proc_bind_(void) { return static_cast<int32_t>(omp_get_proc_bind()); }
KITE_EXPORT int32_t omp_get_num_places_(void) { return omp_get_num_places(); }
KITE_EXPORT int32_t omp_get_place_num_(void) { return omp_get_place_num(); }
KITE_EXPORT int32_t omp_get_partition_num_places_(void) { return omp_get_partition_num_places(); }

KITE_EXPORT int32_t omp_get_place_num_procs_(const int32_t* place) {
  return omp_get_place_num_procs(*place);
}
KITE_EXPORT int32_t omp_get_place_num_procs_8_(const int64_t* place) {
  return omp_get_place_num_procs(narrow(*place, "omp_get_place_num_procs"));
}

KITE_EXPORT void omp_get_place_proc_ids_(const int32_t* place, int32_t* ids) {
  omp_get_place_proc_ids(*place, ids);
}
KITE_EXPORT void omp_get_place_proc_ids_8_(const int64_t* place, int64_t* ids) {
  const int p = narrow(*place, "omp_get_place_proc_ids");
  const int n = omp_get_place_num_procs(p);
  if (n <= 0) return;
  omp_get_place_proc_ids(p, reinterpret_cast<int*>(ids));
  widen_in_place(ids, n);
}

KITE_EXPORT void omp_get_partition_place_nums_(int32_t* place_nums) {
  omp_get_partition_place_nums(place_nums);
}
KITE_EXPORT void omp_get_partition_place_nums_8_(int64_t* place_nums) {
  const int n = omp_get_partition_num_places();
  if (n <= 0) return;
  omp_get_partition_place_nums(reinterpret_cast<int*>(place_nums));
  widen_in_place(place_nums, n);
}

}  // extern "C"
