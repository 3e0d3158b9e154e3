// libgomp ABI: parallel regions (GOMP_parallel*, GOMP_parallel_start/end).
#include "abi/gomp/gomp.h"

using namespace kite;

namespace {

// GOMP flags word: the low byte carries the proc_bind kind.
inline ForkSpec spec_from(unsigned num_threads, unsigned flags, bool if_clause = true) {
  ForkSpec s;
  s.num_threads = static_cast<int>(num_threads);
  unsigned bind = flags & 7;
  s.proc_bind = bind ? static_cast<int>(bind) : -1;
  s.if_clause = if_clause;
  return s;
}

}  // namespace

extern "C" {

KITE_EXPORT void GOMP_parallel(void (*fn)(void*), void* data, unsigned num_threads,
                               unsigned flags) {
  parallel(spec_from(num_threads, flags), fn, data);
}

// gcc passes num_threads == 1 for if(false) regions; the region is still a
// (serialized) parallel region.
KITE_EXPORT void GOMP_parallel_start(void (*fn)(void*), void* data, unsigned num_threads) {
  parallel_start(spec_from(num_threads, 0), fn, data);
}

KITE_EXPORT void GOMP_parallel_end(void) { parallel_end(); }

}  // extern "C"
