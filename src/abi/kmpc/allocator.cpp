// LLVM ABI: the allocator routines behind libomp's omp_init_allocator,
// omp_destroy_allocator and omp_{get,set}_default_allocator (the handles
// are omp_allocator_handle_t values; see alloc.cpp for the memory calls).
#include "abi/kmpc/kmpc.h"
#include "core/alloc.h"

using namespace kite;

namespace {

// LLVM 22's omp.h numbers omp_default_mem_space 99 (0 became
// omp_null_mem_space); older omp.h files, and gcc's, number it 0.
constexpr uintptr_t kLlvm22DefaultMemSpace = 99;

}  // namespace

extern "C" {

KITE_EXPORT uintptr_t __kmpc_init_allocator(int, uintptr_t memspace, int ntraits,
                                            const AllocTrait* traits) {
  if (memspace == kLlvm22DefaultMemSpace) memspace = 0;
  return allocator_create(memspace, ntraits, traits);
}

KITE_EXPORT void __kmpc_destroy_allocator(int, uintptr_t allocator) {
  allocator_destroy(allocator);
}

KITE_EXPORT void __kmpc_set_default_allocator(int, uintptr_t allocator) {
  set_default_allocator(allocator);
}

KITE_EXPORT uintptr_t __kmpc_get_default_allocator(int) { return default_allocator(); }

}  // extern "C"
