// Critical and atomic regions: lock words used in place, no allocation.
#include "lock.h"

#include "ompt/events_mutex.h"

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

// With a tool attached: the mutex events around the same lock operations.
// The wait id is the lock word's address: for a named critical region, the
// compiler's per-name slot. GOMP_critical_* carries no hint (gcc drops the
// hint clause), so none is reported; the LLVM ABI passes one.
KITE_NOINLINE void enter_observed(LockWord* w, uint32_t me, ompt_mutex_t kind, int wait_state,
                                  const void* ra, const char* what, unsigned hint = 0) {
  Thread* t = self();
  ompt::on_mutex_acquire(t, kind, hint, w, wait_state, ra);
  lock_acquire(w, me, what);
  ompt::on_mutex_acquired(t, kind, w, ra);
}

KITE_NOINLINE void exit_observed(LockWord* w, uint32_t me, ompt_mutex_t kind, const void* ra,
                                 const char* what) {
  lock_release(w, me, what);
  ompt::on_mutex_released(kind, w, ra);
}

}  // namespace

// Each entry and exit tests ompt::active() once: without a tool, the
// uncontended path gains one predictable branch.

void critical_enter(const void* codeptr_ra) {
  LockWord* w = &g_unnamed_critical.word;
  const uint32_t me = lock_owner_id();
  if (ompt::active())
    return enter_observed(w, me, ompt_mutex_critical, ompt_state_wait_critical, codeptr_ra,
                          "critical");
  lock_acquire(w, me, "critical");
}

void critical_exit(const void* codeptr_ra) {
  LockWord* w = &g_unnamed_critical.word;
  const uint32_t me = lock_owner_id();
  if (ompt::active()) return exit_observed(w, me, ompt_mutex_critical, codeptr_ra, "critical");
  lock_release(w, me, "critical");
}

void critical_name_enter(void** slot, const void* codeptr_ra, unsigned hint) {
  LockWord* w = slot_word(slot);
  const uint32_t me = lock_owner_id();
  if (ompt::active())
    return enter_observed(w, me, ompt_mutex_critical, ompt_state_wait_critical, codeptr_ra,
                          "critical (named)", hint);
  lock_acquire(w, me, "critical (named)");
}

void critical_name_exit(void** slot, const void* codeptr_ra) {
  LockWord* w = slot_word(slot);
  const uint32_t me = lock_owner_id();
  if (ompt::active())
    return exit_observed(w, me, ompt_mutex_critical, codeptr_ra, "critical (named)");
  lock_release(w, me, "critical (named)");
}

void atomic_enter(const void* codeptr_ra) {
  LockWord* w = &g_atomic.word;
  const uint32_t me = lock_owner_id();
  if (ompt::active())
    return enter_observed(w, me, ompt_mutex_atomic, ompt_state_wait_atomic, codeptr_ra, "atomic");
  lock_acquire(w, me, "atomic");
}

void atomic_exit(const void* codeptr_ra) {
  LockWord* w = &g_atomic.word;
  const uint32_t me = lock_owner_id();
  if (ompt::active()) return exit_observed(w, me, ompt_mutex_atomic, codeptr_ra, "atomic");
  lock_release(w, me, "atomic");
}

}  // namespace kite
