// libgomp ABI: loops over long iteration spaces (GOMP_loop_*).
//
// The schedule-specific entry points differ only in the schedule they
// announce; every *_next continues with the schedule the loop started with.
#include "abi/gomp/loop_common.h"

using namespace kite;

namespace {

// libgomp's schedule encoding (GOMP_loop_start's `sched`): 0 runtime,
// 1 static, 2 dynamic, 3 guided, 4 auto, high bit = monotonic. It matches
// kSchedRuntime and the Sched values.
inline int sched_from(long sched) { return static_cast<int>(sched); }

inline unsigned long long chunk_from(long chunk) {
  return chunk > 0 ? static_cast<unsigned long long>(chunk) : 0;
}

// ra: the return address of the exported entry point (codeptr_ra), which
// each passes as KITE_RA.
#define KITE_RA KITE_RETURN_ADDRESS()
bool start(const void* ra, long start, long end, long incr, int sched, long chunk, bool ordered,
           long* istart, long* iend, uintptr_t* reductions = nullptr, void** mem = nullptr) {
  LoopSpec spec{};
  spec.codeptr_ra = ra;
  spec.bounds = loop_bounds_long(start, end, incr);
  spec.sched = sched;
  spec.chunk = chunk_from(chunk);
  spec.ordered = ordered;
  spec.reductions = reductions;
  spec.mem = mem;
  return gomp::start_chunk(spec, istart, iend);
}

bool next(long* istart, long* iend) { return gomp::next_chunk(istart, iend); }

using gomp::kDynamic;
using gomp::kGuided;
using gomp::kStatic;

}  // namespace

extern "C" {

// --- gcc 9+ generic forms ---------------------------------------------------

KITE_EXPORT bool GOMP_loop_start(long start_, long end, long incr, long sched, long chunk,
                                 long* istart, long* iend, uintptr_t* reductions, void** mem) {
  return start(KITE_RA, start_, end, incr, sched_from(sched), chunk,
               false, istart, iend, reductions, mem);
}

KITE_EXPORT bool GOMP_loop_ordered_start(long start_, long end, long incr, long sched, long chunk,
                                         long* istart, long* iend, uintptr_t* reductions,
                                         void** mem) {
  return start(KITE_RA, start_, end, incr, sched_from(sched), chunk,
               true, istart, iend, reductions, mem);
}

// codeptr_ra: the program's call (the exported entry points' return address).
static bool doacross_start(const void* codeptr_ra, unsigned ncounts, long* counts, long sched,
                           long chunk, long* istart, long* iend, uintptr_t* reductions,
                           void** mem) {
  unsigned long long buf[16];
  unsigned long long* c =
      ncounts <= 16 ? buf : static_cast<unsigned long long*>(xmalloc(ncounts * sizeof(*c)));
  for (unsigned d = 0; d < ncounts; ++d) c[d] = counts[d] > 0 ? counts[d] : 0;
  LoopChunk ch;
  bool got = loop_doacross_start(self(), ncounts, c, sched_from(sched), chunk_from(chunk),
                                 reductions, mem, istart ? &ch : nullptr, codeptr_ra);
  if (c != buf) xfree(c);
  if (got && istart) {
    *istart = static_cast<long>(ch.istart);
    *iend = static_cast<long>(ch.iend);
  }
  return got;
}

KITE_EXPORT bool GOMP_loop_doacross_start(unsigned ncounts, long* counts, long sched, long chunk,
                                          long* istart, long* iend, uintptr_t* reductions,
                                          void** mem) {
  return doacross_start(KITE_RA, ncounts, counts, sched, chunk, istart, iend, reductions, mem);
}

// --- schedule-specific forms ---------------------------------------------------

#define KITE_LOOP_FORMS(NAME, SCHED)                                                        \
  KITE_EXPORT bool GOMP_loop_##NAME##_start(long s, long e, long i, long chunk, long* is,  \
                                            long* ie) {                                    \
    return start(KITE_RA, s, e, i, SCHED, chunk,                                             \
                 false, is, ie);                                                             \
  }                                                                                        \
  KITE_EXPORT bool GOMP_loop_##NAME##_next(long* is, long* ie) { return next(is, ie); }   \
  KITE_EXPORT bool GOMP_loop_ordered_##NAME##_start(long s, long e, long i, long chunk,    \
                                                    long* is, long* ie) {                  \
    return start(KITE_RA, s, e, i, SCHED, chunk,                                             \
                 true, is, ie);                                                              \
  }                                                                                        \
  KITE_EXPORT bool GOMP_loop_ordered_##NAME##_next(long* is, long* ie) { return next(is, ie); }

