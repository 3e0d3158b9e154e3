// kite-test-compilers: gcc  -- gcc's offloading ABI on Kite's emulated devices
/* Pointer detachment by `target exit data` and zero-length sections of
 * data that is present, on an emulated device (KITE_DEVICES=1), observed
 * through the device's own memory (omp_get_mapped_ptr + omp_target_memcpy):
 *   - entering a structure and the section its pointer member points to
 *     attaches the device copy of the pointer to the device copy of the
 *     section; exiting the section alone detaches it: the device copy of
 *     the pointer holds the host pointer again (5.2 §5.8.3: "the
 *     corresponding pointer ... is restored to its original value"), and
 *     the structure stays mapped;
 *   - a zero-length section p[0:0] of present data gives the region the
 *     device address of the data; of absent data, the pointer's own value.
 * kite-test-threads: 1 2
 * kite-test-env: KITE_DEVICES=1
 */
#include "kite_test.h"

#include <stdint.h>

/* OpenMP 5.1; gcc 12's omp.h does not declare it (Kite exports it). */
extern void* omp_get_mapped_ptr(const void*, int);

#define N 8

struct holder {
  int tag;
  int* p;
};

static int data[N];
static int other[N];
static struct holder s = {7, data};

/* The device copy of s, read back from the device's memory. */
static struct holder device_copy_of_s(void) {
  struct holder out;
  memset(&out, 0, sizeof out);
  void* dev = omp_get_mapped_ptr(&s, 0);
  CHECK(dev != NULL);
  if (dev)
    CHECK_EQ_LONG(omp_target_memcpy(&out, dev, sizeof out, 0, 0, omp_get_initial_device(), 0), 0);
  return out;
}

int main(void) {
  KITE_TEST_BEGIN();
  CHECK_EQ_LONG(omp_get_num_devices(), 1);
  for (int i = 0; i < N; ++i) data[i] = i;

  /* Attach on entry. */
#pragma omp target enter data map(to : s) map(to : s.p[0:N])
  CHECK(omp_target_is_present(&s, 0));
  CHECK(omp_target_is_present(data, 0));
  void* dev_data = omp_get_mapped_ptr(data, 0);
  CHECK(dev_data != NULL && dev_data != (void*)data);
  struct holder d = device_copy_of_s();
  CHECK_EQ_LONG(d.tag, 7);
  CHECK(d.p == (int*)dev_data);

  /* The region reads the section through the attached pointer. */
  int sum = -1;
#pragma omp target map(from : sum)
  {
    int t = 0;
    for (int i = 0; i < N; ++i) t += s.p[i];
    sum = t;
  }
  CHECK_EQ_LONG(sum, N * (N - 1) / 2);

  /* Detach on exit of the section: s stays, its device pointer is the host
   * pointer again, the section is gone. */
#pragma omp target exit data map(from : s.p[0:N])
  CHECK(!omp_target_is_present(data, 0));
  CHECK(omp_target_is_present(&s, 0));
  d = device_copy_of_s();
  CHECK_EQ_LONG(d.tag, 7);
  CHECK(d.p == data);
#pragma omp target exit data map(release : s)
  CHECK(!omp_target_is_present(&s, 0));

  /* Zero-length sections: of present data, the device address; of absent
   * data, the pointer's own value. */
  int* p = data;
  int* q = other;
  uintptr_t seen_p = 0, seen_q = 0;
#pragma omp target enter data map(to : data)
  void* dev_now = omp_get_mapped_ptr(data, 0);
  CHECK(dev_now != NULL);
#pragma omp target map(p[0:0], q[0:0]) map(from : seen_p, seen_q)
  {
    seen_p = (uintptr_t)p;
    seen_q = (uintptr_t)q;
  }
  CHECK(seen_p == (uintptr_t)dev_now);
  CHECK(seen_q == (uintptr_t)other);
  CHECK(!omp_target_is_present(other, 0));
#pragma omp target exit data map(delete : data)
  CHECK(!omp_target_is_present(data, 0));
  KITE_TEST_END();
}
