// The one lock representation of the runtime: a 32-bit word that holds the
// owner's id (0 when free) and a "someone may sleep" bit. OpenMP locks, named
// and unnamed critical sections and the atomic fallback all use it in place,
// so nothing is allocated to create, take or release a lock.
//
// Why an owner id rather than a plain 0/1: it costs nothing on the fast path
// (the id is stored by the same compare-and-swap), lets a nest lock know its
// owner without more storage, and turns self-deadlock and unlock-by-stranger
// into a clear message instead of a hang or silent corruption.
//
// Layout constraints (both compilers call the same omp_*_lock symbols):
//   simple lock: 4 bytes (gcc omp_lock_t is 4 bytes, clang's is 8)
//   nest lock:   8 bytes (gcc omp_nest_lock_t is 16, clang's and gfortran's 8)
#pragma once

#include "team.h"

namespace kite {

using LockWord = std::atomic<uint32_t>;

constexpr uint32_t kLockWaiters = 0x80000000u;  // a thread may sleep on the word
constexpr uint32_t kLockOwnerMask = ~kLockWaiters;

// A nest lock: the lock word plus the nesting depth, touched only by the
// owner while it holds the word. The owner is a task; the word names its
// thread, and the thread's record which of its tasks it is (lock.cpp).
struct NestLock {
  LockWord word;
  uint32_t depth;
};
static_assert(sizeof(NestLock) == 8, "nest lock must fit clang's pointer-sized omp_nest_lock_t");
static_assert(sizeof(LockWord) == 4, "simple lock must fit gcc's 4-byte omp_lock_t");

// Id stored in a held lock word: the calling thread's gtid + 1. A started
// task never migrates, so a task's thread names it; a nest lock also
// records which of the thread's tasks owns it (lock.cpp).
inline uint32_t lock_owner_id(const Thread* t) {
  return static_cast<uint32_t>(t->gtid + 1) & kLockOwnerMask;
}
inline uint32_t lock_owner_id() { return lock_owner_id(self()); }

// Slow paths (lock.cpp): spin briefly, then sleep on the word.
void lock_acquire_contended(LockWord* w, uint32_t me, const char* what);
void lock_release_contended(LockWord* w, uint32_t me, const char* what);

// `what` names the construct in diagnostics ("omp_set_lock", "critical"...).
inline void lock_acquire(LockWord* w, uint32_t me, const char* what) {
  uint32_t expected = 0;
  if (KITE_LIKELY(w->compare_exchange_strong(expected, me, std::memory_order_acquire,
                                             std::memory_order_relaxed)))
    return;
  lock_acquire_contended(w, me, what);
}

inline bool lock_try_acquire(LockWord* w, uint32_t me) {
  uint32_t expected = 0;
  return w->compare_exchange_strong(expected, me, std::memory_order_acquire,
                                    std::memory_order_relaxed);
}

// Only the owner may release; a word with the waiters bit, or one held by
// somebody else, takes the slow path.
inline void lock_release(LockWord* w, uint32_t me, const char* what) {
  uint32_t expected = me;
  if (KITE_LIKELY(w->compare_exchange_strong(expected, 0, std::memory_order_release,
                                             std::memory_order_relaxed)))
    return;
  lock_release_contended(w, me, what);
}

// --- OpenMP lock semantics, shared by every ABI ------------------------------

// `codeptr_ra` is the return address into the program of the omp_* routine
// (for tools); `hint` the omp_sync_hint_t the lock was created with.
void lock_init(LockWord* w, unsigned hint, const void* codeptr_ra);
void lock_destroy(LockWord* w, const char* what, const void* codeptr_ra);
void lock_set(LockWord* w, const void* codeptr_ra);
void lock_unset(LockWord* w, const void* codeptr_ra);
bool lock_test(LockWord* w, const void* codeptr_ra);

void nest_lock_init(NestLock* l, unsigned hint, const void* codeptr_ra);
void nest_lock_destroy(NestLock* l, const void* codeptr_ra);
void nest_lock_set(NestLock* l, const void* codeptr_ra);
void nest_lock_unset(NestLock* l, const void* codeptr_ra);
// New nesting depth, or 0 if another owner holds the lock.
int nest_lock_test(NestLock* l, const void* codeptr_ra);

// --- critical and atomic regions (critical.cpp) -----------------------------

// `codeptr_ra`: the return address into the program of the ABI call, for
// tools (NULL where the ABI layer does not capture it).
// Unnamed critical regions share one lock.
void critical_enter(const void* codeptr_ra = nullptr);
void critical_exit(const void* codeptr_ra = nullptr);
// A named critical region's lock lives in the compiler's zero-initialized,
// pointer-sized per-name slot.
// hint: the critical construct's hint clause (omp_sync_hint_t), for tools.
void critical_name_enter(void** slot, const void* codeptr_ra = nullptr, unsigned hint = 0);
void critical_name_exit(void** slot, const void* codeptr_ra = nullptr);
// Atomic constructs the compiler cannot do with one instruction.
void atomic_enter(const void* codeptr_ra = nullptr);
void atomic_exit(const void* codeptr_ra = nullptr);

}  // namespace kite
