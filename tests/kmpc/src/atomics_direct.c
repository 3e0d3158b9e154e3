// kite-test-threads: 1 2 4
/* The __kmpc_atomic_* entry points called directly, as a compiler that
 * lowers `#pragma omp atomic` to them (Intel's) does: first each shape of
 * each type family once with a known answer (update, _rev, mixed-type,
 * _cpt with flag 0 and 1, _cpt_rev, _swp, _wr, _rd, the _cas forms, the
 * generic callback forms), then every thread of a team hammering shared
 * objects, checked against the sequential result. The last part interleaves
 * GOMP_atomic_start (gcc's lowering) and __kmpc_atomic_start with
 * __kmpc_atomic_float10_add on one long double: all three share one lock. */
#include <complex.h>
#include <stdbool.h>
#include <stdint.h>

#include "kite_test.h"

typedef struct kmpc_ident ident_t;
typedef float _Complex c4;
typedef double _Complex c8;
typedef long double _Complex c10;
typedef void (*kmpc_atomic_fn)(void*, void*, void*);

#define UPD(name, T) void __kmpc_atomic_##name(ident_t*, int, T*, T);
#define MIX(name, T, R) void __kmpc_atomic_##name(ident_t*, int, T*, R);
#define CPT(name, T) T __kmpc_atomic_##name(ident_t*, int, T*, T, int);
#define CPT_OUT(name, T) void __kmpc_atomic_##name(ident_t*, int, T*, T, T*, int);
#define SWP(name, T) T __kmpc_atomic_##name(ident_t*, int, T*, T);
#define RD(name, T) T __kmpc_atomic_##name(ident_t*, int, T*);

