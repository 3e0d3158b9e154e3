/* omp_target_* device memory routines on the initial device (host memory),
 * including strided 2-D and 3-D copies, and bad device numbers.
 * kite-test-threads: 1
 */
#include "kite_test.h"

#include <limits.h>
#include <stdint.h>

int main(void) {
  KITE_TEST_BEGIN();
  const int host = omp_get_initial_device();
  const int bad = omp_get_num_devices() + 5;

  /* alloc / free / is_present */
  int* p = omp_target_alloc(100 * sizeof(int), host);
  CHECK(p != NULL);
  for (int i = 0; i < 100; ++i) p[i] = i; /* host memory: directly usable */
  CHECK(omp_target_is_present(p, host));
  int local = 0;
  CHECK(omp_target_is_present(&local, host));
  omp_target_free(p, host);
  omp_target_free(NULL, host);
  CHECK(omp_target_alloc(16, bad) == NULL);
  CHECK(omp_target_alloc(16, -7) == NULL);
  CHECK(!omp_target_is_present(&local, bad));
  omp_target_free(&local, bad); /* no device: nothing to free, no crash */

  /* memcpy with offsets */
  char src[32], dst[32];
  for (int i = 0; i < 32; ++i) {
    src[i] = (char)i;
    dst[i] = 0;
  }
  CHECK_EQ_LONG(omp_target_memcpy(dst, src, 8, 4, 10, host, host), 0);
  for (int i = 0; i < 8; ++i) CHECK_EQ_LONG(dst[4 + i], 10 + i);
  CHECK_EQ_LONG(dst[3], 0);
  CHECK_EQ_LONG(dst[12], 0);
  CHECK(omp_target_memcpy(dst, src, 8, 0, 0, bad, host) != 0);
  CHECK(omp_target_memcpy(dst, src, 8, 0, 0, host, bad) != 0);
  CHECK_EQ_LONG(omp_target_memcpy(dst, src, 0, 0, 0, host, host), 0);

  /* memcpy_rect: both pointers null asks for the supported dimensions. */
  CHECK(omp_target_memcpy_rect(NULL, NULL, 0, 0, NULL, NULL, NULL, NULL, NULL, host, host) >= 3);

  /* 2-D: a 3x4 block from (1,2) of a 6x8 source to (2,1) of a 5x7 dest. */
  {
    double s[6][8], d[5][7];
    for (int i = 0; i < 6; ++i)
      for (int j = 0; j < 8; ++j) s[i][j] = 100 * i + j;
    for (int i = 0; i < 5; ++i)
      for (int j = 0; j < 7; ++j) d[i][j] = -1;
    size_t vol[2] = {3, 4}, doff[2] = {2, 1}, soff[2] = {1, 2};
    size_t ddim[2] = {5, 7}, sdim[2] = {6, 8};
    CHECK_EQ_LONG(omp_target_memcpy_rect(d, s, sizeof(double), 2, vol, doff, soff, ddim, sdim,
                                         host, host),
                  0);
    for (int i = 0; i < 5; ++i)
      for (int j = 0; j < 7; ++j) {
        int in = i >= 2 && i < 5 && j >= 1 && j < 5;
        double want = in ? 100 * (i - 2 + 1) + (j - 1 + 2) : -1;
        CHECK(d[i][j] == want);
      }
    CHECK(omp_target_memcpy_rect(d, s, sizeof(double), 2, vol, doff, soff, ddim, sdim, bad,
                                 host) != 0);
  }

  /* 3-D: a 2x3x2 block. */
  {
    int s[4][5][6], d[3][4][5];
    for (int i = 0; i < 4; ++i)
      for (int j = 0; j < 5; ++j)
        for (int k = 0; k < 6; ++k) s[i][j][k] = 10000 * i + 100 * j + k;
    for (int i = 0; i < 3; ++i)
      for (int j = 0; j < 4; ++j)
        for (int k = 0; k < 5; ++k) d[i][j][k] = -1;
    size_t vol[3] = {2, 3, 2}, doff[3] = {1, 0, 3}, soff[3] = {2, 1, 4};
    size_t ddim[3] = {3, 4, 5}, sdim[3] = {4, 5, 6};
    CHECK_EQ_LONG(
        omp_target_memcpy_rect(d, s, sizeof(int), 3, vol, doff, soff, ddim, sdim, host, host), 0);
    int copied = 0;
    for (int i = 0; i < 3; ++i)
      for (int j = 0; j < 4; ++j)
        for (int k = 0; k < 5; ++k) {
          int in = i >= 1 && i < 3 && j < 3 && k >= 3 && k < 5;
          int want = in ? 10000 * (i - 1 + 2) + 100 * (j + 1) + (k - 3 + 4) : -1;
          CHECK_EQ_LONG(d[i][j][k], want);
          copied += in;
        }
    CHECK_EQ_LONG(copied, 12);
  }
  /* Malformed requests are errors, not crashes. */
  {
    size_t one[1] = {1};
    int a = 1, b = 2;
    CHECK(omp_target_memcpy_rect(&a, &b, sizeof(int), 0, one, one, one, one, one, host, host) !=
          0);
    CHECK(omp_target_memcpy_rect(&a, &b, sizeof(int), 1, NULL, one, one, one, one, host, host) !=
          0);
    size_t huge[2] = {SIZE_MAX / 2, 2}, z[2] = {0, 0};
    CHECK(omp_target_memcpy_rect(&a, &b, sizeof(int), 2, huge, z, z, huge, huge, host, host) != 0);
  }

  /* No other device to associate host memory with. */
  int h = 0;
  CHECK(omp_target_associate_ptr(&h, &h, sizeof h, 0, host) != 0);
  CHECK(omp_target_associate_ptr(&h, &h, sizeof h, 0, bad) != 0);
  CHECK(omp_target_disassociate_ptr(&h, host) != 0);

  /* Routines used inside a target region work on host memory as well. */
  int ok = 0;
#pragma omp target map(from : ok)
  {
    int* q = omp_target_alloc(4 * sizeof(int), omp_get_initial_device());
    int v[4] = {1, 2, 3, 4};
    ok = q && omp_target_memcpy(q, v, sizeof v, 0, 0, omp_get_initial_device(),
                                omp_get_initial_device()) == 0 &&
         q[3] == 4;
    omp_target_free(q, omp_get_initial_device());
  }
  CHECK(ok);
  KITE_TEST_END();
}
