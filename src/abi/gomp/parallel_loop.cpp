// libgomp ABI: combined parallel loops (GOMP_parallel_loop_*), both the
// GOMP_4.0 forms that run the whole region and the GOMP_1.0 *_start forms
// that the caller finishes with GOMP_parallel_end.
#include "abi/gomp/gomp.h"
#include "abi/gomp/loop_common.h"
#include "core/loop.h"

using namespace kite;

namespace {

// GOMP flags word: the low three bits carry the proc_bind kind.
// ra, cfa: the exported entry point's return address and frame (for tools);
// the loop construct of the combined form has the same return address.
// Used inside the exported functions: their own return address and frame.
#define KITE_RA KITE_RETURN_ADDRESS()
#define KITE_CALLER KITE_RETURN_ADDRESS(), __builtin_dwarf_cfa()

ForkSpec fork_spec(unsigned num_threads, unsigned flags, const void* ra, void* cfa) {
  ForkSpec f;
  f.codeptr_ra = ra;
  f.enter_frame = cfa;
  f.num_threads = static_cast<int>(num_threads);
  unsigned bind = flags & 7;
  f.proc_bind = bind ? static_cast<int>(bind) : -1;
  f.if_clause = true;
  return f;
}

LoopSpec loop_spec(long start, long end, long incr, int sched, long chunk, const void* ra) {
  LoopSpec s{};
  s.codeptr_ra = ra;
  s.bounds = loop_bounds_long(start, end, incr);
  s.sched = sched;
  s.chunk = chunk > 0 ? static_cast<unsigned long long>(chunk) : 0;
  return s;
}

using gomp::kDynamic;
using gomp::kGuided;
using gomp::kStatic;

}  // namespace

extern "C" {

#define KITE_PARALLEL_LOOP(NAME, SCHED)                                                      \
  KITE_EXPORT void GOMP_parallel_loop_##NAME(void (*fn)(void*), void* data, unsigned nt,    \
                                             long s, long e, long i, long chunk,            \
                                             unsigned flags) {                              \
    parallel_loop(fork_spec(nt, flags, KITE_CALLER), fn, data,                               \
      loop_spec(s, e, i, SCHED, chunk, KITE_RA));                                            \
  }

KITE_PARALLEL_LOOP(static, kStatic)
KITE_PARALLEL_LOOP(dynamic, kDynamic)
KITE_PARALLEL_LOOP(guided, kGuided)
KITE_PARALLEL_LOOP(nonmonotonic_dynamic, kDynamic)
KITE_PARALLEL_LOOP(nonmonotonic_guided, kGuided)

KITE_EXPORT void GOMP_parallel_loop_runtime(void (*fn)(void*), void* data, unsigned nt, long s,
                                            long e, long i, unsigned flags) {
  parallel_loop(fork_spec(nt, flags, KITE_CALLER), fn, data,
    loop_spec(s, e, i, kSchedRuntime, 0, KITE_RA));
}
KITE_EXPORT void GOMP_parallel_loop_nonmonotonic_runtime(void (*fn)(void*), void* data,
                                                         unsigned nt, long s, long e, long i,
                                                         unsigned flags) {
  parallel_loop(fork_spec(nt, flags, KITE_CALLER), fn, data,
    loop_spec(s, e, i, kSchedRuntime, 0, KITE_RA));
}
KITE_EXPORT void GOMP_parallel_loop_maybe_nonmonotonic_runtime(void (*fn)(void*), void* data,
                                                               unsigned nt, long s, long e,
                                                               long i, unsigned flags) {
  parallel_loop(fork_spec(nt, flags, KITE_CALLER), fn, data,
    loop_spec(s, e, i, kSchedRuntime, 0, KITE_RA));
}

#define KITE_PARALLEL_LOOP_START(NAME, SCHED)                                                \
  KITE_EXPORT void GOMP_parallel_loop_##NAME##_start(void (*fn)(void*), void* data,         \
                                                     unsigned nt, long s, long e, long i,   \
                                                     long chunk) {                          \
    parallel_loop_start(fork_spec(nt, 0, KITE_CALLER), fn, data,                             \
      loop_spec(s, e, i, SCHED, chunk, KITE_RA));                                            \
  }

KITE_PARALLEL_LOOP_START(static, kStatic)
KITE_PARALLEL_LOOP_START(dynamic, kDynamic)
KITE_PARALLEL_LOOP_START(guided, kGuided)

KITE_EXPORT void GOMP_parallel_loop_runtime_start(void (*fn)(void*), void* data, unsigned nt,
                                                  long s, long e, long i) {
  parallel_loop_start(fork_spec(nt, 0, KITE_CALLER), fn, data,
    loop_spec(s, e, i, kSchedRuntime, 0, KITE_RA));
}

}  // extern "C"
