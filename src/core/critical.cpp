// Critical and atomic regions: lock words used in place, no allocation.
#include "lock.h"

namespace kite {

namespace {

// Each global lock word on its own cache line: contention on one must not
// slow the other, nor whatever the linker would place beside it.
struct alignas(kCacheLine) PaddedLockWord {
  LockWord word{0};
};

PaddedLockWord g_unnamed_critical;
PaddedLockWord g_atomic;

// The compiler's per-name slot is a pointer-sized, zero-initialized common
// symbol; its first 4 bytes hold the lock word (zero means free).
inline LockWord* slot_word(void** slot) {
  static_assert(sizeof(void*) >= sizeof(LockWord), "critical name slot too small");
  return reinterpret_cast<LockWord*>(slot);
}

}  // namespace

void critical_enter() { lock_acquire(&g_unnamed_critical.word, lock_owner_id(), "critical"); }

void critical_exit() { lock_release(&g_unnamed_critical.word, lock_owner_id(), "critical"); }

void critical_name_enter(void** slot) {
  lock_acquire(slot_word(slot), lock_owner_id(), "critical (named)");
}

void critical_name_exit(void** slot) {
  lock_release(slot_word(slot), lock_owner_id(), "critical (named)");
}

void atomic_enter() { lock_acquire(&g_atomic.word, lock_owner_id(), "atomic"); }

void atomic_exit() { lock_release(&g_atomic.word, lock_owner_id(), "atomic"); }

}  // namespace kite
