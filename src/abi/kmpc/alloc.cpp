// LLVM ABI: memory for the allocate directive and clause (__kmpc_alloc and
// friends). Allocator handles are omp_allocator_handle_t values, the same
// numbering in clang's and gcc's omp.h.
#include "abi/kmpc/kmpc.h"
#include "core/alloc.h"

using namespace kite;

extern "C" {

KITE_EXPORT void* __kmpc_alloc(kmp_int32, size_t size, uintptr_t allocator) {
  return mem_alloc(0, size, allocator, "__kmpc_alloc");
}

KITE_EXPORT void* __kmpc_aligned_alloc(kmp_int32, size_t align, size_t size,
                                       uintptr_t allocator) {
  return mem_alloc(align, size, allocator, "__kmpc_aligned_alloc");
}

KITE_EXPORT void* __kmpc_calloc(kmp_int32, size_t nmemb, size_t size, uintptr_t allocator) {
  return mem_calloc(0, nmemb, size, allocator, "__kmpc_calloc");
}

KITE_EXPORT void* __kmpc_realloc(kmp_int32, void* ptr, size_t size, uintptr_t allocator,
                                 uintptr_t free_allocator) {
  return mem_realloc(ptr, size, allocator, free_allocator);
}

KITE_EXPORT void __kmpc_free(kmp_int32, void* ptr, uintptr_t allocator) {
  mem_free(ptr, allocator);
}

}  // extern "C"
