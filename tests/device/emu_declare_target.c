// kite-test-compilers: gcc  -- gcc's offloading ABI and host variable table on Kite's emulated devices
/* declare target globals on an emulated device: gcc's host-fallback code
 * names them directly (a `link` global in every function the region
 * calls, a `to` global everywhere), so Kite maps each onto itself: device
 * address = host address, present from the start, never copied. A `link`
 * global that a region maps tofrom keeps what the region's callee wrote
 * (no stale device copy comes back over it), and the region's body and its
 * callee see one variable. A global without declare target stays separate.
 * kite-test-threads: 1 2
 * kite-test-env: KITE_DEVICES=2
 */
#include "kite_test.h"

#include <stdint.h>

/* OpenMP 5.1; gcc 12's omp.h does not declare it. */
extern void* omp_get_mapped_ptr(const void*, int);
/* What a program built with an offload compiler calls at start-up (this
 * gcc has none configured, so Kite reads the table from the sections). */
extern void GOMP_offload_register_ver(unsigned, const void*, int, const void*);
extern void GOMP_offload_unregister_ver(unsigned, const void*, int, const void*);
static int R[6];

int L[4];
#pragma omp declare target link(L)
int T[4];
#pragma omp declare target to(T)
int P[4]; /* no declare target */

#pragma omp declare target
void bump(void) __attribute__((noinline));
void bump(void) {
  L[1] += 1;
  T[1] += 1;
}
int read_l2(void) __attribute__((noinline));
int read_l2(void) { return L[2]; }
#pragma omp end declare target

int main(void) {
  KITE_TEST_BEGIN();
  CHECK_EQ_LONG(omp_get_num_devices(), 2);

  /* The defect: the callee's write to the host global was overwritten by
   * the copy back of the untouched device copy. */
#pragma omp target map(tofrom : L)
  bump();
  CHECK_EQ_LONG(L[1], 1);
  CHECK_EQ_LONG(T[1], 1);
#pragma omp target device(1) map(tofrom : L)
  bump();
  CHECK_EQ_LONG(L[1], 2);

  /* The body (through its argument vector) and the callee (directly) see
   * the same storage. */
  int seen = -1;
#pragma omp target map(tofrom : L) map(from : seen)
  {
    L[2] = 5;
    seen = read_l2();
  }
  CHECK_EQ_LONG(seen, 5);
  CHECK_EQ_LONG(L[2], 5);

  /* Present on every device at its own address, with no copy: to-only and
   * from-only maps move nothing, delete unmaps nothing. */
  CHECK(omp_target_is_present(L, 0));
  CHECK(omp_target_is_present(T, 1));
  CHECK(omp_get_mapped_ptr(L, 0) == (void*)L);
  CHECK(omp_get_mapped_ptr(&T[2], 1) == (void*)&T[2]);
#pragma omp target map(to : L)
  L[3] = 9;
  CHECK_EQ_LONG(L[3], 9);
  L[0] = 3;
#pragma omp target update from(L)
  CHECK_EQ_LONG(L[0], 3);
#pragma omp target enter data map(to : L)
#pragma omp target exit data map(delete : L)
  CHECK(omp_target_is_present(L, 0));
  /* omp_target_disassociate_ptr cannot take it away either. */
  CHECK(omp_target_disassociate_ptr(L, 0) != 0);
  CHECK(omp_target_is_present(L, 0));

  /* A host table registered after the devices' start: its variables
   * become shared on each of them, and stop being at unregistration. */
  CHECK(!omp_target_is_present(R, 0));
  uintptr_t vars[2] = {(uintptr_t)R, sizeof R};
  const void* host_table[4] = {NULL, NULL, vars, vars + 2};
  GOMP_offload_register_ver(1u << 16 | 1, host_table, 5, NULL);
  GOMP_offload_register_ver(1u << 16 | 1, host_table, 6, NULL); /* another device type */
  CHECK(omp_get_mapped_ptr(&R[3], 0) == (void*)&R[3]);
  CHECK(omp_get_mapped_ptr(R, 1) == (void*)R);
#pragma omp target map(to : R)
  R[1] = 4;
  CHECK_EQ_LONG(R[1], 4);
  GOMP_offload_unregister_ver(1u << 16 | 1, host_table, 5, NULL);
  CHECK(!omp_target_is_present(R, 0));
  CHECK(!omp_target_is_present(R, 1));

  /* A global without declare target is mapped like any other variable. */
  CHECK(!omp_target_is_present(P, 0));
#pragma omp target map(to : P)
  P[1] = 7;
  CHECK_EQ_LONG(P[1], 0);
  KITE_TEST_END();
}
