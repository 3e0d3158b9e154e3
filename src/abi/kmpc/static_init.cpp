// LLVM ABI: static loops and distribute (__kmpc_for_static_init_*,
// __kmpc_dist_for_static_init_*). The compiler asks once which iterations
// are the calling thread's and loops over them itself; no construct state
// is shared, so nothing is entered in the worksharing ring.
#include "abi/kmpc/loop_bounds.h"
#include "abi/kmpc/loop_state.h"
#include "core/loop.h"
#include "core/static_schedule.h"
#include "core/target.h"
#include "ompt/events_ws.h"

using namespace kite;
using namespace kite::kmpc;

namespace {

// Schedule numbers of the LLVM ABI (enum sched_type) that reach these entry
// points; the high bits carry the monotonic/nonmonotonic modifiers.
constexpr kmp_int32 kSchStaticChunked = 33;
constexpr kmp_int32 kSchStatic = 34;
constexpr kmp_int32 kSchStaticGreedy = 40;
constexpr kmp_int32 kSchStaticBalanced = 41;
constexpr kmp_int32 kSchStaticBalancedChunked = 45;
constexpr kmp_int32 kSchDistributeStaticChunked = 91;
constexpr kmp_int32 kSchDistributeStatic = 92;
constexpr kmp_int32 kSchModifierMask = (1 << 29) | (1 << 30);

struct Participants {
  unsigned long long count, index;
};

Participants threads_of(const Thread* me) {
  if (!me->team) return {1, 0};
  return {static_cast<unsigned long long>(me->team->nthreads),
          static_cast<unsigned long long>(me->tid)};
}

// The league of the teams region the thread is in (threads of a parallel
// region inside a team belong to that team).
Participants league_of(const Thread* me) {
  const int size = league_size(me);
  if (size <= 1) return {1, 0};
  return {static_cast<unsigned long long>(size),
          static_cast<unsigned long long>(league_team_num(me))};
}

// Chunk size for the core (0 = one balanced block) and who shares the loop.
bool decode(const Thread* me, kmp_int32 schedtype, long long chunk, unsigned long long* chunk_out,
            Participants* who) {
  bool distribute = false, chunked = false;
  switch (schedtype & ~kSchModifierMask) {
    case kSchStaticChunked: chunked = true; break;
    case kSchStatic:
    case kSchStaticGreedy:
    case kSchStaticBalanced:
    case kSchStaticBalancedChunked: break;  // balanced blocks; the simd rounding is not needed
    case kSchDistributeStaticChunked: chunked = distribute = true; break;
    case kSchDistributeStatic: distribute = true; break;
    default:
      warn("__kmpc_for_static_init: schedule %d is not a static schedule; using static",
           schedtype);
      break;
  }
  if (chunked && chunk <= 0) {
    warn("__kmpc_for_static_init: chunk size %lld is not positive; using 1", chunk);
    chunk = 1;
  }
  *chunk_out = chunked ? static_cast<unsigned long long>(chunk) : 0;
  *who = distribute ? league_of(me) : threads_of(me);
  return distribute;
}

// Tools: a static loop (or sections construct, which clang lowers to one)
// begins here and ends at __kmpc_for_static_fini; every chunk the thread
// will run is known now, so each is dispatched at once. Loops report the
// values of the iteration space clang passes (its normalized 0..n-1 for
// `for` loops); sections their number from 1.
template <typename T, typename ST>
void report_static(Thread* me, int32_t ident_flags, unsigned long long trip, const StaticPart& p,
                   unsigned long long chunk, T lb, ST incr, const void* codeptr_ra) {
  const bool sections = (ident_flags & kIdentWorkSections) != 0;
  ompt::work_begin_slow(me, sections ? ompt_work_sections : ompt_work_loop_static, trip,
                        codeptr_ra);
  if (p.size == 0) return;
  const unsigned long long step = chunk ? p.stride : trip;
  for (unsigned long long f = p.first;; f += step) {
    unsigned long long n = chunk ? (trip - f < chunk ? trip - f : chunk) : p.size;
    if (sections) {
      for (unsigned long long k = 0; k < n; ++k) ompt::dispatch_slow(me, f + k, 1);
    } else {
      ompt::dispatch_slow(me, static_cast<uint64_t>(iteration_value(lb, incr, f)), n);
    }
    if (step == 0 || trip - f <= step) break;  // no wrap-around near the type's end
  }
}

// Tools: a distribute construct begins here on the thread that runs a
// team's part (its chunks are known now too) and ends at
// __kmpc_for_static_fini in the same team.
template <typename T, typename ST>
void report_distribute(Thread* me, unsigned long long trip, const StaticPart& p,
                       unsigned long long chunk, T lb, ST incr, const void* codeptr_ra) {
  ompt::distribute_begin_slow(me, trip, codeptr_ra);
  if (p.size == 0) return;
  const unsigned long long step = chunk ? p.stride : trip;
  for (unsigned long long f = p.first;; f += step) {
    unsigned long long n = chunk ? (trip - f < chunk ? trip - f : chunk) : p.size;
    ompt::distribute_chunk_slow(me, static_cast<uint64_t>(iteration_value(lb, incr, f)), n);
    if (step == 0 || trip - f <= step) break;
  }
}

// `loc`/`codeptr_ra`: the program's call, for tools (null loc: not
// reported).
template <typename T, typename ST>
void static_init(kmp_int32 schedtype, kmp_int32* plastiter, T* plower, T* pupper, ST* pstride,
                 ST incr, ST chunk, const ident_t* loc = nullptr,
                 const void* codeptr_ra = nullptr) {
  Thread* me = self();
  unsigned long long ck;
  Participants who;
  const bool distribute = decode(me, schedtype, chunk, &ck, &who);
  const T lb = *plower, ub = *pupper;
  const unsigned long long trip = trip_count(lb, ub, incr, "__kmpc_for_static_init");
  if (!distribute) {
    // A doacross loop's construct starts with its loop, on every thread.
    LevelLoop* rec = level_loop(me);
    if (KITE_UNLIKELY(rec->doacross == Doacross::kAnnounced))
      doacross_enter_announced(me, rec, int(Sched::kStatic), ck, trip, false);
  }
  if (plastiter) *plastiter = 0;
  const bool tool = KITE_UNLIKELY(ompt::active()) && loc;
  if (trip == 0) {
    *pstride = incr;
    if (tool && distribute)
      report_distribute(me, 0, StaticPart{0, 0, 0, false}, ck, lb, incr, codeptr_ra);
    else if (tool)
      report_static(me, loc->flags, 0, StaticPart{0, 0, 0, false}, ck, lb, incr, codeptr_ra);
    return;  // the bounds already describe an empty loop
  }
  StaticPart p = static_part(trip, who.count, who.index, ck);
  if (tool && distribute)
    report_distribute(me, trip, p, ck, lb, incr, codeptr_ra);
  else if (tool)
    report_static(me, loc->flags, trip, p, ck, lb, incr, codeptr_ra);
  if (p.size == 0) {
    // Past the loop's end, so that "lower <= upper" (or >= for a downward
    // loop) fails right away.
    *plower = iteration_value(ub, incr, 1);
    *pupper = ub;
    *pstride = ST(iteration_value(T(0), incr, trip));
    return;
  }
  *plower = iteration_value(lb, incr, p.first);
  *pupper = iteration_value(lb, incr, p.first + p.size - 1);
  *pstride = ST(iteration_value(T(0), incr, p.stride));
  if (plastiter) *plastiter = p.last ? 1 : 0;
}

// distribute parallel for in one call, made by every thread of the
// parallel region inside a team: this team's block of the loop (pupperD),
// then the calling thread's part of that block. Tools: the distribute on
// the region's primary (one report per team), then each thread's loop;
// __kmpc_for_static_fini ends both.
template <typename T, typename ST>
void dist_for_static_init(kmp_int32 schedtype, kmp_int32* plastiter, T* plower, T* pupper,
                          T* pupperD, ST* pstride, ST incr, ST chunk, const ident_t* loc,
                          const void* codeptr_ra) {
  Thread* me = self();
  const T lb = *plower, ub = *pupper;
  const unsigned long long trip = trip_count(lb, ub, incr, "__kmpc_dist_for_static_init");
  if (plastiter) *plastiter = 0;
  Participants league = league_of(me);
  StaticPart team = static_part(trip, league.count, league.index, 0);
  if (KITE_UNLIKELY(ompt::active()) && loc && me->tid == 0)
    report_distribute(me, trip, team, 0, lb, incr, codeptr_ra);
  if (team.size == 0) {
    *plower = iteration_value(ub, incr, 1);
    *pupper = ub;
    if (pupperD) *pupperD = ub;
    *pstride = incr;
    return;
  }
  T team_lb = iteration_value(lb, incr, team.first);
  T team_ub = iteration_value(lb, incr, team.first + team.size - 1);
  if (pupperD) *pupperD = team_ub;
  *plower = team_lb;
  *pupper = team_ub;
  kmp_int32 last = 0;
  static_init(schedtype, &last, plower, pupper, pstride, incr, chunk, loc, codeptr_ra);
  if (plastiter) *plastiter = team.last && last;
}

}  // namespace

