// LLVM ABI: reductions (__kmpc_reduce*, __kmpc_end_reduce*).
//
// Kite answers 1, the "critical" method: each thread folds its partial
// values into the shared ones while it holds the reduction's lock, then
// calls the matching end. It is correct for every reduction clang emits.
// (2 would be the atomic method, 0 "nothing to do on this thread" for a
// tree combined by the runtime: later optimizations.)
#include "abi/kmpc/kmpc.h"
#include "core/reduce.h"

using namespace kite;

namespace {

inline LockWord* lock_of(kmp_critical_name* lck) {
  static_assert(sizeof(kmp_critical_name) >= sizeof(LockWord));
  return reinterpret_cast<LockWord*>(lck);
}

}  // namespace

extern "C" {

KITE_EXPORT kmp_int32 __kmpc_reduce_nowait(ident_t*, kmp_int32, kmp_int32, size_t, void*,
                                           void (*)(void*, void*), kmp_critical_name* lck) {
  reduction_combine_begin(lock_of(lck));
  return 1;
}

KITE_EXPORT void __kmpc_end_reduce_nowait(ident_t*, kmp_int32, kmp_critical_name* lck) {
  reduction_combine_end(lock_of(lck));
}

KITE_EXPORT kmp_int32 __kmpc_reduce(ident_t*, kmp_int32, kmp_int32, size_t, void*,
                                    void (*)(void*, void*), kmp_critical_name* lck) {
  reduction_combine_begin(lock_of(lck));
  return 1;
}

// The blocking form ends with a barrier: every thread sees the combined
// values after it.
KITE_EXPORT void __kmpc_end_reduce(ident_t*, kmp_int32, kmp_critical_name* lck) {
  reduction_combine_end(lock_of(lck));
  team_barrier(self());
}

}  // extern "C"
