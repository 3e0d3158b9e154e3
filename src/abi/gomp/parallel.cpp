// libgomp ABI: parallel regions (GOMP_parallel*, GOMP_parallel_start/end).
#include "abi/gomp/gomp.h"

using namespace kite;

namespace {

// GOMP flags word: the low byte carries the proc_bind kind.
// codeptr_ra and enter_frame are the caller's: each entry point passes its
// own return address and canonical frame address.
inline ForkSpec spec_from(unsigned num_threads, unsigned flags, const void* codeptr_ra,
                          void* enter_frame, bool if_clause = true) {
  ForkSpec s;
  s.codeptr_ra = codeptr_ra;
  s.enter_frame = enter_frame;
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
  parallel(spec_from(num_threads, flags, KITE_RETURN_ADDRESS(), __builtin_dwarf_cfa()), fn, data);
}

// gcc passes num_threads == 1 for if(false) regions; the region is still a
// (serialized) parallel region.
KITE_EXPORT void GOMP_parallel_start(void (*fn)(void*), void* data, unsigned num_threads) {
  parallel_start(spec_from(num_threads, 0, KITE_RETURN_ADDRESS(), __builtin_dwarf_cfa()), fn,
                 data);
}

KITE_EXPORT void GOMP_parallel_end(void) { parallel_end(); }

}  // extern "C"
