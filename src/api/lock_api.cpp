// omp_*_lock routines. The lock lives in the caller's omp_lock_t /
// omp_nest_lock_t storage (see core/lock.h for why it fits both gcc's and
// clang's layouts), so the parameters are typed as the core representation.
#include "core/lock.h"

using namespace kite;

namespace {

// omp_sync_hint_t bits (omp.h).
constexpr int kHintUncontended = 1;
constexpr int kHintContended = 2;
constexpr int kHintNonspeculative = 4;
constexpr int kHintSpeculative = 8;

// The lock adapts to contention by itself, so a valid hint changes nothing;
// a contradictory one is reported rather than silently accepted.
void check_hint(const char* routine, int hint) {
  const bool bad_bits = (hint & ~(kHintUncontended | kHintContended | kHintNonspeculative |
                                  kHintSpeculative)) != 0;
  const bool both_contention = (hint & (kHintUncontended | kHintContended)) ==
                               (kHintUncontended | kHintContended);
  const bool both_speculation = (hint & (kHintNonspeculative | kHintSpeculative)) ==
                                (kHintNonspeculative | kHintSpeculative);
  if (bad_bits || both_contention || both_speculation)
    warn("%s: invalid hint %d; using omp_sync_hint_none", routine, hint);
}

}  // namespace

extern "C" {

KITE_EXPORT void omp_init_lock(LockWord* lock) { lock_init(lock); }
KITE_EXPORT void omp_destroy_lock(LockWord* lock) { lock_destroy(lock, "omp_destroy_lock"); }
KITE_EXPORT void omp_set_lock(LockWord* lock) { lock_set(lock); }
KITE_EXPORT void omp_unset_lock(LockWord* lock) { lock_unset(lock); }
KITE_EXPORT int omp_test_lock(LockWord* lock) { return lock_test(lock) ? 1 : 0; }

KITE_EXPORT void omp_init_nest_lock(NestLock* lock) { nest_lock_init(lock); }
KITE_EXPORT void omp_destroy_nest_lock(NestLock* lock) { nest_lock_destroy(lock); }
KITE_EXPORT void omp_set_nest_lock(NestLock* lock) { nest_lock_set(lock); }
KITE_EXPORT void omp_unset_nest_lock(NestLock* lock) { nest_lock_unset(lock); }
KITE_EXPORT int omp_test_nest_lock(NestLock* lock) { return nest_lock_test(lock); }

// gcc 12's omp.h declares the *_with_hint routines but libgomp.so.1 does not
// export them, so programs using them fail to link against libgomp. Kite
// provides them under its own version node, which libgomp programs never
// reference, so the libgomp-compatible symbol set is unchanged.
KITE_EXPORT void omp_init_lock_with_hint(LockWord* lock, int hint) {
  check_hint("omp_init_lock_with_hint", hint);
  lock_init(lock);
}

KITE_EXPORT void omp_init_nest_lock_with_hint(NestLock* lock, int hint) {
  check_hint("omp_init_nest_lock_with_hint", hint);
  nest_lock_init(lock);
}

}  // extern "C"
