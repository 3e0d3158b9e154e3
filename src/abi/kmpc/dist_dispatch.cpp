// LLVM ABI: __kmpc_dist_dispatch_init_* — distribute parallel for with a
// dynamic schedule: the calling team's block of the distribute loop (one
// balanced block per team, as the static distribute schedule gives), then
// a dynamically scheduled loop over that block, continued with
// __kmpc_dispatch_next_* like any other.
#include "abi/kmpc/loop_bounds.h"
#include "core/static_schedule.h"
#include "core/target.h"

using namespace kite;
using namespace kite::kmpc;

namespace {

template <typename T, typename ST>
void dist_dispatch_init(kmp_int32 schedule, kmp_int32* p_last, T lb, T ub, ST st, ST chunk,
                        const void* codeptr_ra) {
  Thread* me = self();
  // The league of the teams region the thread is in (threads of a parallel
  // region inside a team belong to that team).
  const int size = league_size(me);
  const unsigned long long nteams = size > 1 ? static_cast<unsigned long long>(size) : 1;
  const unsigned long long team =
      size > 1 ? static_cast<unsigned long long>(league_team_num(me)) : 0;
  const unsigned long long trip = trip_count(lb, ub, st, "__kmpc_dist_dispatch_init");
  const StaticPart p = static_part(trip, nteams, team, 0);
  if (p_last) *p_last = p.last ? 1 : 0;
  T team_lb, team_ub;
  if (p.size == 0) {
    // An empty range in the loop's direction, whatever T's range.
    team_lb = st > 0 ? T(1) : T(0);
    team_ub = st > 0 ? T(0) : T(1);
  } else {
    team_lb = iteration_value(lb, st, p.first);
    team_ub = iteration_value(lb, st, p.first + p.size - 1);
  }
  dispatch_init_at(schedule, team_lb, team_ub, st, chunk, codeptr_ra);
}

}  // namespace

extern "C" {

KITE_EXPORT void __kmpc_dist_dispatch_init_4(ident_t*, kmp_int32, kmp_int32 schedule,
                                             kmp_int32* p_last, kmp_int32 lb, kmp_int32 ub,
                                             kmp_int32 st, kmp_int32 chunk) {
  dist_dispatch_init(schedule, p_last, lb, ub, st, chunk, KITE_RETURN_ADDRESS());
}

KITE_EXPORT void __kmpc_dist_dispatch_init_4u(ident_t*, kmp_int32, kmp_int32 schedule,
                                              kmp_int32* p_last, kmp_uint32 lb, kmp_uint32 ub,
                                              kmp_int32 st, kmp_int32 chunk) {
  dist_dispatch_init(schedule, p_last, lb, ub, st, chunk, KITE_RETURN_ADDRESS());
}

KITE_EXPORT void __kmpc_dist_dispatch_init_8(ident_t*, kmp_int32, kmp_int32 schedule,
                                             kmp_int32* p_last, kmp_int64 lb, kmp_int64 ub,
                                             kmp_int64 st, kmp_int64 chunk) {
  dist_dispatch_init(schedule, p_last, lb, ub, st, chunk, KITE_RETURN_ADDRESS());
}

KITE_EXPORT void __kmpc_dist_dispatch_init_8u(ident_t*, kmp_int32, kmp_int32 schedule,
                                              kmp_int32* p_last, kmp_uint64 lb, kmp_uint64 ub,
                                              kmp_int64 st, kmp_int64 chunk) {
  dist_dispatch_init(schedule, p_last, lb, ub, st, chunk, KITE_RETURN_ADDRESS());
}

}  // extern "C"
