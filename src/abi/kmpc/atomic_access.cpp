// LLVM ABI: atomic read, write and swap ({ v = x; x = expr; }), atomic
// compare (the _cas forms), the generic size-only updates that take the
// operation as a callback, and __kmpc_atomic_start/__kmpc_atomic_end, which
// bracket an atomic region the compiler writes out itself.
#include "abi/kmpc/atomic_shapes.h"

using namespace kite;

#define KMPC_ATOMIC_RD(tname, T)                                         \
  KITE_EXPORT T __kmpc_atomic_##tname##_rd(ident_t*, int, T* loc) {      \
    return atomic_read(loc, KMPC_ATOMIC_RA);                             \
  }

#define KMPC_ATOMIC_WR(tname, T)                                              \
  KITE_EXPORT void __kmpc_atomic_##tname##_wr(ident_t*, int, T* lhs, T rhs) { \
    atomic_swap(lhs, rhs, KMPC_ATOMIC_RA);                                    \
  }

#define KMPC_ATOMIC_SWP(tname, T)                                             \
  KITE_EXPORT T __kmpc_atomic_##tname##_swp(ident_t*, int, T* lhs, T rhs) {   \
    return atomic_swap(lhs, rhs, KMPC_ATOMIC_RA);                             \
  }

// if (x == e) x = d; with the outcome as a bool or as the value found, and
// the _cpt forms that also store a value through pv: bool_*_cas_cpt the
// value found only when the comparison failed, val_*_cas_cpt the value x
// holds afterwards.
#define KMPC_ATOMIC_CAS(N, T)                                                                \
  KITE_EXPORT bool __kmpc_atomic_bool_##N##_cas(ident_t*, int, T* x, T e, T d) {             \
    return atomic_compare_swap(x, e, d) == e;                                                \
  }                                                                                          \
  KITE_EXPORT T __kmpc_atomic_val_##N##_cas(ident_t*, int, T* x, T e, T d) {                 \
    return atomic_compare_swap(x, e, d);                                                     \
  }                                                                                          \
  KITE_EXPORT bool __kmpc_atomic_bool_##N##_cas_cpt(ident_t*, int, T* x, T e, T d, T* pv) {  \
    const T found = atomic_compare_swap(x, e, d);                                            \
    if (found == e) return true;                                                             \
    *pv = found;                                                                             \
    return false;                                                                            \
  }                                                                                          \
  KITE_EXPORT T __kmpc_atomic_val_##N##_cas_cpt(ident_t*, int, T* x, T e, T d, T* pv) {      \
    const T found = atomic_compare_swap(x, e, d);                                            \
    *pv = found == e ? d : found;                                                            \
    return found;                                                                            \
  }

namespace {

// The callback computes *out = *a op *b.
typedef void (*kmpc_atomic_fn)(void* out, void* a, void* b);

template <class B>
inline void generic_by_cas(void* lhs, void* rhs, kmpc_atomic_fn f, const void* ra) {
  atomic_update(
      static_cast<B*>(lhs),
      [rhs, f](B x) -> B {
        B out;
        f(&out, &x, rhs);
        return out;
      },
      ra);
}

inline void generic_locked(void* lhs, void* rhs, kmpc_atomic_fn f, const void* ra) {
  atomic_locked([lhs, rhs, f] { f(lhs, lhs, rhs); }, ra);
}

}  // namespace

#define KMPC_ATOMIC_GENERIC_CAS(N, B)                                                        \
  KITE_EXPORT void __kmpc_atomic_##N(ident_t*, int, void* lhs, void* rhs, kmpc_atomic_fn f) { \
    generic_by_cas<B>(lhs, rhs, f, KMPC_ATOMIC_RA);                                          \
  }

#define KMPC_ATOMIC_GENERIC_LOCKED(N)                                                        \
  KITE_EXPORT void __kmpc_atomic_##N(ident_t*, int, void* lhs, void* rhs, kmpc_atomic_fn f) { \
    generic_locked(lhs, rhs, f, KMPC_ATOMIC_RA);                                             \
  }

extern "C" {

KMPC_ATOMIC_RW_TYPES(KMPC_ATOMIC_RD)
KMPC_ATOMIC_RW_TYPES(KMPC_ATOMIC_WR)
KMPC_ATOMIC_RW_TYPES(KMPC_ATOMIC_SWP)

// float _Complex: read returns the value (the Linux convention); write is
// the common shape; swap hands the old value back through `out`.
KMPC_ATOMIC_RD(cmplx4, kmp_cmplx32)
KMPC_ATOMIC_WR(cmplx4, kmp_cmplx32)
KITE_EXPORT void __kmpc_atomic_cmplx4_swp(ident_t*, int, kmp_cmplx32* lhs, kmp_cmplx32 rhs,
                                          kmp_cmplx32* out) {
  *out = atomic_swap(lhs, rhs, KMPC_ATOMIC_RA);
}

KMPC_ATOMIC_CAS(1, int8_t)
KMPC_ATOMIC_CAS(2, int16_t)
KMPC_ATOMIC_CAS(4, int32_t)
KMPC_ATOMIC_CAS(8, int64_t)

KMPC_ATOMIC_GENERIC_CAS(1, uint8_t)
KMPC_ATOMIC_GENERIC_CAS(2, uint16_t)
KMPC_ATOMIC_GENERIC_CAS(4, uint32_t)
KMPC_ATOMIC_GENERIC_CAS(8, uint64_t)
KMPC_ATOMIC_GENERIC_LOCKED(10)
KMPC_ATOMIC_GENERIC_LOCKED(16)
KMPC_ATOMIC_GENERIC_LOCKED(20)
KMPC_ATOMIC_GENERIC_LOCKED(32)

// The same lock as GOMP_atomic_start/GOMP_atomic_end.
KITE_EXPORT void __kmpc_atomic_start(void) { atomic_enter(KMPC_ATOMIC_RA); }

KITE_EXPORT void __kmpc_atomic_end(void) { atomic_exit(KMPC_ATOMIC_RA); }

}  // extern "C"
