// LLVM ABI: atomic update entry points, x = x op expr (and the _rev forms,
// x = expr op x, and the mixed-type forms whose expr is wider than x).
// Shapes and operation tables: atomic_shapes.h.
#include "abi/kmpc/atomic_shapes.h"

extern "C" {

KMPC_ATOMIC_FIXED_OPS(KMPC_ATOMIC_UPDATE, fixed1, int8_t)
KMPC_ATOMIC_FIXED_OPS(KMPC_ATOMIC_UPDATE, fixed2, int16_t)
KMPC_ATOMIC_FIXED_OPS(KMPC_ATOMIC_UPDATE, fixed4, int32_t)
KMPC_ATOMIC_FIXED_OPS(KMPC_ATOMIC_UPDATE, fixed8, int64_t)
KMPC_ATOMIC_FIXED_UNSIGNED_OPS(KMPC_ATOMIC_UPDATE, fixed1u, uint8_t)
KMPC_ATOMIC_FIXED_UNSIGNED_OPS(KMPC_ATOMIC_UPDATE, fixed2u, uint16_t)
KMPC_ATOMIC_FIXED_UNSIGNED_OPS(KMPC_ATOMIC_UPDATE, fixed4u, uint32_t)
KMPC_ATOMIC_FIXED_UNSIGNED_OPS(KMPC_ATOMIC_UPDATE, fixed8u, uint64_t)
KMPC_ATOMIC_FLOAT_OPS(KMPC_ATOMIC_UPDATE, float4, float)
KMPC_ATOMIC_FLOAT_OPS(KMPC_ATOMIC_UPDATE, float8, double)
KMPC_ATOMIC_FLOAT_OPS(KMPC_ATOMIC_UPDATE, float10, long double)
KMPC_ATOMIC_CMPLX_OPS(KMPC_ATOMIC_UPDATE, cmplx4, kmp_cmplx32)
KMPC_ATOMIC_CMPLX_OPS(KMPC_ATOMIC_UPDATE, cmplx8, kmp_cmplx64)
KMPC_ATOMIC_CMPLX_OPS(KMPC_ATOMIC_UPDATE, cmplx10, kmp_cmplx80)

KMPC_ATOMIC_FIXED_REV_OPS(KMPC_ATOMIC_UPDATE_REV, fixed1, int8_t)
KMPC_ATOMIC_FIXED_REV_OPS(KMPC_ATOMIC_UPDATE_REV, fixed2, int16_t)
KMPC_ATOMIC_FIXED_REV_OPS(KMPC_ATOMIC_UPDATE_REV, fixed4, int32_t)
KMPC_ATOMIC_FIXED_REV_OPS(KMPC_ATOMIC_UPDATE_REV, fixed8, int64_t)
KMPC_ATOMIC_FIXED_UNSIGNED_OPS(KMPC_ATOMIC_UPDATE_REV, fixed1u, uint8_t)
KMPC_ATOMIC_FIXED_UNSIGNED_OPS(KMPC_ATOMIC_UPDATE_REV, fixed2u, uint16_t)
KMPC_ATOMIC_FIXED_UNSIGNED_OPS(KMPC_ATOMIC_UPDATE_REV, fixed4u, uint32_t)
KMPC_ATOMIC_FIXED_UNSIGNED_OPS(KMPC_ATOMIC_UPDATE_REV, fixed8u, uint64_t)
KMPC_ATOMIC_ARITH_REV_OPS(KMPC_ATOMIC_UPDATE_REV, float4, float)
KMPC_ATOMIC_ARITH_REV_OPS(KMPC_ATOMIC_UPDATE_REV, float8, double)
KMPC_ATOMIC_ARITH_REV_OPS(KMPC_ATOMIC_UPDATE_REV, float10, long double)
KMPC_ATOMIC_ARITH_REV_OPS(KMPC_ATOMIC_UPDATE_REV, cmplx4, kmp_cmplx32)
KMPC_ATOMIC_ARITH_REV_OPS(KMPC_ATOMIC_UPDATE_REV, cmplx8, kmp_cmplx64)
KMPC_ATOMIC_ARITH_REV_OPS(KMPC_ATOMIC_UPDATE_REV, cmplx10, kmp_cmplx80)

// Mixed types: the integer kinds times or over a double, float with a
// double, float _Complex with a double _Complex (libomp's set).
#define KMPC_ATOMIC_FIXED_MIX(tname, T)                             \
  KMPC_ATOMIC_UPDATE_MIX(tname, mul, T, float8, double, Mul)        \
  KMPC_ATOMIC_UPDATE_MIX(tname, div, T, float8, double, Div)
KMPC_ATOMIC_FIXED_MIX(fixed1, int8_t)
KMPC_ATOMIC_FIXED_MIX(fixed2, int16_t)
KMPC_ATOMIC_FIXED_MIX(fixed4, int32_t)
KMPC_ATOMIC_FIXED_MIX(fixed8, int64_t)

KMPC_ATOMIC_UPDATE_MIX(float4, add, float, float8, double, Add)
KMPC_ATOMIC_UPDATE_MIX(float4, sub, float, float8, double, Sub)
KMPC_ATOMIC_UPDATE_MIX(float4, mul, float, float8, double, Mul)
KMPC_ATOMIC_UPDATE_MIX(float4, div, float, float8, double, Div)

KMPC_ATOMIC_UPDATE_MIX(cmplx4, add, kmp_cmplx32, cmplx8, kmp_cmplx64, Add)
KMPC_ATOMIC_UPDATE_MIX(cmplx4, sub, kmp_cmplx32, cmplx8, kmp_cmplx64, Sub)
KMPC_ATOMIC_UPDATE_MIX(cmplx4, mul, kmp_cmplx32, cmplx8, kmp_cmplx64, Mul)
KMPC_ATOMIC_UPDATE_MIX(cmplx4, div, kmp_cmplx32, cmplx8, kmp_cmplx64, Div)

}  // extern "C"
