// kite-test-compilers: gcc  -- target regions through gcc's offloading ABI
/* Device memory routines on emulated devices (OpenMP 5.2 §18.8):
 * omp_target_alloc gives device memory distinct from host memory, memcpy
 * and memcpy_rect move data between host and devices (and between two
 * devices), associate pairs host data with device memory so that a map
 * clause uses it (with an infinite reference count: no transfer), and
 * disassociate undoes it; is_present, is_accessible and get_mapped_ptr
 * answer what separate memory means. Bad device numbers are refused.
 * kite-test-threads: 1 2
 * kite-test-env: KITE_DEVICES=2
 */
#include "kite_test.h"

#include <errno.h>

extern void* omp_get_mapped_ptr(const void*, int);
extern int omp_target_is_accessible(const void*, size_t, int);

int main(void) {
  KITE_TEST_BEGIN();
  const int host = omp_get_initial_device();
  CHECK_EQ_LONG(host, 2);

  int src[8], dst[8];
  for (int i = 0; i < 8; ++i) src[i] = 100 + i, dst[i] = 0;
  int* d0 = (int*)omp_target_alloc(sizeof src, 0);
  int* d1 = (int*)omp_target_alloc(sizeof src, 1);
  CHECK(d0 && d1 && d0 != d1);
  /* host -> device 0 -> device 1 -> host, with offsets. */
  CHECK_EQ_LONG(omp_target_memcpy(d0, src, sizeof src, 0, 0, 0, host), 0);
  CHECK_EQ_LONG(omp_target_memcpy(d1, d0, 4 * sizeof(int), 0, 2 * sizeof(int), 1, 0), 0);
  CHECK_EQ_LONG(omp_target_memcpy(dst, d1, 4 * sizeof(int), sizeof(int), 0, host, 1), 0);
  CHECK_EQ_LONG(dst[0], 0);
  CHECK_EQ_LONG(dst[1], 102);
  CHECK_EQ_LONG(dst[4], 105);
  CHECK_EQ_LONG(dst[5], 0);
  /* A region on device 0 sees the bytes copied there. */
  int sum = 0;
#pragma omp target is_device_ptr(d0) map(from : sum)
  {
    sum = 0;
    for (int i = 0; i < 8; ++i) sum += d0[i];
  }
  CHECK_EQ_LONG(sum, 8 * 100 + 28);

  /* memcpy_rect: a 2x3 block of a 4x5 host grid to device 1 and back. */
  int grid[4][5], out[4][5];
  for (int i = 0; i < 20; ++i) (&grid[0][0])[i] = i, (&out[0][0])[i] = -1;
  int* dg = (int*)omp_target_alloc(sizeof grid, 1);
  size_t vol[2] = {2, 3}, zero[2] = {0, 0}, off[2] = {1, 2}, dims[2] = {4, 5};
  CHECK_EQ_LONG(omp_target_memcpy_rect(dg, grid, sizeof(int), 2, vol, zero, off, dims, dims, 1,
                                       host), 0);
  CHECK_EQ_LONG(omp_target_memcpy_rect(out, dg, sizeof(int), 2, vol, off, zero, dims, dims, host,
                                       1), 0);
  CHECK_EQ_LONG(out[1][2], grid[1][2]);
  CHECK_EQ_LONG(out[2][4], grid[2][4]);
  CHECK_EQ_LONG(out[0][0], -1);
  CHECK_EQ_LONG(out[3][2], -1);
  omp_target_free(dg, 1);

  /* Association: the map clause finds the data present, moves nothing. */
  int h[8] = {0};
  CHECK_EQ_LONG(omp_target_associate_ptr(h, d0, sizeof h, 0, 0), 0);
  CHECK(omp_target_is_present(h, 0));
  CHECK(!omp_target_is_present(h, 1));
  CHECK(omp_get_mapped_ptr(h, 0) == (void*)d0);
  CHECK(omp_get_mapped_ptr(&h[3], 0) == (void*)(d0 + 3));
#pragma omp target map(tofrom : h)
  h[0] = 7;
  CHECK_EQ_LONG(h[0], 0); /* no transfer back: infinite reference count */
  int first = 0;
  CHECK_EQ_LONG(omp_target_memcpy(&first, d0, sizeof first, 0, 0, host, 0), 0);
  CHECK_EQ_LONG(first, 7);
  CHECK_EQ_LONG(omp_target_disassociate_ptr(h, 0), 0);
  CHECK(!omp_target_is_present(h, 0));
  CHECK_EQ_LONG(omp_target_disassociate_ptr(h, 0), EINVAL);
  /* Mapped (not associated) data cannot be disassociated. */
#pragma omp target enter data map(to : h)
  CHECK_EQ_LONG(omp_target_disassociate_ptr(h, 0), EINVAL);
  CHECK(omp_get_mapped_ptr(h, 0) != NULL && omp_get_mapped_ptr(h, 0) != (void*)h);
#pragma omp target exit data map(delete : h)
  CHECK(omp_get_mapped_ptr(h, 0) == NULL);
  /* The host has no other memory to associate with. */
  CHECK_EQ_LONG(omp_target_associate_ptr(h, d0, sizeof h, 0, host), EINVAL);
  CHECK(omp_get_mapped_ptr(h, host) == (void*)h);

  /* Separate memory: the device cannot reach host memory itself. */
  CHECK_EQ_LONG(omp_target_is_accessible(h, sizeof h, 0), 0);
  CHECK_EQ_LONG(omp_target_is_accessible(h, sizeof h, host), 1);
  CHECK(omp_target_is_present(h, host));

  /* Numbers naming no device. */
  CHECK(omp_target_alloc(16, 7) == NULL);
  CHECK_EQ_LONG(omp_target_memcpy(dst, src, 4, 0, 0, host, 7), EINVAL);
  CHECK(!omp_target_is_present(h, 7));

  omp_target_free(NULL, 0);
  omp_target_free(d0, 0);
  omp_target_free(d1, 1);
  KITE_TEST_END();
}
