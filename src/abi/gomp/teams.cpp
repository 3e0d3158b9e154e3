// libgomp ABI: the teams construct.
//   GOMP_teams_reg  a host teams region (gcc >= 9): runs the whole league.
//   GOMP_teams4     teams nested in a target region (gcc >= 12): gcc calls it
//                   in a loop, once per team the calling thread runs.
//   GOMP_teams      the same before gcc 12: sets the thread limit, runs one
//                   team; no call marks the league's end, which tools see
//                   when the target region ends.
#include "abi/gomp/gomp.h"
#include "core/target.h"

using namespace kite;

namespace {
inline int to_int(unsigned v) { return v > 0x7fffffffu ? 0x7fffffff : int(v); }
}  // namespace

extern "C" {

KITE_EXPORT void GOMP_teams_reg(void (*fn)(void*), void* data, unsigned num_teams,
                                unsigned thread_limit, unsigned flags) {
  (void)flags;
  teams(fn, data, to_int(num_teams), to_int(thread_limit), KITE_RETURN_ADDRESS(),
        __builtin_dwarf_cfa());
}

KITE_EXPORT bool GOMP_teams4(unsigned num_teams_low, unsigned num_teams_high,
                             unsigned thread_limit, bool first) {
  return teams_in_target(num_teams_low, num_teams_high, thread_limit, first,
                         KITE_RETURN_ADDRESS(), __builtin_dwarf_cfa());
}

KITE_EXPORT void GOMP_teams(unsigned num_teams, unsigned thread_limit) {
  teams_in_target_legacy(num_teams, thread_limit, KITE_RETURN_ADDRESS(), __builtin_dwarf_cfa());
}

}  // extern "C"
