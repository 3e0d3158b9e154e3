// Per-thread, per-level loop records of the LLVM ABI adapters, and the
// doacross entry points (__kmpc_doacross_*), which need them.
#include "abi/kmpc/loop_state.h"

#include "core/loop.h"
#include "ompt/events_ws.h"

using namespace kite;
using namespace kite::kmpc;

namespace {

__thread LevelLoop* t_loops;
__thread int t_loops_cap;

// Depend vectors arrive as user values per dimension; the core wants
// logical iteration numbers (a negative one is out of the space).
long long logical_in(const LevelLoop* rec, unsigned d, kmp_int64 value) {
  long long diff = static_cast<long long>(static_cast<unsigned long long>(value) -
                                          static_cast<unsigned long long>(rec->lo[d]));
  return diff / rec->step[d];
}

// The merged first dimension of a collapsed nest is row-major over the
// collapsed loops; a component outside its loop puts the whole vector out
// of the space (it names no iteration, so nothing is waited for).
void to_logical(const LevelLoop* rec, const kmp_int64* vec, unsigned long long* out) {
  unsigned c = rec->collapsed > 1 ? rec->collapsed : 1;
  unsigned long long first = 0;
  for (unsigned d = 0; d < c; ++d) {
    long long l = logical_in(rec, d, vec[d]);
    if (c > 1 && (l < 0 || static_cast<unsigned long long>(l) >= rec->counts[d])) {
      first = ~0ull;
      break;
    }
    first = first * rec->counts[d] + static_cast<unsigned long long>(l);
  }
  out[0] = first;
  for (unsigned d = c; d < rec->ndims; ++d)
    out[d - c + 1] = static_cast<unsigned long long>(logical_in(rec, d, vec[d]));
}

// How many leading loops of the nest the workshared loop of `trip`
// iterations is the product of (0: none), with each loop's count less
// `less` (see doacross_enter_announced).
unsigned collapsed_loops(const LevelLoop* rec, unsigned long long trip, unsigned less) {
  unsigned long long product = 1;
  for (unsigned c = 1; c <= rec->ndims; ++c) {
    if (rec->counts[c - 1] < less) return 0;
    if (__builtin_mul_overflow(product, rec->counts[c - 1] - less, &product)) return 0;
    if (product == trip) return c;
    if (product > trip) return 0;
  }
  return 0;
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
                              unsigned long long trip, bool from_dispatch,
                              const void* codeptr_ra) {
  // clang normalizes every loop of the nest (lower bound 0, step 1) and
  // passes its iteration count as the upper bound, one past the last
  // iteration: when the workshared loop's exact count says so, every
  // dimension is one smaller (else a sink just past a loop's end would name
  // an iteration that never comes).
  unsigned c = collapsed_loops(rec, trip, 0);
  if (c == 0) {
    bool normalized = true;
    for (unsigned d = 0; d < rec->ndims; ++d)
      normalized = normalized && rec->lo[d] == 0 && rec->step[d] == 1 && rec->counts[d] > 0;
    if (normalized) c = collapsed_loops(rec, trip, 1);
    if (c != 0)
      for (unsigned d = 0; d < rec->ndims; ++d) rec->counts[d] -= 1;
  }
  rec->collapsed = c;
  if (c == 0 && !warned_collapse) {
    warned_collapse = true;
    warn("ordered(n) loop whose workshared loop (%llu iterations) is no product of its "
         "outermost ordered loops (%llu iterations in the first): depend(sink) waits are "
         "not enforced",
         trip, rec->counts[0]);
  }
  if (c == 0) {
    // A plain loop, waits and posts ignored: a dispatch loop still hands
    // out all `trip` iterations; a static one needs no construct.
    if (from_dispatch) {
      LoopSpec spec{};
      spec.bounds = loop_bounds_ull(true, 0, trip, 1);
      spec.sched = kind;
      spec.chunk = chunk;
      loop_enter(me, spec, kind, chunk, nullptr, nullptr);
      if (codeptr_ra) ompt::on_work_begin(me, ompt::loop_work_type(kind), trip, codeptr_ra);
    }
    rec->doacross = Doacross::kNone;
    return;
  }
  if (c == 1) {
    loop_doacross_start(me, rec->ndims, rec->counts, kind, chunk, nullptr, nullptr, nullptr,
                        codeptr_ra);
  } else {
    unsigned n = rec->ndims - c + 1;
    auto* merged = static_cast<unsigned long long*>(__builtin_alloca(n * sizeof(long long)));
    merged[0] = trip;
    for (unsigned d = 1; d < n; ++d) merged[d] = rec->counts[c + d - 1];
    loop_doacross_start(me, n, merged, kind, chunk, nullptr, nullptr, nullptr,
                        codeptr_ra);
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
