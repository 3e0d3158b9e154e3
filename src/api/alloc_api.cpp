// omp_* memory management routines (OpenMP 5.2 section 18.13).
#include "core/alloc.h"

using namespace kite;

extern "C" {

KITE_EXPORT uintptr_t omp_init_allocator(uintptr_t memspace, int ntraits,
                                         const AllocTrait* traits) {
  return allocator_create(memspace, ntraits, traits);
}

KITE_EXPORT void omp_destroy_allocator(uintptr_t allocator) { allocator_destroy(allocator); }

KITE_EXPORT void omp_set_default_allocator(uintptr_t allocator) {
  set_default_allocator(allocator);
}

KITE_EXPORT uintptr_t omp_get_default_allocator(void) { return default_allocator(); }

KITE_EXPORT void* omp_alloc(size_t size, uintptr_t allocator) {
  return mem_alloc(0, size, allocator, "omp_alloc");
}

KITE_EXPORT void* omp_aligned_alloc(size_t alignment, size_t size, uintptr_t allocator) {
  return mem_alloc(alignment, size, allocator, "omp_aligned_alloc");
}

KITE_EXPORT void* omp_calloc(size_t nmemb, size_t size, uintptr_t allocator) {
  return mem_calloc(0, nmemb, size, allocator, "omp_calloc");
}

KITE_EXPORT void* omp_aligned_calloc(size_t alignment, size_t nmemb, size_t size,
                                     uintptr_t allocator) {
  return mem_calloc(alignment, nmemb, size, allocator, "omp_aligned_calloc");
}

KITE_EXPORT void* omp_realloc(void* ptr, size_t size, uintptr_t allocator,
                              uintptr_t free_allocator) {
  return mem_realloc(ptr, size, allocator, free_allocator);
}

KITE_EXPORT void omp_free(void* ptr, uintptr_t allocator) { mem_free(ptr, allocator); }

}  // extern "C"
