// copyprivate when the ABI tells the executing thread of a single apart
// from the single construct itself (the LLVM ABI): a broadcast of one
// pointer through the team, bracketed by barriers.
#pragma once

#include "team.h"

namespace kite {

// Every thread of the team calls this; `source` is true on the one that
// executed the single, whose `data` every thread gets back. The caller
// copies from it, then calls copyprivate_done().
// Tools see its first barrier as the single's implicit barrier
// (barrier_implicit_workshare; codeptr_ra / enter_frame: the ABI call's).
void* copyprivate_broadcast(Thread* self, void* data, bool source,
                            const void* codeptr_ra = nullptr, void* enter_frame = nullptr);
// After the copies: the source's variables may change again.
void copyprivate_done(Thread* self);

}  // namespace kite
