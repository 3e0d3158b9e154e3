// libomp 19's sections entry points (__kmpc_sections_init,
// __kmpc_next_section, __kmpc_end_sections), for compilers that lower a
// sections construct to explicit calls instead of clang's static loop.
// Sections are numbered from 0 here; the count comes with each
// __kmpc_next_section call, so the core's sections construct (a dynamic
// loop, one section per chunk) starts at the thread's first one. There is
// no barrier in these calls: the compiler emits one when the construct
// has no nowait.
#include "abi/kmpc/kmpc.h"
#include "core/loop.h"

using namespace kite;

namespace {

enum SectionsState : int { kNone = 0, kInitialized = 1, kStarted = 2 };

// Per thread: nested sections constructs are always in a nested parallel
// region, whose end leaves the thread back in the outer one (kNone then
// means "continue the construct the thread is in").
__thread int t_state = kNone;
__thread const void* t_init_ra = nullptr;

}  // namespace

extern "C" {

// Nonzero when the team has more than one thread; zero tells the caller it
// may run every section itself without asking (libomp's contract). Asking
// anyway works in both cases.
KITE_EXPORT kmp_int32 __kmpc_sections_init(ident_t*, kmp_int32) {
  Thread* me = self();
  t_state = kInitialized;
  t_init_ra = KITE_RETURN_ADDRESS();
  return me->team && me->team->nthreads > 1 ? 1 : 0;
}

// The index of the next section for this thread; `count` (or more) when
// none is left. Tools see the construct begin at the first call, with the
// __kmpc_sections_init call's return address.
KITE_EXPORT kmp_int32 __kmpc_next_section(ident_t*, kmp_int32, kmp_int32 count) {
  Thread* me = self();
  unsigned s;
  if (t_state == kInitialized) {
    if (count < 0) {
      warn("__kmpc_next_section: negative section count %d; using 0", count);
      count = 0;
    }
    s = sections_start(me, static_cast<unsigned>(count), nullptr, nullptr, t_init_ra);
    t_state = kStarted;
  } else {
    s = sections_next(me);
  }
  return s ? static_cast<kmp_int32>(s - 1) : count;
}

// A thread that ran every section itself after a zero from
// __kmpc_sections_init never entered a construct: nothing to end.
KITE_EXPORT void __kmpc_end_sections(ident_t*, kmp_int32) {
  Thread* me = self();
  const int state = t_state;
  t_state = kNone;
  if (state == kInitialized) return;
  loop_end_nowait(me);
}

}  // extern "C"