UPD(fixed1_add, int8_t) UPD(fixed1_sub, int8_t) UPD(fixed1_mul, int8_t) UPD(fixed1_div, int8_t)
UPD(fixed1_andb, int8_t) UPD(fixed1_orb, int8_t) UPD(fixed1_xor, int8_t) UPD(fixed1_shl, int8_t)
UPD(fixed1_shr, int8_t) UPD(fixed1_andl, int8_t) UPD(fixed1_orl, int8_t) UPD(fixed1_eqv, int8_t)
UPD(fixed1_neqv, int8_t) UPD(fixed1_max, int8_t) UPD(fixed1_min, int8_t)
UPD(fixed1u_div, uint8_t) UPD(fixed1u_shr, uint8_t)
UPD(fixed2_add, int16_t) UPD(fixed2_sub_rev, int16_t) UPD(fixed2_max, int16_t)
UPD(fixed2_min, int16_t) UPD(fixed2u_shr_rev, uint16_t)
UPD(fixed4_add, int32_t) UPD(fixed4_sub, int32_t) UPD(fixed4_mul, int32_t) UPD(fixed4_orb, int32_t)
UPD(fixed4_andb, int32_t) UPD(fixed4_xor, int32_t) UPD(fixed4_shl, int32_t) UPD(fixed4_shr, int32_t)
UPD(fixed4_sub_rev, int32_t) UPD(fixed4_div_rev, int32_t) UPD(fixed4_shl_rev, int32_t)
UPD(fixed4_shr_rev, int32_t) UPD(fixed4u_div, uint32_t) UPD(fixed4u_div_rev, uint32_t)
UPD(fixed8_add, int64_t) UPD(fixed8_eqv, int64_t) UPD(fixed8_neqv, int64_t) UPD(fixed8_div, int64_t)
UPD(fixed8_andl, int64_t) UPD(fixed8_orl, int64_t) UPD(fixed8u_shr, uint64_t)
UPD(fixed8_shl_rev, int64_t)
UPD(float4_add, float) UPD(float4_max, float) UPD(float4_min, float) UPD(float4_div_rev, float)
UPD(float8_add, double) UPD(float8_mul, double) UPD(float8_sub_rev, double) UPD(float8_div, double)
UPD(float8_max, double)
UPD(float10_add, long double) UPD(float10_sub, long double) UPD(float10_mul, long double)
UPD(float10_div, long double) UPD(float10_max, long double) UPD(float10_min, long double)
UPD(float10_sub_rev, long double) UPD(float10_div_rev, long double)
UPD(cmplx4_add, c4) UPD(cmplx4_sub_rev, c4) UPD(cmplx4_div, c4)
UPD(cmplx8_add, c8) UPD(cmplx8_mul, c8) UPD(cmplx8_div_rev, c8) UPD(cmplx8_sub, c8)
UPD(cmplx10_add, c10) UPD(cmplx10_mul, c10) UPD(cmplx10_div, c10) UPD(cmplx10_sub_rev, c10)
MIX(fixed1_mul_float8, int8_t, double) MIX(fixed2_div_float8, int16_t, double)
MIX(fixed4_mul_float8, int32_t, double) MIX(fixed8_div_float8, int64_t, double)
MIX(float4_add_float8, float, double) MIX(float4_sub_float8, float, double)
MIX(float4_mul_float8, float, double) MIX(float4_div_float8, float, double)
MIX(cmplx4_add_cmplx8, c4, c8) MIX(cmplx4_sub_cmplx8, c4, c8) MIX(cmplx4_mul_cmplx8, c4, c8)
MIX(cmplx4_div_cmplx8, c4, c8)
CPT(fixed1_add_cpt, int8_t) CPT(fixed1u_shr_cpt, uint8_t) CPT(fixed1_shr_cpt_rev, int8_t)
CPT(fixed2_min_cpt, int16_t) CPT(fixed2_sub_cpt_rev, int16_t) CPT(fixed2u_div_cpt_rev, uint16_t)
CPT(fixed4_add_cpt, int32_t) CPT(fixed4_orl_cpt, int32_t) CPT(fixed4_sub_cpt_rev, int32_t)
CPT(fixed8_add_cpt, int64_t) CPT(fixed8_max_cpt, int64_t) CPT(fixed8_eqv_cpt, int64_t)
CPT(fixed8_sub_cpt_rev, int64_t) CPT(fixed8u_shr_cpt_rev, uint64_t)
CPT(float4_mul_cpt, float) CPT(float4_div_cpt_rev, float)
CPT(float8_max_cpt, double) CPT(float8_min_cpt, double) CPT(float8_sub_cpt_rev, double)
CPT(float10_add_cpt, long double) CPT(float10_div_cpt, long double)
CPT(float10_min_cpt, long double) CPT(float10_sub_cpt_rev, long double)
CPT_OUT(cmplx4_add_cpt, c4) CPT_OUT(cmplx4_mul_cpt, c4) CPT_OUT(cmplx4_sub_cpt_rev, c4)
CPT_OUT(cmplx4_div_cpt_rev, c4)
CPT(cmplx8_add_cpt, c8) CPT(cmplx8_div_cpt_rev, c8) CPT(cmplx10_sub_cpt, c10)
CPT(cmplx10_div_cpt_rev, c10)
SWP(fixed1_swp, int8_t) SWP(fixed2_swp, int16_t) SWP(fixed4_swp, int32_t) SWP(fixed8_swp, int64_t)
SWP(float4_swp, float) SWP(float8_swp, double) SWP(float10_swp, long double)
SWP(cmplx8_swp, c8) SWP(cmplx10_swp, c10)
UPD(fixed1_wr, int8_t) UPD(fixed2_wr, int16_t) UPD(fixed4_wr, int32_t) UPD(fixed8_wr, int64_t)
UPD(float4_wr, float) UPD(float8_wr, double) UPD(float10_wr, long double) UPD(cmplx4_wr, c4)
UPD(cmplx8_wr, c8) UPD(cmplx10_wr, c10)
RD(fixed1_rd, int8_t) RD(fixed2_rd, int16_t) RD(fixed4_rd, int32_t) RD(fixed8_rd, int64_t)
RD(float4_rd, float) RD(float8_rd, double) RD(float10_rd, long double) RD(cmplx4_rd, c4)
RD(cmplx8_rd, c8) RD(cmplx10_rd, c10)
void __kmpc_atomic_cmplx4_swp(ident_t*, int, c4*, c4, c4*);
bool __kmpc_atomic_bool_1_cas(ident_t*, int, int8_t*, int8_t, int8_t);
bool __kmpc_atomic_bool_8_cas(ident_t*, int, int64_t*, int64_t, int64_t);
int16_t __kmpc_atomic_val_2_cas(ident_t*, int, int16_t*, int16_t, int16_t);
int32_t __kmpc_atomic_val_4_cas(ident_t*, int, int32_t*, int32_t, int32_t);
bool __kmpc_atomic_bool_2_cas_cpt(ident_t*, int, int16_t*, int16_t, int16_t, int16_t*);
bool __kmpc_atomic_bool_4_cas_cpt(ident_t*, int, int32_t*, int32_t, int32_t, int32_t*);
int8_t __kmpc_atomic_val_1_cas_cpt(ident_t*, int, int8_t*, int8_t, int8_t, int8_t*);
int64_t __kmpc_atomic_val_8_cas_cpt(ident_t*, int, int64_t*, int64_t, int64_t, int64_t*);
void __kmpc_atomic_1(ident_t*, int, void*, void*, kmpc_atomic_fn);
void __kmpc_atomic_2(ident_t*, int, void*, void*, kmpc_atomic_fn);
void __kmpc_atomic_4(ident_t*, int, void*, void*, kmpc_atomic_fn);
void __kmpc_atomic_8(ident_t*, int, void*, void*, kmpc_atomic_fn);
void __kmpc_atomic_10(ident_t*, int, void*, void*, kmpc_atomic_fn);
void __kmpc_atomic_16(ident_t*, int, void*, void*, kmpc_atomic_fn);
void __kmpc_atomic_20(ident_t*, int, void*, void*, kmpc_atomic_fn);
void __kmpc_atomic_32(ident_t*, int, void*, void*, kmpc_atomic_fn);
void __kmpc_atomic_start(void);
void __kmpc_atomic_end(void);
void GOMP_atomic_start(void);
void GOMP_atomic_end(void);

/* Each call passes a location-free ident and the thread's number, as the
 * entry points ignore both. */
#define G omp_get_thread_num()

