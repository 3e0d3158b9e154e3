// kite-test-compilers: gcc  -- gcc's offloading ABI on Kite's emulated devices (clang without offload targets maps nothing)
/* target exit data inside an enclosing target data region. OpenMP keeps
 * one reference count per mapped item (OpenMP 5.2 §5.8.3), shared by the
 * structured constructs (target, target data) and enter / exit data:
 * `delete` sets it to zero and removes the data at once, `release` and
 * `from` take one away, and when that leaves zero the data goes too (with
 * `from`, after its copy back). The enclosing region's end then finds the
 * data absent and does nothing for it. A region that maps the data again
 * meanwhile gets a fresh device copy, never the stale one. (The inner
 * target regions map their scalars tofrom: a scalar a region uses without
 * a map clause is firstprivate.)
 * kite-test-threads: 1 2
 * kite-test-env: KITE_DEVICES=2
 */
#include "kite_test.h"

#include <stdint.h>

struct holder {
  int tag;
  int* p;
};

int main(void) {
  KITE_TEST_BEGIN();
  CHECK_EQ_LONG(omp_get_num_devices(), 2);

  /* delete inside target data(tofrom): gone at once, nothing copied back,
   * neither by the delete nor by the region's end. */
  int a = 1, seen = -1;
#pragma omp target data map(tofrom : a)
  {
#pragma omp target map(tofrom : a)
    a = 2; /* the device copy only: the count stays 1 */
    CHECK_EQ_LONG(a, 1);
#pragma omp target exit data map(delete : a)
    CHECK(!omp_target_is_present(&a, 0));
    CHECK_EQ_LONG(a, 1);
    a = 5;
    /* A fresh mapping copies the host's 5, not the stale device 2. */
#pragma omp target map(to : a) map(from : seen)
    seen = a;
    CHECK_EQ_LONG(seen, 5);
    CHECK(!omp_target_is_present(&a, 0));
    a = 6;
  }
  CHECK_EQ_LONG(a, 6); /* the region's end copied nothing over it */
  CHECK(!omp_target_is_present(&a, 0));

  /* The same when the data is mapped on another device too: only the
   * named device forgets it. */
  int m = 1;
#pragma omp target data map(tofrom : m) device(1)
#pragma omp target data map(tofrom : m)
  {
#pragma omp target exit data map(delete : m)
    CHECK(!omp_target_is_present(&m, 0));
    CHECK(omp_target_is_present(&m, 1));
#pragma omp target device(1) map(tofrom : m)
    m = 7;
    CHECK_EQ_LONG(m, 1);
  }
  CHECK_EQ_LONG(m, 7);
  CHECK(!omp_target_is_present(&m, 1));

  /* release: the count (1, the region's) drops to zero: unmapped without
   * a copy. */
  int b = 1;
#pragma omp target data map(tofrom : b)
  {
#pragma omp target map(tofrom : b)
    b = 7;
#pragma omp target exit data map(release : b)
    CHECK(!omp_target_is_present(&b, 0));
    CHECK_EQ_LONG(b, 1);
  }
  CHECK_EQ_LONG(b, 1);

  /* from: zero after it, so it copies back, and the region's to-only end
   * has nothing left to do. */
  int c = 1;
#pragma omp target data map(to : c)
  {
#pragma omp target map(tofrom : c)
    c = 8;
#pragma omp target exit data map(from : c)
    CHECK_EQ_LONG(c, 8);
    CHECK(!omp_target_is_present(&c, 0));
    c = 9;
  }
  CHECK_EQ_LONG(c, 9);

  /* enter data inside the region adds to the same count: one release
   * leaves the region's reference, whose end copies back. */
  int d = 1;
#pragma omp target data map(tofrom : d)
  {
#pragma omp target enter data map(to : d)
#pragma omp target map(tofrom : d)
    d = 4;
#pragma omp target exit data map(release : d)
    CHECK(omp_target_is_present(&d, 0));
    CHECK_EQ_LONG(d, 1);
  }
  CHECK_EQ_LONG(d, 4);
  CHECK(!omp_target_is_present(&d, 0));

  /* Deleted, then mapped again by enter data inside the region: the
   * region's end ends that mapping (the one present then), copying back. */
  int e = 1;
#pragma omp target data map(tofrom : e)
  {
#pragma omp target exit data map(delete : e)
    e = 3;
#pragma omp target enter data map(to : e)
#pragma omp target map(tofrom : e)
    e += 10;
    CHECK_EQ_LONG(e, 3);
  }
  CHECK_EQ_LONG(e, 13);
  CHECK(!omp_target_is_present(&e, 0));

  /* A structure whose pointer the region attached, deleted inside it: the
   * region's end has no device pointer to restore, and the host's pointer
   * is untouched. */
  int arr[4] = {1, 2, 3, 4};
  struct holder h = {7, arr};
#pragma omp target data map(tofrom : h) map(tofrom : h.p[0:4])
  {
#pragma omp target
    h.p[1] = 20;
#pragma omp target exit data map(delete : h)
    CHECK(!omp_target_is_present(&h, 0));
    CHECK(omp_target_is_present(arr, 0));
  }
  CHECK(h.p == arr);
  CHECK_EQ_LONG(h.tag, 7);
  CHECK_EQ_LONG(arr[1], 20); /* the array's own mapping still copied back */
  CHECK(!omp_target_is_present(arr, 0));

  /* Nested target data regions: a delete between them ends the data for
   * both; neither end copies. */
  int f = 1;
#pragma omp target data map(tofrom : f)
  {
#pragma omp target data map(tofrom : f)
    {
#pragma omp target map(tofrom : f)
      f = 2;
#pragma omp target exit data map(delete : f)
      CHECK(!omp_target_is_present(&f, 0));
    }
    CHECK(!omp_target_is_present(&f, 0));
  }
  CHECK_EQ_LONG(f, 1);
  KITE_TEST_END();
}
