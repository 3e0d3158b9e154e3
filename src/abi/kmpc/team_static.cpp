// LLVM ABI: __kmpc_team_static_init_* — the calling team's first chunk of a
// distribute loop with dist_schedule(static, chunk), and the stride to its
// next ones (teams are dealt chunks round robin). The compiler loops over
// the chunks itself; the league's shape is all the core is asked for.
#include "abi/kmpc/loop_bounds.h"
#include "core/static_schedule.h"
#include "core/target.h"

using namespace kite;
using namespace kite::kmpc;

namespace {

template <typename T, typename ST>
void team_static_init(kmp_int32* p_last, T* p_lb, T* p_ub, ST* p_st, ST incr, ST chunk) {
  Thread* me = self();
  // The league of the teams region the thread is in (threads of a parallel
  // region inside a team belong to that team).
  const int size = league_size(me);
  const unsigned long long nteams = size > 1 ? static_cast<unsigned long long>(size) : 1;
  const unsigned long long team =
      size > 1 ? static_cast<unsigned long long>(league_team_num(me)) : 0;
  if (chunk < 1) {
    warn("__kmpc_team_static_init: chunk size %lld is not positive; using 1", (long long)chunk);
    chunk = 1;
  }
  const T lb = *p_lb, ub = *p_ub;
  const unsigned long long trip = trip_count(lb, ub, incr, "__kmpc_team_static_init");
  const StaticPart p = static_part(trip, nteams, team, static_cast<unsigned long long>(chunk));
  if (p_last) *p_last = p.last ? 1 : 0;
  *p_st = ST(iteration_value(T(0), incr, static_cast<unsigned long long>(chunk) * nteams));
  if (p.size == 0) {
    // An empty range in the loop's direction, whatever T's range.
    *p_lb = incr > 0 ? T(1) : T(0);
    *p_ub = incr > 0 ? T(0) : T(1);
    return;
  }
  *p_lb = iteration_value(lb, incr, p.first);
  *p_ub = iteration_value(lb, incr, p.first + p.size - 1);
}

}  // namespace

extern "C" {

KITE_EXPORT void __kmpc_team_static_init_4(ident_t*, kmp_int32, kmp_int32* p_last,
                                           kmp_int32* p_lb, kmp_int32* p_ub, kmp_int32* p_st,
                                           kmp_int32 incr, kmp_int32 chunk) {
  team_static_init(p_last, p_lb, p_ub, p_st, incr, chunk);
}

KITE_EXPORT void __kmpc_team_static_init_4u(ident_t*, kmp_int32, kmp_int32* p_last,
                                            kmp_uint32* p_lb, kmp_uint32* p_ub, kmp_int32* p_st,
                                            kmp_int32 incr, kmp_int32 chunk) {
  team_static_init(p_last, p_lb, p_ub, p_st, incr, chunk);
}

KITE_EXPORT void __kmpc_team_static_init_8(ident_t*, kmp_int32, kmp_int32* p_last,
                                           kmp_int64* p_lb, kmp_int64* p_ub, kmp_int64* p_st,
                                           kmp_int64 incr, kmp_int64 chunk) {
  team_static_init(p_last, p_lb, p_ub, p_st, incr, chunk);
}

KITE_EXPORT void __kmpc_team_static_init_8u(ident_t*, kmp_int32, kmp_int32* p_last,
                                            kmp_uint64* p_lb, kmp_uint64* p_ub, kmp_int64* p_st,
                                            kmp_int64 incr, kmp_int64 chunk) {
  team_static_init(p_last, p_lb, p_ub, p_st, incr, chunk);
}

}  // extern "C"