KITE_LOOP_FORMS(static, kStatic)
KITE_LOOP_FORMS(dynamic, kDynamic)
KITE_LOOP_FORMS(guided, kGuided)

KITE_EXPORT bool GOMP_loop_nonmonotonic_dynamic_start(long s, long e, long i, long chunk,
                                                      long* is, long* ie) {
  return start(KITE_RA, s, e, i, kDynamic, chunk, false, is, ie);
}
KITE_EXPORT bool GOMP_loop_nonmonotonic_dynamic_next(long* is, long* ie) { return next(is, ie); }
KITE_EXPORT bool GOMP_loop_nonmonotonic_guided_start(long s, long e, long i, long chunk,
                                                     long* is, long* ie) {
  return start(KITE_RA, s, e, i, kGuided, chunk, false, is, ie);
}
KITE_EXPORT bool GOMP_loop_nonmonotonic_guided_next(long* is, long* ie) { return next(is, ie); }

KITE_EXPORT bool GOMP_loop_runtime_start(long s, long e, long i, long* is, long* ie) {
  return start(KITE_RA, s, e, i, kSchedRuntime, 0, false, is, ie);
}
KITE_EXPORT bool GOMP_loop_runtime_next(long* is, long* ie) { return next(is, ie); }
KITE_EXPORT bool GOMP_loop_nonmonotonic_runtime_start(long s, long e, long i, long* is,
                                                      long* ie) {
  return start(KITE_RA, s, e, i, kSchedRuntime, 0, false, is, ie);
}
KITE_EXPORT bool GOMP_loop_nonmonotonic_runtime_next(long* is, long* ie) { return next(is, ie); }
KITE_EXPORT bool GOMP_loop_maybe_nonmonotonic_runtime_start(long s, long e, long i, long* is,
                                                            long* ie) {
  return start(KITE_RA, s, e, i, kSchedRuntime, 0, false, is, ie);
}
KITE_EXPORT bool GOMP_loop_maybe_nonmonotonic_runtime_next(long* is, long* ie) {
  return next(is, ie);
}
KITE_EXPORT bool GOMP_loop_ordered_runtime_start(long s, long e, long i, long* is, long* ie) {
  return start(KITE_RA, s, e, i, kSchedRuntime, 0, true, is, ie);
}
KITE_EXPORT bool GOMP_loop_ordered_runtime_next(long* is, long* ie) { return next(is, ie); }

// --- doacross ---------------------------------------------------------------

KITE_EXPORT bool GOMP_loop_doacross_static_start(unsigned n, long* counts, long chunk, long* is,
                                                 long* ie) {
  return doacross_start(KITE_RA, n, counts, kStatic, chunk, is, ie, nullptr, nullptr);
}
KITE_EXPORT bool GOMP_loop_doacross_dynamic_start(unsigned n, long* counts, long chunk, long* is,
                                                  long* ie) {
  return doacross_start(KITE_RA, n, counts, kDynamic, chunk, is, ie, nullptr, nullptr);
}
KITE_EXPORT bool GOMP_loop_doacross_guided_start(unsigned n, long* counts, long chunk, long* is,
                                                 long* ie) {
  return doacross_start(KITE_RA, n, counts, kGuided, chunk, is, ie, nullptr, nullptr);
}
KITE_EXPORT bool GOMP_loop_doacross_runtime_start(unsigned n, long* counts, long* is, long* ie) {
  return doacross_start(KITE_RA, n, counts, kSchedRuntime, 0, is, ie, nullptr, nullptr);
}

// --- end ----------------------------------------------------------------------

KITE_EXPORT void GOMP_loop_end(void) {
  loop_end(self(), KITE_RETURN_ADDRESS(), __builtin_dwarf_cfa());
}
KITE_EXPORT void GOMP_loop_end_nowait(void) { loop_end_nowait(self()); }
KITE_EXPORT bool GOMP_loop_end_cancel(void) {
  return loop_end_cancel(self(), KITE_RETURN_ADDRESS(), __builtin_dwarf_cfa());
}

}  // extern "C"
