// LLVM ABI: the lock entry points behind the omp_*_lock routines
// (__kmpc_{init,destroy,set,unset,test}_{lock,nest_lock} and the
// *_with_hint forms). libomp's own omp_set_lock calls these with the
// address of the program's omp_lock_t as `user_lock`; other compilers'
// runtimes and Fortran front ends call them directly. Kite keeps its one
// lock representation in place in that storage (clang's omp_lock_t and
// omp_nest_lock_t are pointer-sized: room for a LockWord and a NestLock), so
// a lock may be used through these entry points and the omp_* routines
// interchangeably, and tools see the same mutex events from both.
#include "abi/kmpc/kmpc.h"
#include "core/lock.h"

using namespace kite;

static_assert(sizeof(LockWord) <= sizeof(void*) && alignof(LockWord) <= alignof(void*),
              "a simple lock must fit the pointer-sized storage behind user_lock");
static_assert(sizeof(NestLock) <= sizeof(void*) && alignof(NestLock) <= alignof(void*),
              "a nest lock must fit the pointer-sized storage behind user_lock");

namespace {

inline LockWord* simple(void** user_lock) { return reinterpret_cast<LockWord*>(user_lock); }
inline NestLock* nest(void** user_lock) { return reinterpret_cast<NestLock*>(user_lock); }

// omp_sync_hint_t bits: uncontended 1, contended 2, nonspeculative 4,
// speculative 8. The lock adapts to contention by itself; a hint outside
// these bits, or one asking for both of a pair, is reported and dropped.
unsigned checked_hint(const char* entry, uintptr_t hint) {
  const bool unknown_bits = (hint & ~uintptr_t(0xF)) != 0;
  const bool both_contention = (hint & 3) == 3;
  const bool both_speculation = (hint & 0xC) == 0xC;
  if (unknown_bits || both_contention || both_speculation) {
    warn("%s: invalid hint %lu; using omp_sync_hint_none", entry, (unsigned long)hint);
    return 0;
  }
  return static_cast<unsigned>(hint);
}

}  // namespace

extern "C" {

KITE_EXPORT void __kmpc_init_lock(ident_t*, kmp_int32, void** user_lock) {
  lock_init(simple(user_lock), 0, KITE_RETURN_ADDRESS());
}

KITE_EXPORT void __kmpc_init_lock_with_hint(ident_t*, kmp_int32, void** user_lock,
                                            uintptr_t hint) {
  lock_init(simple(user_lock), checked_hint("__kmpc_init_lock_with_hint", hint),
            KITE_RETURN_ADDRESS());
}

KITE_EXPORT void __kmpc_destroy_lock(ident_t*, kmp_int32, void** user_lock) {
  lock_destroy(simple(user_lock), "__kmpc_destroy_lock", KITE_RETURN_ADDRESS());
}

KITE_EXPORT void __kmpc_set_lock(ident_t*, kmp_int32, void** user_lock) {
  lock_set(simple(user_lock), KITE_RETURN_ADDRESS());
}

KITE_EXPORT void __kmpc_unset_lock(ident_t*, kmp_int32, void** user_lock) {
  lock_unset(simple(user_lock), KITE_RETURN_ADDRESS());
}

KITE_EXPORT int __kmpc_test_lock(ident_t*, kmp_int32, void** user_lock) {
  return lock_test(simple(user_lock), KITE_RETURN_ADDRESS()) ? 1 : 0;
}

KITE_EXPORT void __kmpc_init_nest_lock(ident_t*, kmp_int32, void** user_lock) {
  nest_lock_init(nest(user_lock), 0, KITE_RETURN_ADDRESS());
}

KITE_EXPORT void __kmpc_init_nest_lock_with_hint(ident_t*, kmp_int32, void** user_lock,
                                                 uintptr_t hint) {
  nest_lock_init(nest(user_lock), checked_hint("__kmpc_init_nest_lock_with_hint", hint),
                 KITE_RETURN_ADDRESS());
}

KITE_EXPORT void __kmpc_destroy_nest_lock(ident_t*, kmp_int32, void** user_lock) {
  nest_lock_destroy(nest(user_lock), KITE_RETURN_ADDRESS());
}

KITE_EXPORT void __kmpc_set_nest_lock(ident_t*, kmp_int32, void** user_lock) {
  nest_lock_set(nest(user_lock), KITE_RETURN_ADDRESS());
}

KITE_EXPORT void __kmpc_unset_nest_lock(ident_t*, kmp_int32, void** user_lock) {
  nest_lock_unset(nest(user_lock), KITE_RETURN_ADDRESS());
}

// The new nesting depth, 0 when another thread holds the lock.
KITE_EXPORT int __kmpc_test_nest_lock(ident_t*, kmp_int32, void** user_lock) {
  return nest_lock_test(nest(user_lock), KITE_RETURN_ADDRESS());
}

}  // extern "C"
