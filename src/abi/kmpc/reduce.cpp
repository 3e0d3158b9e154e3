// LLVM ABI: reductions (__kmpc_reduce*, __kmpc_end_reduce*).
//
// Kite answers 1, the "critical" method: each thread folds its partial
// values into the shared ones while it holds the reduction's lock, then
// calls the matching end. It is correct for every reduction clang emits.
// (2 would be the atomic method, 0 "nothing to do on this thread" for a
// tree combined by the runtime: later optimizations.)
#include "abi/kmpc/kmpc.h"
#include "core/reduce.h"
#include "ompt/events_ws.h"

using namespace kite;

namespace {

inline LockWord* lock_of(kmp_critical_name* lck) {
  static_assert(sizeof(kmp_critical_name) >= sizeof(LockWord));
  return reinterpret_cast<LockWord*>(lck);
}

// Tools: ompt_callback_reduction begin/end brackets the combination, on
// each thread (codeptr_ra: the __kmpc_reduce* / __kmpc_end_reduce* call's).
inline void combine_begin(kmp_critical_name* lck, const void* codeptr_ra) {
  if (KITE_UNLIKELY(ompt::active())) ompt::reduction_slow(self(), ompt_scope_begin, codeptr_ra);
  reduction_combine_begin(lock_of(lck));
}

inline void combine_end(kmp_critical_name* lck, const void* codeptr_ra) {
  reduction_combine_end(lock_of(lck));
  if (KITE_UNLIKELY(ompt::active())) ompt::reduction_slow(self(), ompt_scope_end, codeptr_ra);
}

}  // namespace

extern "C" {

KITE_EXPORT kmp_int32 __kmpc_reduce_nowait(ident_t*, kmp_int32, kmp_int32, size_t, void*,
                                           void (*)(void*, void*), kmp_critical_name* lck) {
  combine_begin(lck, KITE_RETURN_ADDRESS());
  return 1;
}

KITE_EXPORT void __kmpc_end_reduce_nowait(ident_t*, kmp_int32, kmp_critical_name* lck) {
  combine_end(lck, KITE_RETURN_ADDRESS());
}

KITE_EXPORT kmp_int32 __kmpc_reduce(ident_t*, kmp_int32, kmp_int32, size_t, void*,
                                    void (*)(void*, void*), kmp_critical_name* lck) {
  combine_begin(lck, KITE_RETURN_ADDRESS());
  return 1;
}

// The blocking form ends with a barrier: every thread sees the combined
// values after it. It is the runtime's own barrier, so tools see it as one
// (sync_region and sync_region_wait of kind
// ompt_sync_region_barrier_implementation, state
// wait_barrier_implementation), as __kmpc_copyprivate's second barrier.
// Not ompt_sync_region_reduction: that kind is the one
// ompt_callback_reduction passes for the reduction-begin/-end events
// (OpenMP 5.2 §5.5.5: "The reduction-begin event occurs before a task
// begins to perform loads and stores that belong to the implementation of
// a reduction"), which combine_begin/combine_end already dispatch; a tool
// registering both callbacks would see each reduction twice. clang follows it with the
// construct's own implicit barrier (__kmpc_barrier), reported apart.
KITE_EXPORT void __kmpc_end_reduce(ident_t*, kmp_int32, kmp_critical_name* lck) {
  Thread* me = self();
  combine_end(lck, KITE_RETURN_ADDRESS());
  if (KITE_UNLIKELY(ompt::active())) {
    ompt::barrier_slow(me, ompt_sync_region_barrier_implementation, ompt_scope_begin,
                       KITE_RETURN_ADDRESS(), __builtin_dwarf_cfa());
    team_barrier(me);
    ompt::barrier_slow(me, ompt_sync_region_barrier_implementation, ompt_scope_end,
                       KITE_RETURN_ADDRESS(), nullptr);
    return;
  }
  team_barrier(me);
}

}  // extern "C"
