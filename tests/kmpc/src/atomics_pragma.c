// kite-test-threads: 1 2 4
// kite-test-cflags: -latomic
/* `#pragma omp atomic` update / capture / read / write, as clang compiles
 * it, on the types no single instruction covers: long double, the complex
 * types and __float128, by every thread of a team, against the sequential
 * answer.
 *
 * clang 14 lowers none of these to __kmpc_atomic_* calls: it calls
 * libatomic (__atomic_compare_exchange, __atomic_load, __atomic_store; hence
 * -latomic), and it rejects `atomic compare` (min/max) as unsupported. So
 * the program also checks the entry points other compilers use for the
 * same constructs: each resolves into Kite, and one that works on an 8- or
 * 4-byte object (a CAS loop on the object) mixes correctly with clang's own
 * native atomic instructions on that object. */
#include <complex.h>
#include <stdint.h>

#include "kite_test.h"

typedef struct kmpc_ident ident_t;

enum { K = 1500 };

static long double ld, ld_cpt, ld_rw;
static float _Complex cf;
static double _Complex cd, cd_mul;
static long double _Complex cld, cld_cpt;
static __float128 q;
static double mixed_d;
static int32_t mixed_i;

/* Every entry point resolves into the same object as Kite's identity. */
static void check_entry_points_are_kites(void) {
  static const char* const names[] = {
      "__kmpc_atomic_float10_add",     "__kmpc_atomic_float10_add_cpt",
      "__kmpc_atomic_float10_rd",      "__kmpc_atomic_float10_wr",
      "__kmpc_atomic_float10_max",     "__kmpc_atomic_float10_min_cpt",
      "__kmpc_atomic_cmplx4_add",      "__kmpc_atomic_cmplx4_add_cpt",
      "__kmpc_atomic_cmplx8_mul",      "__kmpc_atomic_cmplx8_rd",
      "__kmpc_atomic_cmplx10_add",     "__kmpc_atomic_cmplx10_swp",
      "__kmpc_atomic_fixed4_max",      "__kmpc_atomic_fixed8_eqv",
      "__kmpc_atomic_float8_add",      "__kmpc_atomic_fixed4_add",
      "__kmpc_atomic_val_4_cas_cpt",   "__kmpc_atomic_32",
      "__kmpc_atomic_start",           "__kmpc_atomic_end",
  };
  Dl_info kite, info;
  CHECK(dladdr(dlsym(RTLD_DEFAULT, "kite_runtime_version"), &kite));
  for (size_t i = 0; i < sizeof names / sizeof names[0]; ++i) {
    void* p = dlsym(RTLD_DEFAULT, names[i]);
    if (!p || !dladdr(p, &info) || info.dli_fbase != kite.dli_fbase) {
      fprintf(stderr, "%s does not resolve into Kite\n", names[i]);
      CHECK(0);
    }
  }
}

int main(void) {
  KITE_TEST_BEGIN();
  check_entry_points_are_kites();

  void (*kmpc_float8_add)(ident_t*, int, double*, double) =
      (void (*)(ident_t*, int, double*, double))dlsym(RTLD_DEFAULT, "__kmpc_atomic_float8_add");
  int32_t (*kmpc_fixed4_add_cpt)(ident_t*, int, int32_t*, int32_t, int) =
      (int32_t(*)(ident_t*, int, int32_t*, int32_t, int))dlsym(RTLD_DEFAULT,
                                                               "__kmpc_atomic_fixed4_add_cpt");
  CHECK(kmpc_float8_add && kmpc_fixed4_add_cpt);
  if (!kmpc_float8_add || !kmpc_fixed4_add_cpt) KITE_TEST_END();

  int n = omp_get_max_threads();
  if (n < 2) n = 2;
  const long N = (long)n * K;
  unsigned char* seen = calloc(N, 1);
  unsigned char* seen_c = calloc(N, 1);
  unsigned char* seen_i = calloc(N, 1);
  int bad_read = 0;
  cd_mul = 1.0;

#pragma omp parallel num_threads(n)
  {
    const int t = omp_get_thread_num();
    for (int k = 0; k < K; ++k) {
      const long v = (long)t * K + k;
#pragma omp atomic
      ld += 0.5L;
#pragma omp atomic update
      cf += 1.0f - 2.0f * I;
#pragma omp atomic
      cd = cd + (0.25 + 4.0 * I);
#pragma omp atomic
      cd_mul *= I;
#pragma omp atomic
      cld += 3.0L + 1.0L * I;
#pragma omp atomic
      q += (__float128)2;

      long double old;
#pragma omp atomic capture
      { old = ld_cpt; ld_cpt += 1.0L; }
      if (old >= 0 && old < N && old == (long)old) __atomic_add_fetch(&seen[(long)old], 1, 0);

      long double _Complex cnew;
#pragma omp atomic capture
      cnew = cld_cpt += 1.0L + 1.0L * I;
      long r = (long)creall(cnew) - 1;
      if (r >= 0 && r < N && creall(cnew) == cimagl(cnew)) __atomic_add_fetch(&seen_c[r], 1, 0);

#pragma omp atomic write
      ld_rw = (long double)v + 0.5L;
      long double got;
#pragma omp atomic read
      got = ld_rw;
      if (got - 0.5L != (long)got || got < 0 || got > N) bad_read = 1;

      /* clang's native atomics and Kite's CAS loops on the same objects */
      if (k % 2) {
#pragma omp atomic
        mixed_d += 1.0;
      } else {
        kmpc_float8_add(0, t, &mixed_d, 1.0);
      }
      int32_t before;
      if (k % 2) {
#pragma omp atomic capture
        before = mixed_i++;
      } else {
        before = kmpc_fixed4_add_cpt(0, t, &mixed_i, 1, 0);
      }
      if (before >= 0 && before < N) __atomic_add_fetch(&seen_i[before], 1, 0);
    }
  }

  CHECK(ld == 0.5L * N);
  CHECK(cf == (float)N - 2.0f * N * I);
  CHECK(cd == 0.25 * N + 4.0 * N * I);
  static const double _Complex powers_of_i[4] = {1.0, 1.0 * I, -1.0, -1.0 * I};
  CHECK(cd_mul == powers_of_i[N % 4]);
  CHECK(cld == 3.0L * N + 1.0L * N * I);
  CHECK(q == (__float128)(2 * N));
  CHECK(ld_cpt == (long double)N);
  CHECK(creall(cld_cpt) == N && cimagl(cld_cpt) == N);
  CHECK(!bad_read);
  CHECK(mixed_d == (double)N);
  CHECK(mixed_i == N);
  int once = 1;
  for (long k = 0; k < N; ++k)
    if (seen[k] != 1 || seen_c[k] != 1 || seen_i[k] != 1) once = 0;
  CHECK(once);
  free(seen);
  free(seen_c);
  free(seen_i);
  KITE_TEST_END();
}