static void add_i8(void* out, void* a, void* b) { *(int8_t*)out = *(int8_t*)a + *(int8_t*)b; }
static void add_i16(void* out, void* a, void* b) { *(int16_t*)out = *(int16_t*)a + *(int16_t*)b; }
static void add_i32(void* out, void* a, void* b) { *(int32_t*)out = *(int32_t*)a + *(int32_t*)b; }
static void add_f64(void* out, void* a, void* b) { *(double*)out = *(double*)a + *(double*)b; }
static void add_f80(void* out, void* a, void* b) {
  *(long double*)out = *(long double*)a + *(long double*)b;
}
static void add_c10(void* out, void* a, void* b) { *(c10*)out = *(c10*)a + *(c10*)b; }
static void sub_f80(void* out, void* a, void* b) {
  *(long double*)out = *(long double*)a - *(long double*)b;
}

/* One call of each shape, alone, with its exact answer. */
static void check_semantics(void) {
  int8_t b = 10;
  __kmpc_atomic_fixed1_add(0, G, &b, 5);    CHECK(b == 15);
  __kmpc_atomic_fixed1_sub(0, G, &b, 20);   CHECK(b == -5);
  __kmpc_atomic_fixed1_mul(0, G, &b, 3);    CHECK(b == -15);
  __kmpc_atomic_fixed1_div(0, G, &b, 2);    CHECK(b == -7);
  __kmpc_atomic_fixed1_andb(0, G, &b, 0x0f); CHECK(b == 0x09);
  __kmpc_atomic_fixed1_orb(0, G, &b, 0x30);  CHECK(b == 0x39);
  __kmpc_atomic_fixed1_xor(0, G, &b, 0x11);  CHECK(b == 0x28);
  __kmpc_atomic_fixed1_shl(0, G, &b, 2);    CHECK(b == (int8_t)0xa0);
  __kmpc_atomic_fixed1_shr(0, G, &b, 3);    CHECK(b == (int8_t)0xf4); /* arithmetic */
  __kmpc_atomic_fixed1_andl(0, G, &b, 7);   CHECK(b == 1);
  __kmpc_atomic_fixed1_andl(0, G, &b, 0);   CHECK(b == 0);
  __kmpc_atomic_fixed1_orl(0, G, &b, 0);    CHECK(b == 0);
  __kmpc_atomic_fixed1_orl(0, G, &b, -3);   CHECK(b == 1);
  __kmpc_atomic_fixed1_eqv(0, G, &b, 0x0f);  CHECK(b == (int8_t)~(0x01 ^ 0x0f));
  __kmpc_atomic_fixed1_neqv(0, G, &b, 0x0f); CHECK(b == (int8_t)~0x01);
  b = 5;
  __kmpc_atomic_fixed1_max(0, G, &b, 3);    CHECK(b == 5);
  __kmpc_atomic_fixed1_max(0, G, &b, 9);    CHECK(b == 9);
  __kmpc_atomic_fixed1_min(0, G, &b, -4);   CHECK(b == -4);
  __kmpc_atomic_fixed1_min(0, G, &b, 0);    CHECK(b == -4);
  uint8_t ub = 200;
  __kmpc_atomic_fixed1u_div(0, G, &ub, 3);  CHECK(ub == 66);
  ub = 200;
  __kmpc_atomic_fixed1u_shr(0, G, &ub, 2);  CHECK(ub == 50);      /* logical */

  /* _rev: x = rhs op x */
  int16_t s = 3;
  __kmpc_atomic_fixed2_sub_rev(0, G, &s, 10); CHECK(s == 7);
  uint16_t us = 3;
  __kmpc_atomic_fixed2u_shr_rev(0, G, &us, 0x8000); CHECK(us == 0x1000);
  int32_t i = 3;
  __kmpc_atomic_fixed4_div_rev(0, G, &i, 12);  CHECK(i == 4);
  __kmpc_atomic_fixed4_shl_rev(0, G, &i, 3);   CHECK(i == 48);
  i = 2;
  __kmpc_atomic_fixed4_shr_rev(0, G, &i, -16); CHECK(i == -4);
  __kmpc_atomic_fixed4_sub_rev(0, G, &i, 1);   CHECK(i == 5);
  uint32_t ui = 7;
  __kmpc_atomic_fixed4u_div_rev(0, G, &ui, 0xfffffff0u); CHECK(ui == 0xfffffff0u / 7);
  __kmpc_atomic_fixed4u_div(0, G, &ui, 0x10000000u);      CHECK(ui == 0xfffffff0u / 7 / 0x10000000u);
  int64_t l = 40;
  __kmpc_atomic_fixed8_shl_rev(0, G, &l, 1);   CHECK(l == (int64_t)1 << 40);
  __kmpc_atomic_fixed8_div(0, G, &l, -1024);   CHECK(l == -((int64_t)1 << 30));
  l = 0x0f0f;
  __kmpc_atomic_fixed8_eqv(0, G, &l, 0x00ff);  CHECK(l == ~(int64_t)(0x0f0f ^ 0x00ff));
  __kmpc_atomic_fixed8_neqv(0, G, &l, -1);     CHECK(l == (0x0f0f ^ 0x00ff));
  __kmpc_atomic_fixed8_andl(0, G, &l, 2);      CHECK(l == 1);
  __kmpc_atomic_fixed8_orl(0, G, &l, 0);       CHECK(l == 1);
  uint64_t ul = UINT64_MAX;
  __kmpc_atomic_fixed8u_shr(0, G, &ul, 60);    CHECK(ul == 15);
  float f = 2.0f;
  __kmpc_atomic_float4_div_rev(0, G, &f, 1.0f); CHECK(f == 0.5f);
  double d = 3.0;
  __kmpc_atomic_float8_sub_rev(0, G, &d, 10.0); CHECK(d == 7.0);
  __kmpc_atomic_float8_div(0, G, &d, 2.0);      CHECK(d == 3.5);
  long double e = 1.0L;
  __kmpc_atomic_float10_add(0, G, &e, 0x1p-60L); CHECK(e == 1.0L + 0x1p-60L); /* 64-bit mantissa */
  __kmpc_atomic_float10_sub(0, G, &e, 1.0L);     CHECK(e == 0x1p-60L);
  __kmpc_atomic_float10_mul(0, G, &e, 0x1p60L);  CHECK(e == 1.0L);
  __kmpc_atomic_float10_div(0, G, &e, 4.0L);     CHECK(e == 0.25L);
  __kmpc_atomic_float10_div_rev(0, G, &e, 1.0L); CHECK(e == 4.0L);
  __kmpc_atomic_float10_sub_rev(0, G, &e, 1.0L); CHECK(e == -3.0L);
  __kmpc_atomic_float10_max(0, G, &e, -5.0L);    CHECK(e == -3.0L);
  __kmpc_atomic_float10_min(0, G, &e, -5.0L);    CHECK(e == -5.0L);
  c4 z4 = 1.0f + 2.0f * I;
  __kmpc_atomic_cmplx4_sub_rev(0, G, &z4, 3.0f + 3.0f * I); CHECK(z4 == 2.0f + 1.0f * I);
  __kmpc_atomic_cmplx4_div(0, G, &z4, 2.0f);                CHECK(z4 == 1.0f + 0.5f * I);
  c8 z8 = 2.0 * I;
  __kmpc_atomic_cmplx8_div_rev(0, G, &z8, 1.0);      CHECK(z8 == -0.5 * I);
  __kmpc_atomic_cmplx8_mul(0, G, &z8, 2.0 * I);      CHECK(z8 == 1.0);
  __kmpc_atomic_cmplx8_sub(0, G, &z8, 1.0 - 1.0 * I); CHECK(z8 == 1.0 * I);
  c10 z10 = 1.0L + 1.0L * I;
  __kmpc_atomic_cmplx10_mul(0, G, &z10, 1.0L - 1.0L * I); CHECK(z10 == 2.0L);
  __kmpc_atomic_cmplx10_div(0, G, &z10, 4.0L * I);        CHECK(z10 == -0.5L * I);
  __kmpc_atomic_cmplx10_sub_rev(0, G, &z10, 1.0L);        CHECK(z10 == 1.0L + 0.5L * I);

  /* mixed: x = (T)((R)x op rhs) */
  b = 10;
  __kmpc_atomic_fixed1_mul_float8(0, G, &b, 2.5);  CHECK(b == 25);
  s = 10;
  __kmpc_atomic_fixed2_div_float8(0, G, &s, 4.0);  CHECK(s == 2);  /* 2.5 truncated */
  i = 1 << 20;
  __kmpc_atomic_fixed4_mul_float8(0, G, &i, 0.75); CHECK(i == 3 << 18);
  l = 10;
  __kmpc_atomic_fixed8_div_float8(0, G, &l, 0.25); CHECK(l == 40);
  f = 1.0f;
  __kmpc_atomic_float4_add_float8(0, G, &f, 0.5); CHECK(f == 1.5f);
  __kmpc_atomic_float4_sub_float8(0, G, &f, 2.0); CHECK(f == -0.5f);
  __kmpc_atomic_float4_mul_float8(0, G, &f, 6.0); CHECK(f == -3.0f);
  __kmpc_atomic_float4_div_float8(0, G, &f, 4.0); CHECK(f == -0.75f);
  z4 = 1.0f + 1.0f * I;
  __kmpc_atomic_cmplx4_mul_cmplx8(0, G, &z4, 2.0 * I);  CHECK(z4 == -2.0f + 2.0f * I);
  __kmpc_atomic_cmplx4_add_cmplx8(0, G, &z4, 3.0);      CHECK(z4 == 1.0f + 2.0f * I);
  __kmpc_atomic_cmplx4_sub_cmplx8(0, G, &z4, 2.0 * I);  CHECK(z4 == 1.0f);
  __kmpc_atomic_cmplx4_div_cmplx8(0, G, &z4, 0.5);      CHECK(z4 == 2.0f);

  /* _cpt: flag 0 returns the old value, flag 1 the new one */
  b = 100;
  CHECK(__kmpc_atomic_fixed1_add_cpt(0, G, &b, 27, 0) == 100 && b == 127);
  CHECK(__kmpc_atomic_fixed1_add_cpt(0, G, &b, 1, 1) == -128 && b == -128);
  ub = 0x81;
  CHECK(__kmpc_atomic_fixed1u_shr_cpt(0, G, &ub, 1, 1) == 0x40 && ub == 0x40);
  b = 3;
  CHECK(__kmpc_atomic_fixed1_shr_cpt_rev(0, G, &b, -64, 1) == -8 && b == -8);
  s = 4;
  CHECK(__kmpc_atomic_fixed2_min_cpt(0, G, &s, 9, 1) == 4 && s == 4);
  CHECK(__kmpc_atomic_fixed2_min_cpt(0, G, &s, -9, 0) == 4 && s == -9);
  CHECK(__kmpc_atomic_fixed2_sub_cpt_rev(0, G, &s, 1, 0) == -9 && s == 10);
  us = 4;
  CHECK(__kmpc_atomic_fixed2u_div_cpt_rev(0, G, &us, 65000, 1) == 16250 && us == 16250);
  i = 0;
  CHECK(__kmpc_atomic_fixed4_orl_cpt(0, G, &i, 5, 1) == 1 && i == 1);
  CHECK(__kmpc_atomic_fixed4_sub_cpt_rev(0, G, &i, 7, 0) == 1 && i == 6);
  l = -3;
  CHECK(__kmpc_atomic_fixed8_max_cpt(0, G, &l, -7, 1) == -3 && l == -3);
  CHECK(__kmpc_atomic_fixed8_max_cpt(0, G, &l, 70, 0) == -3 && l == 70);
  CHECK(__kmpc_atomic_fixed8_eqv_cpt(0, G, &l, 70, 1) == -1 && l == -1);
  CHECK(__kmpc_atomic_fixed8_sub_cpt_rev(0, G, &l, 5, 1) == 6 && l == 6);
  ul = 2;
  CHECK(__kmpc_atomic_fixed8u_shr_cpt_rev(0, G, &ul, UINT64_MAX, 0) == 2 &&
        ul == UINT64_MAX >> 2);
  f = 1.5f;
  CHECK(__kmpc_atomic_float4_mul_cpt(0, G, &f, 2.0f, 1) == 3.0f && f == 3.0f);
  CHECK(__kmpc_atomic_float4_div_cpt_rev(0, G, &f, 1.5f, 0) == 3.0f && f == 0.5f);
  d = 1.0;
  CHECK(__kmpc_atomic_float8_max_cpt(0, G, &d, 2.0, 0) == 1.0 && d == 2.0);
  CHECK(__kmpc_atomic_float8_min_cpt(0, G, &d, 5.0, 1) == 2.0 && d == 2.0);
  CHECK(__kmpc_atomic_float8_sub_cpt_rev(0, G, &d, 0.5, 1) == -1.5 && d == -1.5);
  e = 1.0L;
  CHECK(__kmpc_atomic_float10_add_cpt(0, G, &e, 0x1p-62L, 1) == 1.0L + 0x1p-62L);
  CHECK(__kmpc_atomic_float10_div_cpt(0, G, &e, 2.0L, 0) == 1.0L + 0x1p-62L);
  CHECK(e == 0.5L + 0x1p-63L);
  e = 3.0L;
  CHECK(__kmpc_atomic_float10_min_cpt(0, G, &e, 2.0L, 1) == 2.0L && e == 2.0L);
  CHECK(__kmpc_atomic_float10_sub_cpt_rev(0, G, &e, 2.5L, 1) == 0.5L && e == 0.5L);
  c4 out4 = 0;
  z4 = 1.0f;
  __kmpc_atomic_cmplx4_add_cpt(0, G, &z4, 1.0f * I, &out4, 0);
  CHECK(out4 == 1.0f && z4 == 1.0f + 1.0f * I);
  __kmpc_atomic_cmplx4_mul_cpt(0, G, &z4, 1.0f - 1.0f * I, &out4, 1);
  CHECK(out4 == 2.0f && z4 == 2.0f);
  __kmpc_atomic_cmplx4_sub_cpt_rev(0, G, &z4, 5.0f * I, &out4, 1);
  CHECK(out4 == -2.0f + 5.0f * I && z4 == out4);
  z4 = 2.0f;
  __kmpc_atomic_cmplx4_div_cpt_rev(0, G, &z4, 1.0f * I, &out4, 0);
  CHECK(out4 == 2.0f && z4 == 0.5f * I);
  z8 = 1.0;
  CHECK(__kmpc_atomic_cmplx8_add_cpt(0, G, &z8, 2.0 * I, 1) == 1.0 + 2.0 * I);
  CHECK(__kmpc_atomic_cmplx8_div_cpt_rev(0, G, &z8, 5.0, 0) == 1.0 + 2.0 * I);
  CHECK(z8 == 1.0 - 2.0 * I);
  z10 = 1.0L;
  CHECK(__kmpc_atomic_cmplx10_sub_cpt(0, G, &z10, 1.0L * I, 1) == 1.0L - 1.0L * I);
  CHECK(__kmpc_atomic_cmplx10_div_cpt_rev(0, G, &z10, 2.0L, 0) == 1.0L - 1.0L * I);
  CHECK(z10 == 1.0L + 1.0L * I);

  /* swap, write, read */
  b = 1; s = 2; i = 3; l = 4; f = 5.0f; d = 6.0; e = 7.0L; z8 = 8.0; z10 = 9.0L;
  CHECK(__kmpc_atomic_fixed1_swp(0, G, &b, -1) == 1 && b == -1);
  CHECK(__kmpc_atomic_fixed2_swp(0, G, &s, -2) == 2 && s == -2);
  CHECK(__kmpc_atomic_fixed4_swp(0, G, &i, -3) == 3 && i == -3);
  CHECK(__kmpc_atomic_fixed8_swp(0, G, &l, -4) == 4 && l == -4);
  CHECK(__kmpc_atomic_float4_swp(0, G, &f, -5.0f) == 5.0f && f == -5.0f);
  CHECK(__kmpc_atomic_float8_swp(0, G, &d, -6.0) == 6.0 && d == -6.0);
  CHECK(__kmpc_atomic_float10_swp(0, G, &e, -7.0L) == 7.0L && e == -7.0L);
  CHECK(__kmpc_atomic_cmplx8_swp(0, G, &z8, 8.0 * I) == 8.0 && z8 == 8.0 * I);
  CHECK(__kmpc_atomic_cmplx10_swp(0, G, &z10, 9.0L * I) == 9.0L && z10 == 9.0L * I);
  z4 = 4.0f;
  __kmpc_atomic_cmplx4_swp(0, G, &z4, 4.0f * I, &out4);
  CHECK(out4 == 4.0f && z4 == 4.0f * I);
  __kmpc_atomic_fixed1_wr(0, G, &b, 11);   CHECK(__kmpc_atomic_fixed1_rd(0, G, &b) == 11);
  __kmpc_atomic_fixed2_wr(0, G, &s, 12);   CHECK(__kmpc_atomic_fixed2_rd(0, G, &s) == 12);
  __kmpc_atomic_fixed4_wr(0, G, &i, 13);   CHECK(__kmpc_atomic_fixed4_rd(0, G, &i) == 13);
  __kmpc_atomic_fixed8_wr(0, G, &l, 14);   CHECK(__kmpc_atomic_fixed8_rd(0, G, &l) == 14);
  __kmpc_atomic_float4_wr(0, G, &f, 1.5f); CHECK(__kmpc_atomic_float4_rd(0, G, &f) == 1.5f);
  __kmpc_atomic_float8_wr(0, G, &d, 2.5);  CHECK(__kmpc_atomic_float8_rd(0, G, &d) == 2.5);
  __kmpc_atomic_float10_wr(0, G, &e, 3.5L); CHECK(__kmpc_atomic_float10_rd(0, G, &e) == 3.5L);
  __kmpc_atomic_cmplx4_wr(0, G, &z4, 1.0f + 2.0f * I);
  CHECK(__kmpc_atomic_cmplx4_rd(0, G, &z4) == 1.0f + 2.0f * I);
  __kmpc_atomic_cmplx8_wr(0, G, &z8, 3.0 + 4.0 * I);
  CHECK(__kmpc_atomic_cmplx8_rd(0, G, &z8) == 3.0 + 4.0 * I);
  __kmpc_atomic_cmplx10_wr(0, G, &z10, 5.0L + 6.0L * I);
  CHECK(__kmpc_atomic_cmplx10_rd(0, G, &z10) == 5.0L + 6.0L * I);

  /* compare-and-swap: bool_*_cas_cpt stores the value found only on
   * failure; val_*_cas_cpt stores the value x holds afterwards and returns
   * the value found. */
  b = 1;
  CHECK(!__kmpc_atomic_bool_1_cas(0, G, &b, 2, 3) && b == 1);
  CHECK(__kmpc_atomic_bool_1_cas(0, G, &b, 1, 3) && b == 3);
  l = 5;
  CHECK(__kmpc_atomic_bool_8_cas(0, G, &l, 5, (int64_t)1 << 40) && l == (int64_t)1 << 40);
  s = 7;
  CHECK(__kmpc_atomic_val_2_cas(0, G, &s, 6, 9) == 7 && s == 7);
  CHECK(__kmpc_atomic_val_2_cas(0, G, &s, 7, 9) == 7 && s == 9);
  int16_t sv = 0;
  CHECK(!__kmpc_atomic_bool_2_cas_cpt(0, G, &s, 1, 2, &sv) && sv == 9 && s == 9);
  sv = 0;
  CHECK(__kmpc_atomic_bool_2_cas_cpt(0, G, &s, 9, 2, &sv) && sv == 0 && s == 2);
  int32_t iv = 0;
  i = 10;
  CHECK(__kmpc_atomic_bool_4_cas_cpt(0, G, &i, 10, 11, &iv) && iv == 0 && i == 11);
  int8_t bv = 0;
  b = 4;
  CHECK(__kmpc_atomic_val_1_cas_cpt(0, G, &b, 5, 6, &bv) == 4 && bv == 4 && b == 4);
  CHECK(__kmpc_atomic_val_1_cas_cpt(0, G, &b, 4, 6, &bv) == 4 && bv == 6 && b == 6);
  int64_t lv = 0;
  l = -1;
  CHECK(__kmpc_atomic_val_8_cas_cpt(0, G, &l, -1, 0, &lv) == -1 && lv == 0 && l == 0);

  /* generic forms: the callback computes *out = *a op *b */
  int8_t g1 = 1, r1 = 2;
  __kmpc_atomic_1(0, G, &g1, &r1, add_i8);    CHECK(g1 == 3);
  int16_t g2 = 300, r2 = 400;
  __kmpc_atomic_2(0, G, &g2, &r2, add_i16);   CHECK(g2 == 700);
  int32_t g4 = 1 << 20, r4 = 5;
  __kmpc_atomic_4(0, G, &g4, &r4, add_i32);   CHECK(g4 == (1 << 20) + 5);
  double g8 = 0.25, r8 = 0.5;
  __kmpc_atomic_8(0, G, &g8, &r8, add_f64);   CHECK(g8 == 0.75);
  long double g10 = 1.0L, r10 = 0x1p-63L;
  __kmpc_atomic_10(0, G, &g10, &r10, add_f80); CHECK(g10 == 1.0L + 0x1p-63L);
  __kmpc_atomic_16(0, G, &g10, &r10, sub_f80); CHECK(g10 == 1.0L);
  __kmpc_atomic_20(0, G, &g10, &r10, add_f80); CHECK(g10 == 1.0L + 0x1p-63L);
  c10 g32 = 1.0L, r32 = 1.0L * I;
  __kmpc_atomic_32(0, G, &g32, &r32, add_c10); CHECK(g32 == 1.0L + 1.0L * I);
}

