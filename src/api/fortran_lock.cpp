// Fortran entry points for the lock routines (C side: lock_api.cpp).
//
// The lock lives directly in the Fortran variable, as in C: INTEGER(4) for a
// simple lock, INTEGER(8) for a nest lock (Kite's nest lock needs 8 bytes,
// not the 16 of gcc's C omp_nest_lock_t, so no indirection is needed).
//
// libgomp exports each Fortran lock routine twice: at OMP_3.0 (default) and
// at OMP_1.0 for programs linked against the OpenMP 2.5 era library. The
// Fortran storage sizes were the same then and Kite's locks behave the same
// for both, so one definition carries both versions. Both are explicit:
// GNU ld only emits name@OMP_1.0 when the map's OMP_1.0 node lists the
// name, and then an unversioned definition would bind to OMP_1.0 alone.
#include <omp.h>

#include "api/fortran_args.h"
#include "core/lock.h"

static_assert(sizeof(kite::LockWord) <= 4 && alignof(kite::LockWord) <= 4,
              "a simple lock must fit Fortran INTEGER(omp_lock_kind=4)");
static_assert(sizeof(kite::NestLock) <= 8 && alignof(kite::NestLock) <= 8,
              "a nest lock must fit Fortran INTEGER(omp_nest_lock_kind=8)");

using namespace kite::fortran;

namespace {
inline omp_lock_t* simple(int32_t* v) { return reinterpret_cast<omp_lock_t*>(v); }
inline omp_nest_lock_t* nest(int64_t* v) { return reinterpret_cast<omp_nest_lock_t*>(v); }
}  // namespace

// Defines fortran_<name> and exports it as name@@OMP_3.0 and name@OMP_1.0.
#define KITE_FORTRAN_LOCK_ROUTINE(ret, name, param, call)              \
  extern "C" KITE_EXPORT ret fortran_##name(param lock) { return call; } \
  __asm__(".symver fortran_" #name "," #name "@@OMP_3.0");             \
  __asm__(".symver fortran_" #name "," #name "@OMP_1.0")

KITE_FORTRAN_LOCK_ROUTINE(void, omp_init_lock_, int32_t*, omp_init_lock(simple(lock)));
KITE_FORTRAN_LOCK_ROUTINE(void, omp_destroy_lock_, int32_t*, omp_destroy_lock(simple(lock)));
KITE_FORTRAN_LOCK_ROUTINE(void, omp_set_lock_, int32_t*, omp_set_lock(simple(lock)));
KITE_FORTRAN_LOCK_ROUTINE(void, omp_unset_lock_, int32_t*, omp_unset_lock(simple(lock)));
KITE_FORTRAN_LOCK_ROUTINE(int32_t, omp_test_lock_, int32_t*,
                          c_to_logical(omp_test_lock(simple(lock))));

KITE_FORTRAN_LOCK_ROUTINE(void, omp_init_nest_lock_, int64_t*, omp_init_nest_lock(nest(lock)));
KITE_FORTRAN_LOCK_ROUTINE(void, omp_destroy_nest_lock_, int64_t*,
                          omp_destroy_nest_lock(nest(lock)));
KITE_FORTRAN_LOCK_ROUTINE(void, omp_set_nest_lock_, int64_t*, omp_set_nest_lock(nest(lock)));
KITE_FORTRAN_LOCK_ROUTINE(void, omp_unset_nest_lock_, int64_t*, omp_unset_nest_lock(nest(lock)));
// Returns the new nesting depth (INTEGER, not LOGICAL), 0 when not acquired.
KITE_FORTRAN_LOCK_ROUTINE(int32_t, omp_test_nest_lock_, int64_t*, omp_test_nest_lock(nest(lock)));

// gfortran's omp_lib declares omp_init_lock_with_hint and
// omp_init_nest_lock_with_hint, but libgomp 12 does not export them, so
// programs using them only link against Kite. Like their C counterparts
// (lock_api.cpp) they live under Kite's own version node.
extern "C" KITE_EXPORT void omp_init_lock_with_hint_(int32_t* lock, const int32_t* hint) {
  omp_init_lock_with_hint(simple(lock), static_cast<omp_sync_hint_t>(*hint));
}

extern "C" KITE_EXPORT void omp_init_nest_lock_with_hint_(int64_t* lock, const int32_t* hint) {
  omp_init_nest_lock_with_hint(nest(lock), static_cast<omp_sync_hint_t>(*hint));
}
