// LLVM ABI: barrier, critical, single, master/masked, ordered, flush,
// copyprivate and cancellation.
#include "abi/kmpc/kmpc.h"
#include "core/copyprivate.h"
#include "core/lock.h"
#include "core/loop.h"
#include "ompt/events_ws.h"

using namespace kite;
using namespace kite::kmpc;

namespace {

// The lock of a critical region lives in place in the first word of the
// compiler's 32-byte kmp_critical_name (zero-initialized, shared by every
// object that names the region).
inline void** critical_slot(kmp_critical_name* crit) {
  static_assert(sizeof(kmp_critical_name) >= sizeof(void*));
  return reinterpret_cast<void**>(crit);
}

// Cancel kinds of the LLVM ABI (cncl_kind) as the core's CancelKind bits.
int cancel_kind(kmp_int32 kind, const char* entry) {
  switch (kind) {
    case 1: return kCancelParallel;
    case 2: return kCancelLoop;
    case 3: return kCancelSections;
    case 4: return kCancelTaskgroup;
    default:
      warn("%s: unknown construct kind %d; nothing is cancelled", entry, kind);
      return 0;
  }
}

}  // namespace

extern "C" {

// Clang uses this one entry point for explicit barriers and for the
// implicit ones that end worksharing constructs; the ident flags tell them
// apart (tools see the difference). A cancellable barrier with the generic
// implicit flag may end a parallel region instead (whose barrier the join
// reports), so only the sections/single/workshare values are taken as a
// construct's barrier there.
KITE_EXPORT void __kmpc_barrier(ident_t* loc, kmp_int32) {
  Thread* me = self();
  if (loc && (loc->flags & kIdentBarrierExplicit))
    explicit_barrier(me, KITE_RETURN_ADDRESS(), __builtin_dwarf_cfa());
  else if (loc && (loc->flags & kIdentBarrierImplicitMask))
    workshare_barrier(me, KITE_RETURN_ADDRESS(), __builtin_dwarf_cfa());
  else
    team_barrier(me);
}

KITE_EXPORT kmp_int32 __kmpc_cancel_barrier(ident_t* loc, kmp_int32) {
  Thread* me = self();
  bool cancelled;
  if (loc && (loc->flags & kIdentBarrierExplicit))
    cancelled = explicit_barrier_cancellable(me, KITE_RETURN_ADDRESS(), __builtin_dwarf_cfa());
  else if (loc && (loc->flags & kIdentBarrierImplicitMask & ~kIdentBarrierImplicitGeneric))
    cancelled = workshare_barrier_cancellable(me, KITE_RETURN_ADDRESS(), __builtin_dwarf_cfa());
  else
    cancelled = team_barrier_cancellable(me);
  return cancelled ? 1 : 0;
}

KITE_EXPORT kmp_int32 __kmpc_cancel(ident_t*, kmp_int32, kmp_int32 cncl_kind) {
  int which = cancel_kind(cncl_kind, "__kmpc_cancel");
  return which && cancel_activate(self(), which, KITE_RETURN_ADDRESS()) ? 1 : 0;
}

KITE_EXPORT kmp_int32 __kmpc_cancellationpoint(ident_t*, kmp_int32, kmp_int32 cncl_kind) {
  int which = cancel_kind(cncl_kind, "__kmpc_cancellationpoint");
  return which && cancellation_point(self(), which, KITE_RETURN_ADDRESS()) ? 1 : 0;
}

KITE_EXPORT void __kmpc_critical(ident_t*, kmp_int32, kmp_critical_name* crit) {
  critical_name_enter(critical_slot(crit), KITE_RETURN_ADDRESS());
}

// The lock adapts to contention by itself; hints change nothing.
KITE_EXPORT void __kmpc_critical_with_hint(ident_t*, kmp_int32, kmp_critical_name* crit,
                                           uint32_t) {
  critical_name_enter(critical_slot(crit), KITE_RETURN_ADDRESS());
}

KITE_EXPORT void __kmpc_end_critical(ident_t*, kmp_int32, kmp_critical_name* crit) {
  critical_name_exit(critical_slot(crit), KITE_RETURN_ADDRESS());
}

KITE_EXPORT kmp_int32 __kmpc_single(ident_t*, kmp_int32) {
  return single_start(self(), KITE_RETURN_ADDRESS(), /*executor_ends=*/true) ? 1 : 0;
}

// Only the executing thread calls it. The construct was left in
// __kmpc_single; the barrier, if any, is a separate __kmpc_barrier (or
// __kmpc_copyprivate) call.
KITE_EXPORT void __kmpc_end_single(ident_t*, kmp_int32) { single_end(self()); }

// masked / master: the test is the whole construct; tools hear of the
// block on the thread that runs it (the end's codeptr_ra is the end call's).
KITE_EXPORT kmp_int32 __kmpc_masked(ident_t*, kmp_int32, kmp_int32 filter) {
  Thread* me = self();
  if (me->tid != filter) return 0;
  if (KITE_UNLIKELY(ompt::active())) ompt::masked_slow(me, ompt_scope_begin, KITE_RETURN_ADDRESS());
  return 1;
}

KITE_EXPORT void __kmpc_end_masked(ident_t*, kmp_int32) {
  if (KITE_UNLIKELY(ompt::active())) ompt::masked_slow(self(), ompt_scope_end, KITE_RETURN_ADDRESS());
}

KITE_EXPORT kmp_int32 __kmpc_master(ident_t*, kmp_int32) {
  Thread* me = self();
  if (me->tid != 0) return 0;
  if (KITE_UNLIKELY(ompt::active())) ompt::masked_slow(me, ompt_scope_begin, KITE_RETURN_ADDRESS());
  return 1;
}

KITE_EXPORT void __kmpc_end_master(ident_t*, kmp_int32) {
  if (KITE_UNLIKELY(ompt::active())) ompt::masked_slow(self(), ompt_scope_end, KITE_RETURN_ADDRESS());
}

KITE_EXPORT void __kmpc_ordered(ident_t*, kmp_int32) {
  ordered_start(self(), __builtin_return_address(0));
}

KITE_EXPORT void __kmpc_end_ordered(ident_t*, kmp_int32) {
  ordered_end(self(), __builtin_return_address(0));
}

KITE_EXPORT void __kmpc_flush(ident_t*) {
  std::atomic_thread_fence(std::memory_order_seq_cst);
  if (KITE_UNLIKELY(ompt::active())) ompt::flush_slow(self(), KITE_RETURN_ADDRESS());
}

// After a single with copyprivate: the thread that ran it (didit) offers
// its variables' addresses (cpy_data), every other thread copies from them.
KITE_EXPORT void __kmpc_copyprivate(ident_t*, kmp_int32, size_t, void* cpy_data,
                                    void (*cpy_func)(void* dst, void* src), kmp_int32 didit) {
  Thread* me = self();
  void* src = copyprivate_broadcast(me, cpy_data, didit != 0, KITE_RETURN_ADDRESS(),
                                    __builtin_dwarf_cfa());
  if (!didit && src != cpy_data) cpy_func(cpy_data, src);
  copyprivate_done(me);
}

}  // extern "C"
