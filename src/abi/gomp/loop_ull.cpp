// libgomp ABI: loops over unsigned long long iteration spaces
// (GOMP_loop_ull_*). `up` gives the direction; a downward loop passes its
// negative increment as an unsigned value.
#include "abi/gomp/loop_common.h"

using namespace kite;

namespace {

using ull = unsigned long long;

// ra: the return address of the exported entry point (codeptr_ra), which
// each passes as KITE_RA.
#define KITE_RA KITE_RETURN_ADDRESS()
bool start(const void* ra, bool up, ull s, ull e, ull i, int sched, ull chunk, bool ordered,
           ull* istart, ull* iend, uintptr_t* reductions = nullptr, void** mem = nullptr) {
  LoopSpec spec{};
  spec.codeptr_ra = ra;
  spec.bounds = loop_bounds_ull(up, s, e, i);
  spec.sched = sched;
  spec.chunk = chunk;
  spec.ordered = ordered;
  spec.reductions = reductions;
  spec.mem = mem;
  return gomp::start_chunk(spec, istart, iend);
}

bool next(ull* istart, ull* iend) { return gomp::next_chunk(istart, iend); }

using gomp::kDynamic;
using gomp::kGuided;
using gomp::kStatic;

}  // namespace

extern "C" {

KITE_EXPORT bool GOMP_loop_ull_start(bool up, ull s, ull e, ull i, long sched, ull chunk,
                                     ull* is, ull* ie, uintptr_t* reductions, void** mem) {
  return start(KITE_RA, up, s, e, i, static_cast<int>(sched), chunk,
               false, is, ie, reductions, mem);
}

KITE_EXPORT bool GOMP_loop_ull_ordered_start(bool up, ull s, ull e, ull i, long sched, ull chunk,
                                             ull* is, ull* ie, uintptr_t* reductions,
                                             void** mem) {
  return start(KITE_RA, up, s, e, i, static_cast<int>(sched), chunk, true, is, ie, reductions, mem);
}

// codeptr_ra: the program's call (the exported entry points' return address).
static bool doacross_start(const void* codeptr_ra, unsigned ncounts, ull* counts, long sched,
                           ull chunk, ull* is, ull* ie, uintptr_t* reductions, void** mem) {
  LoopChunk c;
  bool got = loop_doacross_start(self(), ncounts, counts, static_cast<int>(sched), chunk,
                                 reductions, mem, is ? &c : nullptr, codeptr_ra);
  if (got && is) {
    *is = c.istart;
    *ie = c.iend;
  }
  return got;
}

KITE_EXPORT bool GOMP_loop_ull_doacross_start(unsigned ncounts, ull* counts, long sched,
                                              ull chunk, ull* is, ull* ie, uintptr_t* reductions,
                                              void** mem) {
  return doacross_start(KITE_RA, ncounts, counts, sched, chunk, is, ie, reductions, mem);
}

#define KITE_LOOP_ULL_FORMS(NAME, SCHED)                                                    \
  KITE_EXPORT bool GOMP_loop_ull_##NAME##_start(bool up, ull s, ull e, ull i, ull chunk,    \
                                                ull* is, ull* ie) {                         \
    return start(KITE_RA, up, s, e, i, SCHED, chunk,                                         \
                 false, is, ie);                                                             \
  }                                                                                         \
  KITE_EXPORT bool GOMP_loop_ull_##NAME##_next(ull* is, ull* ie) { return next(is, ie); }  \
  KITE_EXPORT bool GOMP_loop_ull_ordered_##NAME##_start(bool up, ull s, ull e, ull i,       \
                                                        ull chunk, ull* is, ull* ie) {      \
    return start(KITE_RA, up, s, e, i, SCHED, chunk,                                         \
                 true, is, ie);                                                              \
  }                                                                                         \
  KITE_EXPORT bool GOMP_loop_ull_ordered_##NAME##_next(ull* is, ull* ie) { return next(is, ie); }

