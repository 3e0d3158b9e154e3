// Reductions combined under a lock (see reduce.h).
#include "reduce.h"

namespace kite {

void reduction_combine_begin(LockWord* lock) {
  lock_acquire(lock, lock_owner_id(), "reduction");
}

void reduction_combine_end(LockWord* lock) {
  lock_release(lock, lock_owner_id(), "reduction");
}

}  // namespace kite
