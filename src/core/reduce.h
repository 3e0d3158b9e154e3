// Reductions combined by each thread in turn (the LLVM ABI's "critical"
// reduction method): the thread holds the reduction's lock while it folds
// its partial values into the shared ones.
#pragma once

#include "lock.h"

namespace kite {

// `lock` is a zero-initialized word the compiler provides per reduction.
void reduction_combine_begin(LockWord* lock);
void reduction_combine_end(LockWord* lock);

}  // namespace kite
