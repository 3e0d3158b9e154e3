// LLVM ABI: dynamically scheduled loops (__kmpc_dispatch_*): dynamic,
// guided, runtime, auto, and every ordered loop. The core schedules the
// logical iterations 0..trip-1; this file translates chunks back into the
// caller's bounds.
#include "abi/kmpc/loop_bounds.h"
#include "abi/kmpc/loop_state.h"
#include "core/loop.h"
#include "ompt/events_ws.h"

using namespace kite;
using namespace kite::kmpc;

namespace {

// Schedule numbers of the LLVM ABI (enum sched_type); ordered kinds are the
// plain ones + 32, and the high bits carry the monotonic modifiers.
constexpr kmp_int32 kSchModifierMask = (1 << 29) | (1 << 30);
constexpr kmp_int32 kSchOrderedOffset = 32;

int core_sched(kmp_int32 schedule, bool* ordered, bool* chunked) {
  kmp_int32 s = schedule & ~kSchModifierMask;
  *ordered = s >= 65 && s <= 79;
  if (*ordered) s -= kSchOrderedOffset;
  *chunked = true;
  switch (s) {
    case 33: return int(Sched::kStatic);                         // static_chunked
    case 34: case 40: case 41: case 45:                          // static (balanced, greedy, simd)
      *chunked = false;
      return int(Sched::kStatic);
    case 35: case 44: return int(Sched::kDynamic);               // dynamic_chunked, static_steal
    case 36: case 39: case 42: case 43: case 46:                 // guided variants, trapezoidal
      return int(Sched::kGuided);
    case 37: case 47: return kSchedRuntime;                      // runtime (simd)
    case 38: return int(Sched::kAuto);
    default:
      warn("__kmpc_dispatch_init: unknown schedule %d; using runtime", schedule);
      return kSchedRuntime;
  }
}

// Tools: the loop begins here (count: its iterations) and each chunk is
// dispatched by the core as logical iterations of 0..trip-1, which are the
// values clang passes (it normalizes the loops it hands to dispatch_init to
// 0..n-1 by 1). codeptr_ra: the init call's.
template <typename T, typename ST>
void dispatch_init(kmp_int32 schedule, T lb, T ub, ST st, ST chunk, const void* codeptr_ra) {
  Thread* me = self();
  bool ordered, chunked;
  int sched = core_sched(schedule, &ordered, &chunked);
  unsigned long long trip = trip_count(lb, ub, st, "__kmpc_dispatch_init");
  LevelLoop* rec = level_loop(me);
  rec->lb = static_cast<unsigned long long>(lb);
  rec->st = st;
  rec->trip = trip;
  LoopSpec spec{};
  spec.bounds = loop_bounds_ull(true, 0, trip, 1);
  spec.sched = sched;
  // Chunk 0 asks the core for each kind's default.
  spec.chunk = chunked && chunk > 0 ? static_cast<unsigned long long>(chunk) : 0;
  spec.ordered = ordered;
  int kind;
  unsigned long long ck;
  loop_resolve_schedule(me, spec.sched, spec.chunk, &kind, &ck);
  if (rec->doacross == Doacross::kAnnounced)
    doacross_enter_announced(me, rec, kind, ck, trip, true, codeptr_ra);
  else {
    WorkShare* ws = loop_enter(me, spec, kind, ck, nullptr, nullptr, true);
    ompt::on_work_begin(me, ompt::loop_work_type(kind), ws->total, codeptr_ra);
  }
}

template <typename T, typename ST>
int dispatch_next(kmp_int32* p_last, T* p_lb, T* p_ub, ST* p_st) {
  Thread* me = self();
  LoopChunk c;
  if (!loop_next(me, &c)) {
    // The thread's part of the construct is over; the barrier, if any, is
    // a separate __kmpc_barrier call.
    loop_end_nowait(me);
    return 0;
  }
  const LevelLoop* rec = level_loop(me);
  const T lb = static_cast<T>(rec->lb);
  const ST st = static_cast<ST>(rec->st);
  *p_lb = iteration_value(lb, st, c.istart);
  *p_ub = iteration_value(lb, st, c.iend - 1);
  if (p_st) *p_st = st;
  if (p_last) *p_last = c.iend == rec->trip ? 1 : 0;
  return 1;
}

}  // namespace

