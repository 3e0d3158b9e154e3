// Fortran entry points for the allocator-handle routines (C side:
// alloc_api.cpp). omp_alloc, omp_free and friends have no Fortran entry
// points: omp_lib binds them to the C routines directly (BIND(C)).
#include <omp.h>

#include "api/fortran_args.h"

using namespace kite::fortran;

// omp_lib's TYPE(omp_alloctrait) is an INTEGER(c_int) key and an
// INTEGER(c_intptr_t) value, laid out as the C struct; the traits array is
// passed to C as is.
static_assert(sizeof(omp_alloctrait_t) == 16 && offsetof(omp_alloctrait_t, value) == 8,
              "omp_alloctrait_t must match Fortran TYPE(omp_alloctrait)");

extern "C" {

KITE_EXPORT intptr_t omp_init_allocator_(const intptr_t* memspace, const int32_t* ntraits,
                                         const omp_alloctrait_t* traits) {
  return static_cast<intptr_t>(
      omp_init_allocator(static_cast<omp_memspace_handle_t>(*memspace), *ntraits, traits));
}
KITE_EXPORT intptr_t omp_init_allocator_8_(const intptr_t* memspace, const int64_t* ntraits,
                                           const omp_alloctrait_t* traits) {
  return static_cast<intptr_t>(omp_init_allocator(static_cast<omp_memspace_handle_t>(*memspace),
                                                  narrow(*ntraits, "omp_init_allocator"), traits));
}

KITE_EXPORT void omp_destroy_allocator_(const intptr_t* allocator) {
  omp_destroy_allocator(static_cast<omp_allocator_handle_t>(*allocator));
}
KITE_EXPORT void omp_set_default_allocator_(const intptr_t* allocator) {
  omp_set_default_allocator(static_cast<omp_allocator_handle_t>(*allocator));
}
KITE_EXPORT intptr_t omp_get_default_allocator_(void) {
  return static_cast<intptr_t>(omp_get_default_allocator());
}

}  // extern "C"
