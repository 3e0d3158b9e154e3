// OpenMP memory management (OpenMP 5.2 chapter 6): allocators with traits,
// served by the host heap for every memory space.
//
// Handles: 0 is omp_null_allocator ("use def-allocator-var"), 1..8 are the
// predefined allocators (omp.h values), and allocators made by
// omp_init_allocator get small integers from kUserAllocatorBase up, indexes
// into a table whose entries are never returned to the heap. A handle is
// therefore checked without dereferencing anything the program gave us.
//
// Every block starts with a header (just before the returned pointer) naming
// the allocator that served it, so omp_free and omp_realloc need no allocator
// argument and pool accounting survives fallbacks.
#pragma once

#include "base.h"

namespace kite {

using AllocatorHandle = uintptr_t;

constexpr AllocatorHandle kNullAllocator = 0;
constexpr AllocatorHandle kDefaultMemAlloc = 1;
constexpr AllocatorHandle kLastPredefinedAllocator = 8;  // omp_thread_mem_alloc
constexpr AllocatorHandle kUserAllocatorBase = 0x1000;
constexpr uintptr_t kLastMemSpace = 4;  // omp_low_lat_mem_space (99: see allocator_create)

// omp_alloctrait_t's layout.
struct AllocTrait {
  int key;
  uintptr_t value;
};

// Creates an allocator; returns kNullAllocator (after a warning naming the
// culprit) for an unknown memory space, trait key or trait value. Both
// omp.h numberings are accepted: gcc's and LLVM before 22 (default space 0)
// and LLVM 22's (default space 99, access=all 19).
AllocatorHandle allocator_create(uintptr_t memspace, long ntraits, const AllocTrait* traits);
void allocator_destroy(AllocatorHandle a);

// def-allocator-var of the current task.
AllocatorHandle default_allocator();
void set_default_allocator(AllocatorHandle a);

// Allocation with the allocator's traits and fallback. `alignment` is the
// caller's request (0 or 1: none) and must be a power of two; `routine`
// names the caller in diagnostics. Size 0 returns null.
void* mem_alloc(size_t alignment, size_t size, AllocatorHandle a, const char* routine);
void* mem_calloc(size_t alignment, size_t n, size_t size, AllocatorHandle a,
                 const char* routine);
void* mem_realloc(void* p, size_t size, AllocatorHandle a, AllocatorHandle free_a);
void mem_free(void* p, AllocatorHandle a);

}  // namespace kite
