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

// Each routine is defined under an internal name and exported twice with
// explicit versions, as libgomp does: name@@OMP_3.0 (the default, what new
// programs link to) and name@OMP_1.0 (programs linked against the OpenMP 2.5
// era library, whose lock types were at least as large as today's, so the
// in-place lock fits). The linker emits name@OMP_1.0 only if the map's
// OMP_1.0 node lists the name; name@@OMP_3.0 needs only the OMP_3.0 node.
#define KITE_LOCK_ROUTINE(ret, name, params, body)                      \
  extern "C" KITE_EXPORT ret lock_api_##name params body                \
  __asm__(".symver lock_api_" #name "," #name "@@OMP_3.0");             \
  __asm__(".symver lock_api_" #name "," #name "@OMP_1.0")

// Tools get the return address into the program of each routine (a Fortran
// wrapper reaches these by a tail call, so its caller's address).
#define KITE_RA __builtin_return_address(0)

KITE_LOCK_ROUTINE(void, omp_init_lock, (LockWord * lock), { lock_init(lock, 0, KITE_RA); });
KITE_LOCK_ROUTINE(void, omp_destroy_lock, (LockWord * lock),
                  { lock_destroy(lock, "omp_destroy_lock", KITE_RA); });
KITE_LOCK_ROUTINE(void, omp_set_lock, (LockWord * lock), { lock_set(lock, KITE_RA); });
KITE_LOCK_ROUTINE(void, omp_unset_lock, (LockWord * lock), { lock_unset(lock, KITE_RA); });
KITE_LOCK_ROUTINE(int, omp_test_lock, (LockWord * lock),
                  { return lock_test(lock, KITE_RA) ? 1 : 0; });

KITE_LOCK_ROUTINE(void, omp_init_nest_lock, (NestLock * lock),
                  { nest_lock_init(lock, 0, KITE_RA); });
KITE_LOCK_ROUTINE(void, omp_destroy_nest_lock, (NestLock * lock),
                  { nest_lock_destroy(lock, KITE_RA); });
KITE_LOCK_ROUTINE(void, omp_set_nest_lock, (NestLock * lock), { nest_lock_set(lock, KITE_RA); });
KITE_LOCK_ROUTINE(void, omp_unset_nest_lock, (NestLock * lock),
                  { nest_lock_unset(lock, KITE_RA); });
KITE_LOCK_ROUTINE(int, omp_test_nest_lock, (NestLock * lock),
                  { return nest_lock_test(lock, KITE_RA); });

extern "C" {

// gcc 12's omp.h declares the *_with_hint routines but libgomp.so.1 does not
// export them, so programs using them fail to link against libgomp. Kite
// provides them under its own version node, which libgomp programs never
// reference, so the libgomp-compatible symbol set is unchanged.
KITE_EXPORT void omp_init_lock_with_hint(LockWord* lock, int hint) {
  check_hint("omp_init_lock_with_hint", hint);
  lock_init(lock, unsigned(hint), KITE_RA);
}

KITE_EXPORT void omp_init_nest_lock_with_hint(NestLock* lock, int hint) {
  check_hint("omp_init_nest_lock_with_hint", hint);
  nest_lock_init(lock, unsigned(hint), KITE_RA);
}

}  // extern "C"
