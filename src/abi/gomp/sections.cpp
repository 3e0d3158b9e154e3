// libgomp ABI: sections (GOMP_sections*, GOMP_parallel_sections*).
#include "abi/gomp/gomp.h"
#include "core/loop.h"

using namespace kite;

namespace {

// ra, cfa: the exported entry point's return address and frame (for tools).
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

// Sections are handed out like a dynamic loop over 0..count-1, one each;
// the adapters add one (gcc numbers sections from 1, 0 meaning "done").
LoopSpec sections_loop(unsigned count, const void* ra) {
  LoopSpec s{};
  s.work = ompt_work_sections;
  s.codeptr_ra = ra;
  s.bounds = loop_bounds_long(0, static_cast<long>(count), 1);
  s.sched = int(Sched::kDynamic);
  s.chunk = 1;
  return s;
}

}  // namespace

extern "C" {

KITE_EXPORT unsigned GOMP_sections_start(unsigned count) {
  return sections_start(self(), count, nullptr, nullptr, KITE_RETURN_ADDRESS());
}

KITE_EXPORT unsigned GOMP_sections2_start(unsigned count, uintptr_t* reductions, void** mem) {
  return sections_start(self(), count, reductions, mem, KITE_RETURN_ADDRESS());
}

KITE_EXPORT unsigned GOMP_sections_next(void) { return sections_next(self()); }

KITE_EXPORT void GOMP_sections_end(void) {
  loop_end(self(), KITE_RETURN_ADDRESS(), __builtin_dwarf_cfa());
}
KITE_EXPORT void GOMP_sections_end_nowait(void) { loop_end_nowait(self()); }
KITE_EXPORT bool GOMP_sections_end_cancel(void) {
  return loop_end_cancel(self(), KITE_RETURN_ADDRESS(), __builtin_dwarf_cfa());
}

KITE_EXPORT void GOMP_parallel_sections(void (*fn)(void*), void* data, unsigned nt,
                                        unsigned count, unsigned flags) {
  const void* ra = KITE_RETURN_ADDRESS();
  parallel_loop(fork_spec(nt, flags, ra, __builtin_dwarf_cfa()), fn, data,
                sections_loop(count, ra));
}

KITE_EXPORT void GOMP_parallel_sections_start(void (*fn)(void*), void* data, unsigned nt,
                                              unsigned count) {
  const void* ra = KITE_RETURN_ADDRESS();
  parallel_loop_start(fork_spec(nt, 0, ra, __builtin_dwarf_cfa()), fn, data,
                      sections_loop(count, ra));
}

}  // extern "C"
