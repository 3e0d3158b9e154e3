// The LLVM ABI's atomic entry points (__kmpc_atomic_<type>_<op>[_suffix]):
// their types, operations and calling shapes, shared by atomic_*.cpp. Each
// file spells out which names it defines; every definition is one of the
// shapes below over one of the operations below.
//
//   update          void f(ident_t*, int gtid, T* lhs, T rhs)        x = x op rhs
//   _rev            same shape                                        x = rhs op x
//   _<rtype> (mix)  void f(ident_t*, int gtid, T* lhs, R rhs)        x = (T)((R)x op rhs)
//   _cpt            T f(ident_t*, int gtid, T* lhs, T rhs, int flag) returns
//                   the new value when flag != 0, the old one otherwise
//   _cpt_rev        same shape, x = rhs op x
//   cmplx4 _cpt*    void f(..., T rhs, T* out, int flag): float _Complex
//                   results travel through `out` (libomp's convention)
#pragma once

#include <type_traits>

#include "abi/kmpc/kmpc.h"
#include "core/atomic_ops.h"

// __complex__ is the GNU spelling of C's _Complex, usable in C++: same
// layout and calling convention as the C types clang passes.
typedef __complex__ float kmp_cmplx32;
typedef __complex__ double kmp_cmplx64;
typedef __complex__ long double kmp_cmplx80;

namespace kite::kmpc::atomic_op {

// Integer arithmetic wraps as the hardware does (no signed-overflow UB in
// the runtime); shift counts are taken modulo the width of the promoted
// type, as x86 shift instructions take them.
template <class T>
using Promoted = std::conditional_t<(sizeof(T) > 4), uint64_t, uint32_t>;

template <class T>
constexpr unsigned shift_count(T count) {
  return static_cast<unsigned>(count) & (sizeof(Promoted<T>) * 8 - 1);
}

struct Add {
  template <class T> static T apply(T a, T b) {
    if constexpr (std::is_integral_v<T>) return T(Promoted<T>(a) + Promoted<T>(b));
    else return a + b;
  }
};
struct Sub {
  template <class T> static T apply(T a, T b) {
    if constexpr (std::is_integral_v<T>) return T(Promoted<T>(a) - Promoted<T>(b));
    else return a - b;
  }
};
struct Mul {
  template <class T> static T apply(T a, T b) {
    if constexpr (std::is_integral_v<T>) return T(Promoted<T>(a) * Promoted<T>(b));
    else return a * b;
  }
};
// Integer division by zero traps, exactly as the program's own division.
struct Div {
  template <class T> static T apply(T a, T b) { return T(a / b); }
};
struct AndB {
  template <class T> static T apply(T a, T b) { return T(a & b); }
};
struct OrB {
  template <class T> static T apply(T a, T b) { return T(a | b); }
};
struct Xor {
  template <class T> static T apply(T a, T b) { return T(a ^ b); }
};
struct Shl {
  template <class T> static T apply(T a, T b) { return T(Promoted<T>(a) << shift_count(b)); }
};
// Arithmetic for signed types, logical for unsigned ones.
struct Shr {
  template <class T> static T apply(T a, T b) {
    using P = std::conditional_t<std::is_signed_v<T>, std::make_signed_t<Promoted<T>>,
                                 Promoted<T>>;
    return T(P(a) >> shift_count(b));
  }
};
struct AndL {
  template <class T> static T apply(T a, T b) { return T(a && b); }
};
struct OrL {
  template <class T> static T apply(T a, T b) { return T(a || b); }
};
// Fortran .EQV. / .NEQV. on integer kinds: bitwise.
struct Eqv {
  template <class T> static T apply(T a, T b) { return T(~(a ^ b)); }
};
struct Neqv {
  template <class T> static T apply(T a, T b) { return T(a ^ b); }
};
// x = rhs when it is larger / smaller; a NaN on either side leaves x alone.
struct Max {
  template <class T> static T apply(T a, T b) { return a < b ? b : a; }
};
struct Min {
  template <class T> static T apply(T a, T b) { return b < a ? b : a; }
};

}  // namespace kite::kmpc::atomic_op

namespace kite::kmpc {

// x = x op rhs (or rhs op x), computed in the type of rhs and converted back.
template <class Op, bool kReverse, class T, class R>
inline AtomicUpdated<T> atomic_apply(T* lhs, R rhs, const void* ra) {
  return atomic_update(
      lhs,
      [rhs](T x) -> T {
        if constexpr (kReverse) return T(Op::apply(rhs, R(x)));
        else return T(Op::apply(R(x), rhs));
      },
      ra);
}

}  // namespace kite::kmpc

#define KMPC_ATOMIC_RA __builtin_return_address(0)

#define KMPC_ATOMIC_UPDATE(tname, oname, T, Op)                                         \
  KITE_EXPORT void __kmpc_atomic_##tname##_##oname(ident_t*, int, T* lhs, T rhs) {      \
    kite::kmpc::atomic_apply<kite::kmpc::atomic_op::Op, false>(lhs, rhs, KMPC_ATOMIC_RA); \
  }

#define KMPC_ATOMIC_UPDATE_REV(tname, oname, T, Op)                                     \
  KITE_EXPORT void __kmpc_atomic_##tname##_##oname##_rev(ident_t*, int, T* lhs, T rhs) { \
    kite::kmpc::atomic_apply<kite::kmpc::atomic_op::Op, true>(lhs, rhs, KMPC_ATOMIC_RA);  \
  }

