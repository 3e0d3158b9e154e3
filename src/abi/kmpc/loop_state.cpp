// Per-thread, per-level loop records of the LLVM ABI adapters, and the
// doacross entry points (__kmpc_doacross_*), which need them.
#include "abi/kmpc/loop_state.h"

#include "core/loop.h"

using namespace kite;
using namespace kite::kmpc;

namespace {

__thread LevelLoop* t_loops;
__thread int t_loops_cap;

// Depend vectors arrive as user values per dimension; the core wants
// logical iteration numbers (a negative one is out of the space).
void to_logical(const LevelLoop* rec, const kmp_int64* vec, unsigned long long* out) {
  for (unsigned d = 0; d < rec->ndims; ++d) {
    long long diff = static_cast<long long>(static_cast<unsigned long long>(vec[d]) -
                                            static_cast<unsigned long long>(rec->lo[d]));
    out[d] = static_cast<unsigned long long>(diff / rec->step[d]);
  }
}

bool warned_collapse;

}  // namespace

namespace kite::kmpc {

LevelLoop* level_loop(const Thread* me) {
  int level = me->team ? me->team->level : 0;
  if (KITE_UNLIKELY(level >= t_loops_cap)) {
    int cap = level < 4 ? 8 : 2 * level + 2;
    auto* grown = static_cast<LevelLoop*>(xcalloc(cap, sizeof(LevelLoop)));
    for (int i = 0; i < t_loops_cap; ++i) grown[i] = t_loops[i];
    xfree(t_loops);
    t_loops = grown;
    t_loops_cap = cap;
  }
  return &t_loops[level];
}

void doacross_enter_announced(Thread* me, LevelLoop* rec, int kind, unsigned long long chunk,
                              unsigned long long trip, bool from_dispatch) {
  // clang's upper bound of a dimension is sometimes one past the last
  // iteration; the workshared loop's own count is exact.
  if (trip + 1 == rec->counts[0]) rec->counts[0] = trip;
  if (trip != rec->counts[0] && !warned_collapse) {
    warned_collapse = true;
    warn("ordered(n) loop whose workshared loop (%llu iterations) is not its outermost "
         "ordered loop (%llu iterations, collapse): depend(sink) waits are not enforced",
         trip, rec->counts[0]);
  }
  if (trip != rec->counts[0]) {
    // Enter a construct anyway (every thread does), with no dependences.
    loop_doacross_start(me, 0, nullptr, kind, chunk, nullptr, nullptr, nullptr);
  } else {
    loop_doacross_start(me, rec->ndims, rec->counts, kind, chunk, nullptr, nullptr, nullptr);
  }
  rec->doacross = from_dispatch ? Doacross::kEnteredDispatch : Doacross::kEnteredStatic;
}

}  // namespace kite::kmpc

extern "C" {

// Bounds of one loop of a doacross nest: up is inclusive.
struct kmp_dim {
  kmp_int64 lo;
  kmp_int64 up;
  kmp_int64 st;
};

KITE_EXPORT void __kmpc_doacross_init(ident_t*, kmp_int32, kmp_int32 num_dims,
                                      const kmp_dim* dims) {
  Thread* me = self();
  LevelLoop* rec = level_loop(me);
  if (num_dims <= 0) {
    warn("__kmpc_doacross_init: %d dimensions; the loop runs without dependences", num_dims);
    num_dims = 0;
  }
  unsigned n = static_cast<unsigned>(num_dims);
  if (n > rec->dims_cap) {
    xfree(rec->counts);
    xfree(rec->lo);
    xfree(rec->step);
    rec->counts = static_cast<unsigned long long*>(xmalloc(n * sizeof(unsigned long long)));
    rec->lo = static_cast<long long*>(xmalloc(n * sizeof(long long)));
    rec->step = static_cast<long long*>(xmalloc(n * sizeof(long long)));
    rec->dims_cap = n;
  }
  for (unsigned d = 0; d < n; ++d) {
    long long lo = dims[d].lo, up = dims[d].up, st = dims[d].st;
    if (st == 0) {
      warn("__kmpc_doacross_init: dimension %u has step 0; using 1", d);
      st = 1;
    }
    unsigned long long count = 0;
    if (st > 0 && lo <= up)
      count = (static_cast<unsigned long long>(up) - static_cast<unsigned long long>(lo)) /
                  static_cast<unsigned long long>(st) + 1;
    else if (st < 0 && lo >= up)
      count = (static_cast<unsigned long long>(lo) - static_cast<unsigned long long>(up)) /
                  (0 - static_cast<unsigned long long>(st)) + 1;
    rec->counts[d] = count;
    rec->lo[d] = lo;
    rec->step[d] = st;
  }
  rec->ndims = n;
  rec->doacross = n ? Doacross::kAnnounced : Doacross::kNone;
}

KITE_EXPORT void __kmpc_doacross_wait(ident_t*, kmp_int32, const kmp_int64* vec) {
  Thread* me = self();
  LevelLoop* rec = level_loop(me);
  if (rec->doacross != Doacross::kEnteredStatic && rec->doacross != Doacross::kEnteredDispatch)
    return;
  auto* v = static_cast<unsigned long long*>(__builtin_alloca(rec->ndims * sizeof(long long)));
  to_logical(rec, vec, v);
  doacross_wait(me, v, true);
}

KITE_EXPORT void __kmpc_doacross_post(ident_t*, kmp_int32, const kmp_int64* vec) {
  Thread* me = self();
  LevelLoop* rec = level_loop(me);
  if (rec->doacross != Doacross::kEnteredStatic && rec->doacross != Doacross::kEnteredDispatch)
    return;
  auto* v = static_cast<unsigned long long*>(__builtin_alloca(rec->ndims * sizeof(long long)));
  to_logical(rec, vec, v);
  doacross_post(me, v);
}

KITE_EXPORT void __kmpc_doacross_fini(ident_t*, kmp_int32) {
  Thread* me = self();
  LevelLoop* rec = level_loop(me);
  // A dispatch loop left the construct with its last __kmpc_dispatch_next.
  if (rec->doacross == Doacross::kEnteredStatic) loop_end_nowait(me);
  rec->doacross = Doacross::kNone;
}

}  // extern "C"