enum { K = 2000 };

/* Shared objects every thread updates K times. */
static int8_t x1;
static int16_t x2_max, x2_min;
static int32_t x4, x4_or, x4_and, x4_xor, x4_mul, x4_cas, x4_swp;
static int64_t x8, x8_cpt, x8_cas;
static float xf, xf_max;
static double xd, xd_rev, xd_neg;
static long double xe, xe_cpt, xe_min, xe_shared;
static c4 xc4;
static c8 xc8, xc8_mul;
static c10 xc10, xc10_rw;
static int32_t g4;
static double g8;
static long double g16;
static int32_t x4_start;

static void check_concurrent(int n) {
  const long N = (long)n * K;
  /* one flag per value a fetch-and-add or a swap can hand out */
  unsigned char* seen_cpt = calloc(N + 1, 1);
  unsigned char* seen_new = calloc(N + 1, 1);
  unsigned char* seen_f80 = calloc(N + 1, 1);
  unsigned char* seen_swp = calloc(N + 1, 1);
  x2_max = -1; x2_min = 32767; x4_and = -1; x4_mul = 1; xf_max = -1.0f;
  xd_rev = 3.0; xd_neg = 1.5; xe_min = 1e30L; xc8_mul = 1.0;
  int swapped_bad = 0, torn = 0, bad_rev = 0;

#pragma omp parallel num_threads(n)
  {
    const int t = omp_get_thread_num();
    for (int k = 0; k < K; ++k) {
      const long v = (long)t * K + k; /* unique over the team: 0..N-1 */
      __kmpc_atomic_fixed1_add(0, t, &x1, 1);
      __kmpc_atomic_fixed2_max(0, t, &x2_max, (int16_t)(v % 30000));
      __kmpc_atomic_fixed2_min(0, t, &x2_min, (int16_t)(v % 30000));
      __kmpc_atomic_fixed4_sub(0, t, &x4, 3);
      __kmpc_atomic_fixed4_orb(0, t, &x4_or, 1 << (t % 31));
      __kmpc_atomic_fixed4_andb(0, t, &x4_and, ~(1 << (t % 31)));
      __kmpc_atomic_fixed4_xor(0, t, &x4_xor, 5);
      __kmpc_atomic_fixed4_mul(0, t, &x4_mul, -1);
      __kmpc_atomic_fixed8_add(0, t, &x8, (int64_t)1 << 33);
      __kmpc_atomic_float4_add(0, t, &xf, 1.0f);
      __kmpc_atomic_float4_max(0, t, &xf_max, (float)v);
      __kmpc_atomic_float8_add(0, t, &xd, 0.5);
      __kmpc_atomic_float8_sub_rev(0, t, &xd_rev, 10.0); /* 3 <-> 7 */
      __kmpc_atomic_float10_add(0, t, &xe, 0.25L);
      __kmpc_atomic_float10_min(0, t, &xe_min, (long double)v);
      __kmpc_atomic_cmplx4_add(0, t, &xc4, 1.0f - 1.0f * I);
      __kmpc_atomic_cmplx8_add(0, t, &xc8, 2.0 + 0.5 * I);
      __kmpc_atomic_cmplx8_mul(0, t, &xc8_mul, 1.0 * I);
      __kmpc_atomic_cmplx10_add(0, t, &xc10, 1.0L + 3.0L * I);

      int64_t old8 = __kmpc_atomic_fixed8_add_cpt(0, t, &x8_cpt, 1, 0);
      if (old8 >= 0 && old8 < N) __atomic_add_fetch(&seen_cpt[old8], 1, __ATOMIC_RELAXED);
      int32_t new4 = __kmpc_atomic_fixed4_add_cpt(0, t, &g4, 1, 1);
      if (new4 >= 1 && new4 <= N) __atomic_add_fetch(&seen_new[new4], 1, __ATOMIC_RELAXED);
      long double olde = __kmpc_atomic_float10_add_cpt(0, t, &xe_cpt, 1.0L, 0);
      if (olde >= 0 && olde < N && olde == (long)olde)
        __atomic_add_fetch(&seen_f80[(long)olde], 1, __ATOMIC_RELAXED);
      int32_t out = __kmpc_atomic_fixed4_swp(0, t, &x4_swp, (int32_t)(v + 1));
      if (out >= 0 && out <= N) __atomic_add_fetch(&seen_swp[out], 1, __ATOMIC_RELAXED);
      else swapped_bad = 1;

      /* x = 0 - x, twice: an even number of negations in all */
      double neg = __kmpc_atomic_float8_sub_cpt_rev(0, t, &xd_neg, 0.0, 1);
      if (neg != 1.5 && neg != -1.5) bad_rev = 1;
      __kmpc_atomic_float8_sub_cpt_rev(0, t, &xd_neg, 0.0, 0);

      int32_t seen;
      do seen = __kmpc_atomic_fixed4_rd(0, t, &x4_cas);
      while (__kmpc_atomic_val_4_cas(0, t, &x4_cas, seen, seen + 1) != seen);
      int64_t seen8;
      do seen8 = __kmpc_atomic_fixed8_rd(0, t, &x8_cas);
      while (!__kmpc_atomic_bool_8_cas(0, t, &x8_cas, seen8, seen8 + 2));

      __kmpc_atomic_8(0, t, &g8, &(double){1.0}, add_f64);
      __kmpc_atomic_16(0, t, &g16, &(long double){2.0L}, add_f80);

      /* a complex written as a whole is read as a whole */
      __kmpc_atomic_cmplx10_wr(0, t, &xc10_rw, (long double)v + (long double)v * I);
      c10 rd = __kmpc_atomic_cmplx10_rd(0, t, &xc10_rw);
      if (creall(rd) != cimagl(rd)) torn = 1;
      double rev = __kmpc_atomic_float8_rd(0, t, &xd_rev);
      if (rev != 3.0 && rev != 7.0) bad_rev = 1;

      /* the region the compiler writes out itself */
      __kmpc_atomic_start();
      x4_start += 2;
      __kmpc_atomic_end();

      /* one long double, three ways into the one atomic lock */
      if (k % 3 == 0) {
        GOMP_atomic_start();
        xe_shared += 1.0L;
        GOMP_atomic_end();
      } else if (k % 3 == 1) {
        __kmpc_atomic_start();
        xe_shared += 1.0L;
        __kmpc_atomic_end();
      } else {
        __kmpc_atomic_float10_add(0, t, &xe_shared, 1.0L);
      }
    }
  }

  CHECK(x1 == (int8_t)N);
  CHECK(x2_max == (N - 1 < 30000 ? N - 1 : 29999));
  CHECK(x2_min == 0);
  CHECK(x4 == -3 * N);
  int32_t bits = 0;
  for (int t = 0; t < n; ++t) bits |= 1 << (t % 31);
  CHECK(x4_or == bits);
  CHECK(x4_and == ~bits);
  CHECK(x4_xor == (N % 2 ? 5 : 0));
  CHECK(x4_mul == (N % 2 ? -1 : 1));
  CHECK(x8 == N * ((int64_t)1 << 33));
  CHECK(xf == (float)N);
  CHECK(xf_max == (float)(N - 1));
  CHECK(xd == 0.5 * N);
  CHECK(xd_rev == (N % 2 ? 7.0 : 3.0));
  CHECK(xd_neg == 1.5);
  CHECK(xe == 0.25L * N);
  CHECK(xe_min == 0.0L);
  CHECK(xc4 == (float)N - (float)N * I);
  CHECK(xc8 == 2.0 * N + 0.5 * N * I);
  static const c8 powers_of_i[4] = {1.0, 1.0 * I, -1.0, -1.0 * I};
  CHECK(xc8_mul == powers_of_i[N % 4]);
  CHECK(xc10 == (long double)N + 3.0L * N * I);
  CHECK(x4_cas == N);
  CHECK(x8_cas == 2 * N);
  CHECK(g8 == (double)N);
  CHECK(g16 == 2.0L * N);
  CHECK(x4_start == 2 * N);
  CHECK(xe_shared == (long double)N);
  CHECK(!swapped_bad);
  CHECK(!torn);
  CHECK(!bad_rev);
  /* every old value of the fetch-and-adds handed out exactly once */
  int dup = 0;
  for (long k = 0; k < N; ++k)
    if (seen_cpt[k] != 1 || seen_new[k + 1] != 1 || seen_f80[k] != 1) dup = 1;
  CHECK(!dup);
  /* the swapped-out values and the final one: the initial 0 and 1..N, once each */
  int32_t last = x4_swp;
  if (last >= 0 && last <= N) seen_swp[last]++;
  int swp_ok = 1;
  for (long k = 0; k <= N; ++k)
    if (seen_swp[k] != 1) swp_ok = 0;
  CHECK(swp_ok);
  free(seen_cpt);
  free(seen_new);
  free(seen_f80);
  free(seen_swp);
}

int main(void) {
  KITE_TEST_BEGIN();
  check_semantics();
  int n = omp_get_max_threads();
  check_concurrent(n < 2 ? 2 : n);
  KITE_TEST_END();
}