#define KMPC_ATOMIC_UPDATE_MIX(tname, oname, T, rname, R, Op)                           \
  KITE_EXPORT void __kmpc_atomic_##tname##_##oname##_##rname(ident_t*, int, T* lhs,     \
                                                             R rhs) {                   \
    kite::kmpc::atomic_apply<kite::kmpc::atomic_op::Op, false>(lhs, rhs, KMPC_ATOMIC_RA); \
  }

#define KMPC_ATOMIC_CPT(tname, oname, T, Op)                                                  \
  KITE_EXPORT T __kmpc_atomic_##tname##_##oname##_cpt(ident_t*, int, T* lhs, T rhs,           \
                                                      int flag) {                             \
    auto u = kite::kmpc::atomic_apply<kite::kmpc::atomic_op::Op, false>(lhs, rhs,             \
                                                                        KMPC_ATOMIC_RA);      \
    return flag ? u.after : u.before;                                                         \
  }

#define KMPC_ATOMIC_CPT_REV(tname, oname, T, Op)                                              \
  KITE_EXPORT T __kmpc_atomic_##tname##_##oname##_cpt_rev(ident_t*, int, T* lhs, T rhs,       \
                                                          int flag) {                         \
    auto u = kite::kmpc::atomic_apply<kite::kmpc::atomic_op::Op, true>(lhs, rhs,              \
                                                                       KMPC_ATOMIC_RA);       \
    return flag ? u.after : u.before;                                                         \
  }

#define KMPC_ATOMIC_CPT_OUT(tname, oname, T, Op)                                              \
  KITE_EXPORT void __kmpc_atomic_##tname##_##oname##_cpt(ident_t*, int, T* lhs, T rhs,        \
                                                         T* out, int flag) {                  \
    auto u = kite::kmpc::atomic_apply<kite::kmpc::atomic_op::Op, false>(lhs, rhs,             \
                                                                        KMPC_ATOMIC_RA);      \
    *out = flag ? u.after : u.before;                                                         \
  }

#define KMPC_ATOMIC_CPT_REV_OUT(tname, oname, T, Op)                                          \
  KITE_EXPORT void __kmpc_atomic_##tname##_##oname##_cpt_rev(ident_t*, int, T* lhs, T rhs,    \
                                                             T* out, int flag) {              \
    auto u = kite::kmpc::atomic_apply<kite::kmpc::atomic_op::Op, true>(lhs, rhs,              \
                                                                       KMPC_ATOMIC_RA);       \
    *out = flag ? u.after : u.before;                                                         \
  }

// The operation lists of each type family, as X-macro tables: X(tname,
// oname, T, Op). Signed integer kinds have every operation; their unsigned
// twins only those whose result depends on signedness.
#define KMPC_ATOMIC_FIXED_OPS(X, tname, T) \
  X(tname, add, T, Add)                    \
  X(tname, sub, T, Sub)                    \
  X(tname, mul, T, Mul)                    \
  X(tname, div, T, Div)                    \
  X(tname, andb, T, AndB)                  \
  X(tname, orb, T, OrB)                    \
  X(tname, xor, T, Xor)                    \
  X(tname, shl, T, Shl)                    \
  X(tname, shr, T, Shr)                    \
  X(tname, andl, T, AndL)                  \
  X(tname, orl, T, OrL)                    \
  X(tname, eqv, T, Eqv)                    \
  X(tname, neqv, T, Neqv)                  \
  X(tname, max, T, Max)                    \
  X(tname, min, T, Min)

#define KMPC_ATOMIC_FIXED_UNSIGNED_OPS(X, tname, T) \
  X(tname, div, T, Div)                             \
  X(tname, shr, T, Shr)

// The non-commutative operations: the ones with _rev forms.
#define KMPC_ATOMIC_FIXED_REV_OPS(X, tname, T) \
  X(tname, sub, T, Sub)                        \
  X(tname, div, T, Div)                        \
  X(tname, shl, T, Shl)                        \
  X(tname, shr, T, Shr)

#define KMPC_ATOMIC_FLOAT_OPS(X, tname, T) \
  X(tname, add, T, Add)                    \
  X(tname, sub, T, Sub)                    \
  X(tname, mul, T, Mul)                    \
  X(tname, div, T, Div)                    \
  X(tname, max, T, Max)                    \
  X(tname, min, T, Min)

#define KMPC_ATOMIC_CMPLX_OPS(X, tname, T) \
  X(tname, add, T, Add)                    \
  X(tname, sub, T, Sub)                    \
  X(tname, mul, T, Mul)                    \
  X(tname, div, T, Div)

// Floating and complex kinds: sub and div.
#define KMPC_ATOMIC_ARITH_REV_OPS(X, tname, T) \
  X(tname, sub, T, Sub)                        \
  X(tname, div, T, Div)

// Every kind with read, write and swap entry points: X(tname, T).
#define KMPC_ATOMIC_RW_TYPES(X) \
  X(fixed1, int8_t)             \
  X(fixed2, int16_t)            \
  X(fixed4, int32_t)            \
  X(fixed8, int64_t)            \
  X(float4, float)              \
  X(float8, double)             \
  X(float10, long double)       \
  X(cmplx8, kmp_cmplx64)        \
  X(cmplx10, kmp_cmplx80)
