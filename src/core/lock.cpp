// Lock slow paths and the OpenMP simple/nest lock semantics on top of the
// lock word described in lock.h.
#include "lock.h"

#include "wait.h"

namespace kite {

namespace {

// Contended critical sections are usually short: spin a little on reads (no
// cache-line ping-pong), then sleep. An "active" wait policy spins forever.
constexpr uint64_t kLockSpinCap = 1u << 14;

// Misuse the specification leaves undefined: loud in debug builds, a warning
// (and no change to the lock) in release builds.
#ifdef NDEBUG
#define KITE_LOCK_MISUSE(...) warn(__VA_ARGS__)
#else
#define KITE_LOCK_MISUSE(...) fatal(__VA_ARGS__)
#endif

}  // namespace

void lock_acquire_contended(LockWord* w, uint32_t me, const char* what) {
  uint32_t v = w->load(std::memory_order_relaxed);
  // Waiting for ourselves can only end in a hang; say so instead.
  if ((v & kLockOwnerMask) == me)
    fatal("%s: the calling thread already holds this lock (deadlock)", what);

  uint64_t spins = g_spin.spin_iterations;
  if (spins != UINT64_MAX && spins > kLockSpinCap) spins = kLockSpinCap;
  const bool yield = g_spin.yield_while_spinning;
  for (uint64_t i = 0; i < spins; ++i) {
    v = w->load(std::memory_order_relaxed);
    if (v == 0 && w->compare_exchange_weak(v, me, std::memory_order_acquire,
                                           std::memory_order_relaxed))
      return;
    if (yield && (i & 15) == 15)
      sched_yield_portable();
    else
      cpu_relax();
  }

  // Sleep. Once a thread has slept on the word, whoever takes it next keeps
  // the waiters bit set: other sleepers may remain, and the release must wake
  // one of them.
  for (;;) {
    v = w->load(std::memory_order_relaxed);
    if (v == 0) {
      if (w->compare_exchange_weak(v, me | kLockWaiters, std::memory_order_acquire,
                                   std::memory_order_relaxed))
        return;
      continue;
    }
    if (!(v & kLockWaiters)) {
      if (!w->compare_exchange_weak(v, v | kLockWaiters, std::memory_order_relaxed,
                                    std::memory_order_relaxed))
        continue;
      v |= kLockWaiters;
    }
    futex_wait(w, v);
  }
}

void lock_release_contended(LockWord* w, uint32_t me, const char* what) {
  uint32_t v = w->load(std::memory_order_relaxed);
  for (;;) {
    if ((v & kLockOwnerMask) != me) {
      if (v == 0)
        KITE_LOCK_MISUSE("%s: lock is not held; nothing released", what);
      else
        KITE_LOCK_MISUSE("%s: lock is held by another thread; left held", what);
      return;
    }
    if (w->compare_exchange_weak(v, 0, std::memory_order_release, std::memory_order_relaxed))
      break;
  }
  if (v & kLockWaiters) futex_wake(w, 1);
}

// --- simple locks ------------------------------------------------------------

void lock_init(LockWord* w) { w->store(0, std::memory_order_relaxed); }

void lock_destroy(LockWord* w, const char* what) {
  if (w->load(std::memory_order_relaxed) != 0)
    KITE_LOCK_MISUSE("%s: destroying a lock that is still held", what);
  w->store(0, std::memory_order_relaxed);
}

void lock_set(LockWord* w) { lock_acquire(w, lock_owner_id(), "omp_set_lock"); }

void lock_unset(LockWord* w) { lock_release(w, lock_owner_id(), "omp_unset_lock"); }

bool lock_test(LockWord* w) { return lock_try_acquire(w, lock_owner_id()); }

// --- nest locks --------------------------------------------------------------
// Only the owner reads or writes depth, and only while it holds the word, so
// depth needs no atomics; the acquire/release on the word orders it.

void nest_lock_init(NestLock* l) {
  l->word.store(0, std::memory_order_relaxed);
  l->depth = 0;
}

void nest_lock_destroy(NestLock* l) {
  if (l->word.load(std::memory_order_relaxed) != 0)
    KITE_LOCK_MISUSE("omp_destroy_nest_lock: destroying a nest lock that is still held");
  nest_lock_init(l);
}

void nest_lock_set(NestLock* l) {
  const uint32_t me = lock_owner_id();
  if ((l->word.load(std::memory_order_relaxed) & kLockOwnerMask) == me) {
    ++l->depth;
    return;
  }
  lock_acquire(&l->word, me, "omp_set_nest_lock");
  l->depth = 1;
}

void nest_lock_unset(NestLock* l) {
  const uint32_t me = lock_owner_id();
  if ((l->word.load(std::memory_order_relaxed) & kLockOwnerMask) != me) {
    KITE_LOCK_MISUSE("omp_unset_nest_lock: nest lock is not held by the calling thread; "
                     "left unchanged");
    return;
  }
  if (--l->depth == 0) lock_release(&l->word, me, "omp_unset_nest_lock");
}

int nest_lock_test(NestLock* l) {
  const uint32_t me = lock_owner_id();
  if ((l->word.load(std::memory_order_relaxed) & kLockOwnerMask) == me)
    return static_cast<int>(++l->depth);
  if (!lock_try_acquire(&l->word, me)) return 0;
  l->depth = 1;
  return 1;
}

}  // namespace kite