KITE_LOOP_ULL_FORMS(static, kStatic)
KITE_LOOP_ULL_FORMS(dynamic, kDynamic)
KITE_LOOP_ULL_FORMS(guided, kGuided)

KITE_EXPORT bool GOMP_loop_ull_nonmonotonic_dynamic_start(bool up, ull s, ull e, ull i,
                                                          ull chunk, ull* is, ull* ie) {
  return start(KITE_RA, up, s, e, i, kDynamic, chunk, false, is, ie);
}
KITE_EXPORT bool GOMP_loop_ull_nonmonotonic_dynamic_next(ull* is, ull* ie) { return next(is, ie); }
KITE_EXPORT bool GOMP_loop_ull_nonmonotonic_guided_start(bool up, ull s, ull e, ull i, ull chunk,
                                                         ull* is, ull* ie) {
  return start(KITE_RA, up, s, e, i, kGuided, chunk, false, is, ie);
}
KITE_EXPORT bool GOMP_loop_ull_nonmonotonic_guided_next(ull* is, ull* ie) { return next(is, ie); }

KITE_EXPORT bool GOMP_loop_ull_runtime_start(bool up, ull s, ull e, ull i, ull* is, ull* ie) {
  return start(KITE_RA, up, s, e, i, kSchedRuntime, 0, false, is, ie);
}
KITE_EXPORT bool GOMP_loop_ull_runtime_next(ull* is, ull* ie) { return next(is, ie); }
KITE_EXPORT bool GOMP_loop_ull_nonmonotonic_runtime_start(bool up, ull s, ull e, ull i, ull* is,
                                                          ull* ie) {
  return start(KITE_RA, up, s, e, i, kSchedRuntime, 0, false, is, ie);
}
KITE_EXPORT bool GOMP_loop_ull_nonmonotonic_runtime_next(ull* is, ull* ie) { return next(is, ie); }
KITE_EXPORT bool GOMP_loop_ull_maybe_nonmonotonic_runtime_start(bool up, ull s, ull e, ull i,
                                                                ull* is, ull* ie) {
  return start(KITE_RA, up, s, e, i, kSchedRuntime, 0, false, is, ie);
}
KITE_EXPORT bool GOMP_loop_ull_maybe_nonmonotonic_runtime_next(ull* is, ull* ie) {
  return next(is, ie);
}
KITE_EXPORT bool GOMP_loop_ull_ordered_runtime_start(bool up, ull s, ull e, ull i, ull* is,
                                                     ull* ie) {
  return start(KITE_RA, up, s, e, i, kSchedRuntime, 0, true, is, ie);
}
KITE_EXPORT bool GOMP_loop_ull_ordered_runtime_next(ull* is, ull* ie) { return next(is, ie); }

KITE_EXPORT bool GOMP_loop_ull_doacross_static_start(unsigned n, ull* counts, ull chunk, ull* is,
                                                     ull* ie) {
  return doacross_start(KITE_RA, n, counts, kStatic, chunk, is, ie, nullptr, nullptr);
}
KITE_EXPORT bool GOMP_loop_ull_doacross_dynamic_start(unsigned n, ull* counts, ull chunk,
                                                      ull* is, ull* ie) {
  return doacross_start(KITE_RA, n, counts, kDynamic, chunk, is, ie, nullptr, nullptr);
}
KITE_EXPORT bool GOMP_loop_ull_doacross_guided_start(unsigned n, ull* counts, ull chunk, ull* is,
                                                     ull* ie) {
  return doacross_start(KITE_RA, n, counts, kGuided, chunk, is, ie, nullptr, nullptr);
}
KITE_EXPORT bool GOMP_loop_ull_doacross_runtime_start(unsigned n, ull* counts, ull* is,
                                                      ull* ie) {
  return doacross_start(KITE_RA, n, counts, kSchedRuntime, 0, is, ie, nullptr, nullptr);
}

}  // extern "C"
