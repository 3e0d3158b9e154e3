// LLVM libomp's kmp_* extension routines that map onto Kite's own settings:
// worker stack size (OMP_STACKSIZE), the time a waiting thread spins
// before it sleeps (KITE_SPIN_US; libomp calls it blocktime and sets it per
// team, Kite has one budget for the process), and the memory routines.
// Each comes in three bindings, as libomp exports them: C (kmp_*), Fortran
// (kmp_*_, arguments by reference) and the kmpc_* forms that other
// compilers' Fortran code calls with arguments by value.
#include <limits.h>
#include <stdlib.h>

#include "abi/kmpc/kmpc.h"

using namespace kite;

namespace {

void set_stacksize(const char* routine, long long bytes) {
  if (bytes <= 0) {
    warn("%s(%lld): stack size is not positive; keeping %ld bytes", routine, bytes,
         g_icv.stacksize);
    return;
  }
  // Applies to worker threads created from now on.
  g_icv.stacksize = static_cast<long>(bytes);
}

}  // namespace

extern "C" {

KITE_EXPORT void kmp_set_stacksize(int bytes) { set_stacksize("kmp_set_stacksize", bytes); }

KITE_EXPORT void kmp_set_stacksize_s(size_t bytes) {
  set_stacksize("kmp_set_stacksize_s", bytes > size_t(LONG_MAX) ? -1 : (long long)bytes);
}

KITE_EXPORT int kmp_get_stacksize(void) {
  return g_icv.stacksize > INT_MAX ? INT_MAX : static_cast<int>(g_icv.stacksize);
}

KITE_EXPORT size_t kmp_get_stacksize_s(void) { return static_cast<size_t>(g_icv.stacksize); }

// Milliseconds; an unbounded spin reads as INT_MAX (libomp's "infinite").
KITE_EXPORT int kmp_get_blocktime(void) {
  long us = g_icv.spin_us;
  if (us < 0) return INT_MAX;
  return static_cast<int>(us / 1000);
}

KITE_EXPORT void kmp_set_blocktime(int msec) {
  if (msec < 0) {
    warn("kmp_set_blocktime(%d): negative time; keeping the current spin budget", msec);
    return;
  }
  long us = msec == INT_MAX ? -1 : static_cast<long>(msec) * 1000;
  g_icv.spin_us = us;
  spin_set_budget_us(us);
}

KITE_EXPORT void* kmp_malloc(size_t size) { return malloc(size); }

KITE_EXPORT void* kmp_calloc(size_t n, size_t size) { return calloc(n, size); }

KITE_EXPORT void* kmp_realloc(void* p, size_t size) { return realloc(p, size); }

KITE_EXPORT void* kmp_aligned_malloc(size_t size, size_t alignment) {
  void* p = nullptr;
  if (alignment < sizeof(void*)) alignment = sizeof(void*);
  if (posix_memalign(&p, alignment, size) != 0) return nullptr;
  return p;
}

KITE_EXPORT void kmp_free(void* p) { free(p); }

// --- Fortran: arguments by reference ----------------------------------------

KITE_EXPORT void kmp_set_stacksize_(const int* bytes) {
  set_stacksize("kmp_set_stacksize", *bytes);
}

KITE_EXPORT void kmp_set_stacksize_s_(const size_t* bytes) { kmp_set_stacksize_s(*bytes); }

KITE_EXPORT int kmp_get_stacksize_(void) { return kmp_get_stacksize(); }

KITE_EXPORT size_t kmp_get_stacksize_s_(void) { return kmp_get_stacksize_s(); }

KITE_EXPORT void kmp_set_blocktime_(const int* msec) { kmp_set_blocktime(*msec); }

KITE_EXPORT int kmp_get_blocktime_(void) { return kmp_get_blocktime(); }

KITE_EXPORT void* kmp_malloc_(const size_t* size) { return malloc(*size); }

KITE_EXPORT void* kmp_calloc_(const size_t* n, const size_t* size) { return calloc(*n, *size); }

KITE_EXPORT void* kmp_realloc_(void* const* p, const size_t* size) { return realloc(*p, *size); }

KITE_EXPORT void* kmp_aligned_malloc_(const size_t* size, const size_t* alignment) {
  return kmp_aligned_malloc(*size, *alignment);
}

KITE_EXPORT void kmp_free_(void* const* p) { free(*p); }

// --- kmpc_*: by value --------------------------------------------------------

KITE_EXPORT void kmpc_set_stacksize(int bytes) { set_stacksize("kmpc_set_stacksize", bytes); }

KITE_EXPORT void kmpc_set_stacksize_s(size_t bytes) { kmp_set_stacksize_s(bytes); }

KITE_EXPORT void kmpc_set_blocktime(int msec) { kmp_set_blocktime(msec); }

KITE_EXPORT void* kmpc_malloc(size_t size) { return malloc(size); }

KITE_EXPORT void* kmpc_calloc(size_t n, size_t size) { return calloc(n, size); }

KITE_EXPORT void* kmpc_realloc(void* p, size_t size) { return realloc(p, size); }

KITE_EXPORT void* kmpc_aligned_malloc(size_t size, size_t alignment) {
  return kmp_aligned_malloc(size, alignment);
}

KITE_EXPORT void kmpc_free(void* p) { free(p); }

}  // extern "C"