namespace kite::kmpc {

template <typename T, typename ST>
void dispatch_init_at(kmp_int32 schedule, T lb, T ub, ST st, ST chunk, const void* codeptr_ra) {
  dispatch_init(schedule, lb, ub, st, chunk, codeptr_ra);
}
template void dispatch_init_at(kmp_int32, kmp_int32, kmp_int32, kmp_int32, kmp_int32, const void*);
template void dispatch_init_at(kmp_int32, kmp_uint32, kmp_uint32, kmp_int32, kmp_int32,
                               const void*);
template void dispatch_init_at(kmp_int32, kmp_int64, kmp_int64, kmp_int64, kmp_int64, const void*);
template void dispatch_init_at(kmp_int32, kmp_uint64, kmp_uint64, kmp_int64, kmp_int64,
                               const void*);

}  // namespace kite::kmpc

extern "C" {

KITE_EXPORT void __kmpc_dispatch_init_4(ident_t*, kmp_int32, kmp_int32 schedule, kmp_int32 lb,
                                        kmp_int32 ub, kmp_int32 st, kmp_int32 chunk) {
  dispatch_init(schedule, lb, ub, st, chunk, KITE_RETURN_ADDRESS());
}

KITE_EXPORT void __kmpc_dispatch_init_4u(ident_t*, kmp_int32, kmp_int32 schedule,
                                         kmp_uint32 lb, kmp_uint32 ub, kmp_int32 st,
                                         kmp_int32 chunk) {
  dispatch_init(schedule, lb, ub, st, chunk, KITE_RETURN_ADDRESS());
}

KITE_EXPORT void __kmpc_dispatch_init_8(ident_t*, kmp_int32, kmp_int32 schedule, kmp_int64 lb,
                                        kmp_int64 ub, kmp_int64 st, kmp_int64 chunk) {
  dispatch_init(schedule, lb, ub, st, chunk, KITE_RETURN_ADDRESS());
}

KITE_EXPORT void __kmpc_dispatch_init_8u(ident_t*, kmp_int32, kmp_int32 schedule,
                                         kmp_uint64 lb, kmp_uint64 ub, kmp_int64 st,
                                         kmp_int64 chunk) {
  dispatch_init(schedule, lb, ub, st, chunk, KITE_RETURN_ADDRESS());
}

KITE_EXPORT int __kmpc_dispatch_next_4(ident_t*, kmp_int32, kmp_int32* p_last, kmp_int32* p_lb,
                                       kmp_int32* p_ub, kmp_int32* p_st) {
  return dispatch_next(p_last, p_lb, p_ub, p_st);
}

KITE_EXPORT int __kmpc_dispatch_next_4u(ident_t*, kmp_int32, kmp_int32* p_last,
                                        kmp_uint32* p_lb, kmp_uint32* p_ub, kmp_int32* p_st) {
  return dispatch_next(p_last, p_lb, p_ub, p_st);
}

KITE_EXPORT int __kmpc_dispatch_next_8(ident_t*, kmp_int32, kmp_int32* p_last, kmp_int64* p_lb,
                                       kmp_int64* p_ub, kmp_int64* p_st) {
  return dispatch_next(p_last, p_lb, p_ub, p_st);
}

KITE_EXPORT int __kmpc_dispatch_next_8u(ident_t*, kmp_int32, kmp_int32* p_last,
                                        kmp_uint64* p_lb, kmp_uint64* p_ub, kmp_int64* p_st) {
  return dispatch_next(p_last, p_lb, p_ub, p_st);
}

// Clang calls these after each iteration of an ordered loop. The core passes
// the ordered turn when the thread takes its next chunk or leaves the loop,
// so an iteration that skipped its ordered region needs nothing here.
KITE_EXPORT void __kmpc_dispatch_fini_4(ident_t*, kmp_int32) {}
KITE_EXPORT void __kmpc_dispatch_fini_4u(ident_t*, kmp_int32) {}
KITE_EXPORT void __kmpc_dispatch_fini_8(ident_t*, kmp_int32) {}
KITE_EXPORT void __kmpc_dispatch_fini_8u(ident_t*, kmp_int32) {}

// Clang 19+ calls this when a thread leaves a dynamically scheduled loop.
// The thread's part of the loop already ended when __kmpc_dispatch_next
// returned 0 (the core keeps no per-loop buffer to free after that).
KITE_EXPORT void __kmpc_dispatch_deinit(ident_t*, kmp_int32) {}

}  // extern "C"