extern "C" {

KITE_EXPORT void __kmpc_for_static_init_4(ident_t* loc, kmp_int32, kmp_int32 schedtype,
                                          kmp_int32* plastiter, kmp_int32* plower,
                                          kmp_int32* pupper, kmp_int32* pstride, kmp_int32 incr,
                                          kmp_int32 chunk) {
  static_init(schedtype, plastiter, plower, pupper, pstride, incr, chunk, loc,
              KITE_RETURN_ADDRESS());
}

KITE_EXPORT void __kmpc_for_static_init_4u(ident_t* loc, kmp_int32, kmp_int32 schedtype,
                                           kmp_int32* plastiter, kmp_uint32* plower,
                                           kmp_uint32* pupper, kmp_int32* pstride,
                                           kmp_int32 incr, kmp_int32 chunk) {
  static_init(schedtype, plastiter, plower, pupper, pstride, incr, chunk, loc,
              KITE_RETURN_ADDRESS());
}

KITE_EXPORT void __kmpc_for_static_init_8(ident_t* loc, kmp_int32, kmp_int32 schedtype,
                                          kmp_int32* plastiter, kmp_int64* plower,
                                          kmp_int64* pupper, kmp_int64* pstride, kmp_int64 incr,
                                          kmp_int64 chunk) {
  static_init(schedtype, plastiter, plower, pupper, pstride, incr, chunk, loc,
              KITE_RETURN_ADDRESS());
}

KITE_EXPORT void __kmpc_for_static_init_8u(ident_t* loc, kmp_int32, kmp_int32 schedtype,
                                           kmp_int32* plastiter, kmp_uint64* plower,
                                           kmp_uint64* pupper, kmp_int64* pstride,
                                           kmp_int64 incr, kmp_int64 chunk) {
  static_init(schedtype, plastiter, plower, pupper, pstride, incr, chunk, loc,
              KITE_RETURN_ADDRESS());
}

// Ends the thread's loop (or sections) construct if one is in progress,
// and the distribute begun in the same team, if any. clang passes the
// distribute's location here also for the loops inside `distribute
// parallel for`, so the thread's state, not the location, says which.
KITE_EXPORT void __kmpc_for_static_fini(ident_t*, kmp_int32) {
  if (KITE_UNLIKELY(ompt::active())) {
    Thread* me = self();
    ompt::work_end_slow(me);
    ompt::distribute_end_slow(me);
  }
}

KITE_EXPORT void __kmpc_dist_for_static_init_4(ident_t* loc, kmp_int32, kmp_int32 schedtype,
                                               kmp_int32* plastiter, kmp_int32* plower,
                                               kmp_int32* pupper, kmp_int32* pupperD,
                                               kmp_int32* pstride, kmp_int32 incr,
                                               kmp_int32 chunk) {
  dist_for_static_init(schedtype, plastiter, plower, pupper, pupperD, pstride, incr, chunk, loc,
                       KITE_RETURN_ADDRESS());
}

KITE_EXPORT void __kmpc_dist_for_static_init_4u(ident_t* loc, kmp_int32, kmp_int32 schedtype,
                                                kmp_int32* plastiter, kmp_uint32* plower,
                                                kmp_uint32* pupper, kmp_uint32* pupperD,
                                                kmp_int32* pstride, kmp_int32 incr,
                                                kmp_int32 chunk) {
  dist_for_static_init(schedtype, plastiter, plower, pupper, pupperD, pstride, incr, chunk, loc,
                       KITE_RETURN_ADDRESS());
}

KITE_EXPORT void __kmpc_dist_for_static_init_8(ident_t* loc, kmp_int32, kmp_int32 schedtype,
                                               kmp_int32* plastiter, kmp_int64* plower,
                                               kmp_int64* pupper, kmp_int64* pupperD,
                                               kmp_int64* pstride, kmp_int64 incr,
                                               kmp_int64 chunk) {
  dist_for_static_init(schedtype, plastiter, plower, pupper, pupperD, pstride, incr, chunk, loc,
                       KITE_RETURN_ADDRESS());
}

KITE_EXPORT void __kmpc_dist_for_static_init_8u(ident_t* loc, kmp_int32, kmp_int32 schedtype,
                                                kmp_int32* plastiter, kmp_uint64* plower,
                                                kmp_uint64* pupper, kmp_uint64* pupperD,
                                                kmp_int64* pstride, kmp_int64 incr,
                                                kmp_int64 chunk) {
  dist_for_static_init(schedtype, plastiter, plower, pupper, pupperD, pstride, incr, chunk, loc,
                       KITE_RETURN_ADDRESS());
}

}  // extern "C"
