// Sections: a loop over the section numbers, one section per chunk, handed
// out dynamically so that a thread that finishes early takes the next one.
#include "loop.h"
#include "ompt/events_ws.h"

namespace kite {

namespace {

LoopSpec sections_spec(unsigned count, uintptr_t* reductions, void** mem) {
  LoopSpec s{};
  s.bounds = loop_bounds_long(0, static_cast<long>(count), 1);
  s.sched = int(Sched::kDynamic);
  s.chunk = 1;
  s.reductions = reductions;
  s.mem = mem;
  return s;
}

}  // namespace

unsigned sections_start(Thread* self, unsigned count, uintptr_t* reductions, void** mem,
                        const void* codeptr_ra) {
  LoopSpec spec = sections_spec(count, reductions, mem);
  loop_enter(self, spec, int(Sched::kDynamic), 1, nullptr, nullptr);
  ompt::on_work_begin(self, ompt_work_sections, count, codeptr_ra);
  return sections_next(self);
}

unsigned sections_next(Thread* self) {
  LoopChunk c;
  if (!loop_next(self, &c)) return 0;
  return static_cast<unsigned>(c.istart) + 1;
}

}  // namespace kite
