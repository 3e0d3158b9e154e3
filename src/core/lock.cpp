// Lock slow paths and the OpenMP simple/nest lock semantics on top of the
// lock word described in lock.h.
#include "lock.h"

#include "ompt/events_mutex.h"
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

  uint64_t spins = spin_budget();
  if (spins != UINT64_MAX && spins > kLockSpinCap) spins = kLockSpinCap;
  for (uint64_t i = 0; i < spins; ++i) {
    v = w->load(std::memory_order_relaxed);
    if (v == 0 && w->compare_exchange_weak(v, me, std::memory_order_acquire,
                                           std::memory_order_relaxed))
      return;
    spin_step_any(i);
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
// Each routine tests ompt::active() once; with a tool attached it takes an
// out-of-line path that brackets the same work with the mutex events, so
// the uncontended path without a tool gains one predictable branch. The
// owner id is taken first: it creates the thread's record, which is what
// activates a tool when a lock routine is a program's first OpenMP call.
//
// The lock word has no room for a hint (and the lock does not change
// behaviour with one): acquire events take it from what lock_init
// remembered for tools (ompt::lock_hint).

namespace {

KITE_NOINLINE void lock_set_observed(LockWord* w, uint32_t me, const void* ra) {
  Thread* t = self();
  ompt::on_mutex_acquire(t, ompt_mutex_lock, ompt::lock_hint(w), w, ompt_state_wait_lock, ra);
  lock_acquire(w, me, "omp_set_lock");
  ompt::on_mutex_acquired(t, ompt_mutex_lock, w, ra);
}

KITE_NOINLINE bool lock_test_observed(LockWord* w, uint32_t me, const void* ra) {
  Thread* t = self();
  // A test never blocks, so the thread keeps its working state.
  ompt::on_mutex_acquire(t, ompt_mutex_test_lock, ompt::lock_hint(w), w, 0, ra);
  if (!lock_try_acquire(w, me)) return false;
  ompt::on_mutex_acquired(t, ompt_mutex_test_lock, w, ra);
  return true;
}

// A misused unset (lock not held by the caller) releases nothing, so it
// reports nothing. After the release the lock may already be another
// thread's: the event names it by address only.
KITE_NOINLINE void lock_unset_observed(LockWord* w, uint32_t me, const void* ra) {
  const bool held = (w->load(std::memory_order_relaxed) & kLockOwnerMask) == me;
  lock_release(w, me, "omp_unset_lock");
  if (held) ompt::on_mutex_released(ompt_mutex_lock, w, ra);
}

}  // namespace

void lock_init(LockWord* w, unsigned hint, const void* codeptr_ra) {
  self();
  w->store(0, std::memory_order_relaxed);
  if (ompt::active()) ompt::on_lock_init(ompt_mutex_lock, hint, w, codeptr_ra);
}

void lock_destroy(LockWord* w, const char* what, const void* codeptr_ra) {
  self();
  if (w->load(std::memory_order_relaxed) != 0)
    KITE_LOCK_MISUSE("%s: destroying a lock that is still held", what);
  w->store(0, std::memory_order_relaxed);
  if (ompt::active()) ompt::on_lock_destroy(ompt_mutex_lock, w, codeptr_ra);
}

void lock_set(LockWord* w, const void* codeptr_ra) {
  const uint32_t me = lock_owner_id();
  if (ompt::active()) return lock_set_observed(w, me, codeptr_ra);
  lock_acquire(w, me, "omp_set_lock");
}

void lock_unset(LockWord* w, const void* codeptr_ra) {
  const uint32_t me = lock_owner_id();
  if (ompt::active()) return lock_unset_observed(w, me, codeptr_ra);
  lock_release(w, me, "omp_unset_lock");
}

bool lock_test(LockWord* w, const void* codeptr_ra) {
  const uint32_t me = lock_owner_id();
  if (ompt::active()) return lock_test_observed(w, me, codeptr_ra);
  return lock_try_acquire(w, me);
}

// --- nest locks --------------------------------------------------------------
// A nest lock is owned by a task (5.2 §18.9: omp_set_nest_lock makes the
// encountering task the owner), not by a thread: two tasks that run on one
// thread (one suspended at a scheduling point, or an undeferred child, or
// the implicit task of a nested region) must not both hold it. The word
// names the owning thread, as for every lock, so the first level costs what
// a simple lock costs; which of the thread's tasks owns it is kept in the
// thread's record (Thread::nest_*), a short list of the nest locks the
// thread's tasks hold, written and read only by that thread with plain
// stores. A task never runs on two threads (Kite does not migrate a
// started task), so that list answers for the thread's tasks alone.
//
// Only the owner reads or writes depth, and only while it holds the word, so
// depth needs no atomics; the acquire/release on the word orders it.
//
// Events (5.2 §19.5.2.14-16): every set/test begins with mutex_acquire; the
// first level is mutex_acquired, a further level by the owner is nest_lock
// begin; releasing a level that is not the last is nest_lock end, the last
// is mutex_released.

namespace {

inline NestHeld* nest_entries(Thread* t) { return t->nest_more ? t->nest_more : t->nest_inline; }

// The task of `t` that holds `l`, or null (no task of this thread does).
inline const Task* nest_owner(Thread* t, const NestLock* l) {
  NestHeld* e = nest_entries(t);
  for (int i = t->nest_count - 1; i >= 0; --i)
    if (e[i].lock == l) return e[i].owner;
  return nullptr;
}

KITE_NOINLINE void nest_held_grow(Thread* t) {
  const int cap = t->nest_more ? t->nest_cap : kNestHeldInline;
  NestHeld* more = static_cast<NestHeld*>(xmalloc(sizeof(NestHeld) * size_t(cap) * 2));
  NestHeld* old = nest_entries(t);
  for (int i = 0; i < t->nest_count; ++i) more[i] = old[i];
  if (t->nest_more) xfree(t->nest_more);
  t->nest_more = more;
  t->nest_cap = cap * 2;
}

inline void nest_held_add(Thread* t, const NestLock* l) {
  const int cap = t->nest_more ? t->nest_cap : kNestHeldInline;
  if (KITE_UNLIKELY(t->nest_count == cap)) nest_held_grow(t);
  nest_entries(t)[t->nest_count++] = NestHeld{l, t->task};
}

inline void nest_held_remove(Thread* t, const NestLock* l) {
  NestHeld* e = nest_entries(t);
  for (int i = t->nest_count - 1; i >= 0; --i)
    if (e[i].lock == l) {
      e[i] = e[--t->nest_count];
      return;
    }
}

inline bool held_by_thread(const NestLock* l, uint32_t id) {
  return (l->word.load(std::memory_order_relaxed) & kLockOwnerMask) == id;
}

// Another task of this thread holds the lock: that task cannot go on until
// the calling task completes (Kite runs a task to its end on the thread
// that started it), so waiting would never end.
[[noreturn]] void nest_lock_task_deadlock() {
  fatal("omp_set_nest_lock: the nest lock is held by another task on this thread, which "
        "cannot resume before this task completes (deadlock; a nest lock is owned by a task)");
}

KITE_NOINLINE void nest_lock_set_observed(NestLock* l, Thread* t, uint32_t me, const void* ra) {
  if (held_by_thread(l, me)) {
    if (nest_owner(t, l) != t->task) nest_lock_task_deadlock();
    ompt::on_mutex_acquire(t, ompt_mutex_nest_lock, ompt::lock_hint(l), l, 0, ra);
    ++l->depth;
    ompt::on_nest_lock(t, ompt_scope_begin, l, ra);
    return;
  }
  ompt::on_mutex_acquire(t, ompt_mutex_nest_lock, ompt::lock_hint(l), l, ompt_state_wait_lock, ra);
  lock_acquire(&l->word, me, "omp_set_nest_lock");
  l->depth = 1;
  nest_held_add(t, l);
  ompt::on_mutex_acquired(t, ompt_mutex_nest_lock, l, ra);
}

KITE_NOINLINE int nest_lock_test_observed(NestLock* l, Thread* t, uint32_t me, const void* ra) {
  ompt::on_mutex_acquire(t, ompt_mutex_test_nest_lock, ompt::lock_hint(l), l, 0, ra);
  if (held_by_thread(l, me)) {
    if (nest_owner(t, l) != t->task) return 0;
    int depth = static_cast<int>(++l->depth);
    ompt::on_nest_lock(t, ompt_scope_begin, l, ra);
    return depth;
  }
  if (!lock_try_acquire(&l->word, me)) return 0;
  l->depth = 1;
  nest_held_add(t, l);
  ompt::on_mutex_acquired(t, ompt_mutex_test_nest_lock, l, ra);
  return 1;
}

}  // namespace

void nest_lock_init(NestLock* l, unsigned hint, const void* codeptr_ra) {
  self();
  l->word.store(0, std::memory_order_relaxed);
  l->depth = 0;
  if (ompt::active()) ompt::on_lock_init(ompt_mutex_nest_lock, hint, l, codeptr_ra);
}

void nest_lock_destroy(NestLock* l, const void* codeptr_ra) {
  self();
  if (l->word.load(std::memory_order_relaxed) != 0)
    KITE_LOCK_MISUSE("omp_destroy_nest_lock: destroying a nest lock that is still held");
  l->word.store(0, std::memory_order_relaxed);
  l->depth = 0;
  if (ompt::active()) ompt::on_lock_destroy(ompt_mutex_nest_lock, l, codeptr_ra);
}

void nest_lock_set(NestLock* l, const void* codeptr_ra) {
  Thread* t = self();
  const uint32_t me = lock_owner_id(t);
  if (ompt::active()) return nest_lock_set_observed(l, t, me, codeptr_ra);
  if (held_by_thread(l, me)) {
    if (KITE_UNLIKELY(nest_owner(t, l) != t->task)) nest_lock_task_deadlock();
    ++l->depth;
    return;
  }
  lock_acquire(&l->word, me, "omp_set_nest_lock");
  l->depth = 1;
  nest_held_add(t, l);
}

void nest_lock_unset(NestLock* l, const void* codeptr_ra) {
  Thread* t = self();
  const uint32_t me = lock_owner_id(t);
  if (!held_by_thread(l, me) || nest_owner(t, l) != t->task) {
    KITE_LOCK_MISUSE("omp_unset_nest_lock: nest lock is not held by the calling task; "
                     "left unchanged");
    return;
  }
  if (--l->depth == 0) {
    nest_held_remove(t, l);
    lock_release(&l->word, me, "omp_unset_nest_lock");
    if (ompt::active()) ompt::on_mutex_released(ompt_mutex_nest_lock, l, codeptr_ra);
  } else if (ompt::active()) {
    ompt::on_nest_lock(t, ompt_scope_end, l, codeptr_ra);
  }
}

int nest_lock_test(NestLock* l, const void* codeptr_ra) {
  Thread* t = self();
  const uint32_t me = lock_owner_id(t);
  if (ompt::active()) return nest_lock_test_observed(l, t, me, codeptr_ra);
  if (held_by_thread(l, me)) {
    if (KITE_UNLIKELY(nest_owner(t, l) != t->task)) return 0;
    return static_cast<int>(++l->depth);
  }
  if (!lock_try_acquire(&l->word, me)) return 0;
  l->depth = 1;
  nest_held_add(t, l);
  return 1;
}

}  // namespace kite
