// LLVM ABI: barrier, critical, single, master/masked, ordered, flush,
// copyprivate and cancellation.
#include "abi/kmpc/kmpc.h"
#include "core/cancel.h"
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

// The team whose parallel region this thread leaves after its own cancel
// construct or cancellation point answered "cancelled" (see
// __kmpc_cancel_barrier); null otherwise.
__thread Team* t_leaving_team = nullptr;

inline void note_leaving(Thread* me, int which, bool cancelled) {
  if (cancelled && (which & kCancelParallel)) t_leaving_team = me->team;
}

}  // namespace

extern "C" {

// Clang uses this one entry point for explicit barriers and for the
// implicit ones that end worksharing constructs; the ident flags tell them
// apart (tools see the difference).
KITE_EXPORT void __kmpc_barrier(ident_t* loc, kmp_int32) {
  Thread* me = self();
  if (loc && (loc->flags & kIdentBarrierExplicit))
    explicit_barrier(me, KITE_RETURN_ADDRESS(), __builtin_dwarf_cfa());
  else if (loc && (loc->flags & kIdentBarrierImplicitMask))
    workshare_barrier(me, KITE_RETURN_ADDRESS(), __builtin_dwarf_cfa());
  else
    team_barrier(me);
}

// In a parallel region holding `cancel parallel`, clang 14 makes every
// barrier of the region cancellable: explicit ones (flags 0x22), the
// implicit barriers of its constructs (loop 0x42, sections 0xC2, single
// 0x142), and one more, with the loop's flags, on the path of a thread that
// leaves the region because its own cancel construct or cancellation point
// answered "cancelled" (the region's end itself has no barrier call; the
// join has its own). That last one is told from a loop's barrier by the
// mark the answer leaves: it belongs to no construct, so tools hear nothing
// of it (the thread already reported the cancellation).
KITE_EXPORT kmp_int32 __kmpc_cancel_barrier(ident_t* loc, kmp_int32) {
  Thread* me = self();
  const int32_t flags = loc ? loc->flags : 0;
  const bool leaving = t_leaving_team == me->team && me->team;
  t_leaving_team = nullptr;
  bool cancelled;
  if (flags & kIdentBarrierExplicit)
    cancelled = explicit_barrier_cancel(me, KITE_RETURN_ADDRESS(), __builtin_dwarf_cfa());
  else if ((flags & kIdentBarrierImplicitMask) && !leaving)
    cancelled = workshare_barrier_cancellable(me, KITE_RETURN_ADDRESS(), __builtin_dwarf_cfa());
  else
    cancelled = team_barrier_cancellable(me);
  return cancelled ? 1 : 0;
}

KITE_EXPORT kmp_int32 __kmpc_cancel(ident_t*, kmp_int32, kmp_int32 cncl_kind) {
  int which = cancel_kind(cncl_kind, "__kmpc_cancel");
  Thread* me = self();
  bool cancelled = which && cancel_activate(me, which, KITE_RETURN_ADDRESS());
  note_leaving(me, which, cancelled);
  return cancelled ? 1 : 0;
}

KITE_EXPORT kmp_int32 __kmpc_cancellationpoint(ident_t*, kmp_int32, kmp_int32 cncl_kind) {
  int which = cancel_kind(cncl_kind, "__kmpc_cancellationpoint");
  Thread* me = self();
  bool cancelled = which && cancellation_point(me, which, KITE_RETURN_ADDRESS());
  note_leaving(me, which, cancelled);
  return cancelled ? 1 : 0;
}

KITE_EXPORT void __kmpc_critical(ident_t*, kmp_int32, kmp_critical_name* crit) {
  critical_name_enter(critical_slot(crit), KITE_RETURN_ADDRESS());
}

// The lock adapts to contention by itself; the hint changes nothing but
// what tools are told (mutex_acquire's hint).
KITE_EXPORT void __kmpc_critical_with_hint(ident_t*, kmp_int32, kmp_critical_name* crit,
                                           uint32_t hint) {
  critical_name_enter(critical_slot(crit), KITE_RETURN_ADDRESS(), hint);
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
  flush_hint();
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
  // The barrier after the copies is the runtime's own, not the construct's
  // (the first one was): tools see it as an implementation barrier.
  const bool tool = KITE_UNLIKELY(ompt::active()) && me->team && me->team->nthreads > 1;
  if (tool)
    ompt::barrier_slow(me, ompt_sync_region_barrier_implementation, ompt_scope_begin,
                       KITE_RETURN_ADDRESS(), __builtin_dwarf_cfa());
  copyprivate_done(me);
  if (tool)
    ompt::barrier_slow(me, ompt_sync_region_barrier_implementation, ompt_scope_end,
                       KITE_RETURN_ADDRESS(), nullptr);
}

}  // extern "C"
