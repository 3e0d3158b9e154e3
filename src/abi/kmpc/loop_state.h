// What the LLVM ABI's loop entry points must remember between calls for a
// thread: the bounds of the dispatch loop it is in, and a doacross loop
// announced by __kmpc_doacross_init. One record per nesting level of teams:
// a thread is in at most one loop per team, and a region nested in a
// loop's body (one level deeper) must not clobber it.
#pragma once

#include "abi/kmpc/kmpc.h"

namespace kite::kmpc {

enum class Doacross : uint8_t {
  kNone,
  kAnnounced,        // dims known; the loop's init enters the construct
  kEnteredStatic,    // entered by __kmpc_for_static_init; fini leaves it
  kEnteredDispatch,  // entered by __kmpc_dispatch_init; the last next leaves it
};

struct LevelLoop {
  // Dispatch loop: the user's lower bound and step, and the trip count.
  unsigned long long lb;
  long long st;
  unsigned long long trip;
  // Doacross loop: per dimension, iterations, lower bound and step.
  Doacross doacross;
  unsigned ndims;
  // collapse(c) with ordered(n): clang workshares the product of the first
  // c loops but names each loop in the depend vectors; they are merged
  // into the core's first dimension (1: no merging).
  unsigned collapsed;
  unsigned dims_cap;
  unsigned long long* counts;
  long long* lo;
  long long* step;
};

LevelLoop* level_loop(const Thread* me);

// The loop's init (static or dispatch) enters an announced doacross
// construct with its schedule (kind and chunk resolved); `trip` is the
// workshared loop's iteration count, which must be the outer dimension's.
// codeptr_ra: report the loop to tools as called from there (null: the
// caller reports it).
void doacross_enter_announced(Thread* me, LevelLoop* rec, int kind, unsigned long long chunk,
                              unsigned long long trip, bool from_dispatch,
                              const void* codeptr_ra = nullptr);

}  // namespace kite::kmpc
