// kite-test-compilers: gcc  -- gcc's offloading ABI (GOMP_target_ext & co.) on Kite's emulated device
/* Map semantics that only separate device memory makes observable
 * (OpenMP 5.2 §5.8.3, §13): with KITE_DEVICES=2 a target region works on
 * device copies, so a program that forgets map(from:) sees stale host
 * data, reference counts decide when data moves, `always` forces the
 * move, pointers and structure members are attached and detached, and
 * firstprivate / use_device_ptr / is_device_ptr behave as on a GPU.
 * kite-test-threads: 1 4
 * kite-test-env: KITE_DEVICES=2
 */
#include "kite_test.h"

#include <stdint.h>

/* OpenMP 5.1; gcc 12's omp.h does not declare it. */
extern void* omp_get_mapped_ptr(const void*, int);

struct node {
  int n;
  int* data;
  int tail[4];
};

static int global_arr[16];

/* A pointer the region uses without mapping it (gcc: a zero-length
 * section of its value) keeps its host value when it points at no mapped
 * data: calls through a function pointer work on the device. */
static int twice(int v) { return 2 * v; }
static int (*fn_ptr)(int) = twice;

int main(void) {
  KITE_TEST_BEGIN();
  CHECK_EQ_LONG(omp_get_num_devices(), 2);
  CHECK_EQ_LONG(omp_get_initial_device(), 2);
  CHECK_EQ_LONG(omp_get_default_device(), 0);

  /* Where the region runs: device 0, not the initial device. */
  int on_host = -1, devnum = -1;
#pragma omp target map(from : on_host, devnum)
  {
    on_host = omp_is_initial_device();
    devnum = omp_get_device_num();
  }
  CHECK_EQ_LONG(on_host, 0);
  CHECK_EQ_LONG(devnum, 0);
#pragma omp target device(1) map(from : devnum)
  devnum = omp_get_device_num();
  CHECK_EQ_LONG(devnum, 1);
  CHECK_EQ_LONG(omp_is_initial_device(), 1);

  /* map(to:) only: the region's write stays on the device. */
  int x = 1;
#pragma omp target map(to : x)
  { x = 5; }
  CHECK_EQ_LONG(x, 1);
  /* map(from:): the device's value comes back. */
  int y = 1, seen = -1;
#pragma omp target map(from : y)
  { y = 9; }
  CHECK_EQ_LONG(y, 9);
  /* map(alloc:) on a fresh mapping: the host value does not go over. */
  int z = 77;
#pragma omp target map(alloc : z) map(from : seen)
  { z = 3; seen = 0; }
  CHECK_EQ_LONG(z, 77);

  /* Reference counts across nested data regions: the inner tofrom moves
   * nothing, the outer end does. */
  int a = 1;
#pragma omp target data map(tofrom : a)
  {
    a = 2; /* host only */
#pragma omp target map(tofrom : a)
    { a += 10; } /* device: 1 + 10 */
    CHECK_EQ_LONG(a, 2);
    CHECK(omp_target_is_present(&a, 0));
    CHECK(!omp_target_is_present(&a, 1));
    /* always: the host value goes over even though a is present. */
    a = 100;
#pragma omp target map(always, to : a) map(from : seen)
    { seen = a; }
    CHECK_EQ_LONG(seen, 100);
#pragma omp target update from(a)
    CHECK_EQ_LONG(a, 100);
    a = 50;
#pragma omp target update to(a)
#pragma omp target map(tofrom : a)
    { a += 1; }
    CHECK_EQ_LONG(a, 50);
  }
  CHECK_EQ_LONG(a, 51);
  CHECK(!omp_target_is_present(&a, 0));

  /* Unstructured: two enters need two exits before from copies. */
  int b[8];
  for (int i = 0; i < 8; ++i) b[i] = i;
#pragma omp target enter data map(to : b)
#pragma omp target enter data map(to : b)
#pragma omp target
  for (int i = 0; i < 8; ++i) b[i] *= 10;
#pragma omp target exit data map(from : b)
  CHECK_EQ_LONG(b[3], 3);
  CHECK(omp_target_is_present(b, 0));
#pragma omp target exit data map(from : b)
  CHECK_EQ_LONG(b[3], 30);
  CHECK(!omp_target_is_present(b, 0));
  /* delete drops every reference, and copies nothing back. */
#pragma omp target enter data map(to : b)
#pragma omp target enter data map(to : b)
#pragma omp target
  b[0] = -1;
#pragma omp target exit data map(delete : b)
  CHECK(!omp_target_is_present(b, 0));
  CHECK_EQ_LONG(b[0], 0);
  /* release without copy. */
#pragma omp target enter data map(to : b[2:3])
  CHECK(omp_target_is_present(&b[3], 0));
  CHECK(!omp_target_is_present(&b[6], 0));
#pragma omp target exit data map(release : b[2:3])
  CHECK(!omp_target_is_present(&b[3], 0));

  /* Pointer attachment: s.data points at device memory inside the
   * region, and at the host array again after it. */
  int arr[6] = {1, 2, 3, 4, 5, 6};
  struct node s = {6, arr, {0, 0, 0, 0}};
  int dev_differs = 0;
  uintptr_t host_arr = (uintptr_t)arr;
#pragma omp target map(tofrom : s) map(tofrom : s.data[0:6]) map(from : dev_differs) firstprivate(host_arr)
  {
    dev_differs = (uintptr_t)s.data != host_arr;
    for (int i = 0; i < s.n; ++i) s.data[i] *= 2;
    s.tail[0] = 42;
  }
  CHECK(dev_differs);
  CHECK(s.data == arr);
  CHECK_EQ_LONG(arr[5], 12);
  CHECK_EQ_LONG(s.tail[0], 42);

  /* Structure members: only the members named move. */
  struct node m = {5, NULL, {1, 2, 3, 4}};
#pragma omp target map(to : m.n) map(from : m.tail[1:2])
  {
    m.tail[1] = m.n * 2;
    m.tail[2] = m.n * 3;
    m.n = 0;
  }
  CHECK_EQ_LONG(m.n, 5);
  CHECK_EQ_LONG(m.tail[0], 1);
  CHECK_EQ_LONG(m.tail[1], 10);
  CHECK_EQ_LONG(m.tail[2], 15);
  CHECK_EQ_LONG(m.tail[3], 4);

  /* firstprivate: the region's copy, never written back. */
  int fp = 4, fp_seen = 0;
#pragma omp target firstprivate(fp) map(from : fp_seen)
  {
    fp += 1;
    fp_seen = fp;
  }
  CHECK_EQ_LONG(fp, 4);
  CHECK_EQ_LONG(fp_seen, 5);

  /* use_device_ptr / use_device_addr: the device addresses. */
  int* p = arr;
  void* mapped = NULL;
#pragma omp target data map(to : p[0:6]) use_device_ptr(p)
  {
    mapped = p;
  }
  CHECK(mapped != NULL && mapped != (void*)arr);
  CHECK(!omp_target_is_present(arr, 0));
  int* dev_of_b = NULL;
#pragma omp target data map(to : b) use_device_addr(b)
  {
    dev_of_b = b;
    CHECK(omp_get_mapped_ptr(b, 0) == NULL); /* b here is the device address */
  }
  CHECK(dev_of_b != NULL && dev_of_b != b);

  /* is_device_ptr: memory of omp_target_alloc, used as is. */
  int* d = (int*)omp_target_alloc(4 * sizeof(int), 0);
  CHECK(d != NULL);
#pragma omp target is_device_ptr(d)
  for (int i = 0; i < 4; ++i) d[i] = i * i;
  int back[4] = {0};
  CHECK_EQ_LONG(omp_target_memcpy(back, d, sizeof back, 0, 0, omp_get_initial_device(), 0), 0);
  CHECK_EQ_LONG(back[3], 9);
  omp_target_free(d, 0);

  /* Zero-length sections: nothing is mapped. */
#pragma omp target enter data map(to : arr[0:0])
  CHECK(!omp_target_is_present(arr, 0));

  /* A global variable without declare target is mapped like any other. */
  global_arr[1] = 1;
#pragma omp target map(to : global_arr)
  global_arr[1] = 2;
  CHECK_EQ_LONG(global_arr[1], 1);

  /* One reference count per item, whichever construct mapped it: delete
   * sets it to zero even inside a target data region that maps the data,
   * so the data is gone at once; a region mapping it next gets a fresh
   * copy, and the enclosing region's end finds nothing to copy back
   * (tests/device/emu_exit_data_nested.c has more). */
  int r = 1;
#pragma omp target data map(tofrom : r)
  {
#pragma omp target enter data map(to : r)
#pragma omp target exit data map(delete : r)
    CHECK(!omp_target_is_present(&r, 0));
#pragma omp target map(tofrom : r)
    r = 9;
    CHECK_EQ_LONG(r, 9);
    r = 10;
  }
  CHECK_EQ_LONG(r, 10);
  CHECK(!omp_target_is_present(&r, 0));

  /* An implicitly mapped array that is partly present uses the mapping
   * that exists; nothing outside it is copied. */
  int part[16] = {0};
#pragma omp target enter data map(to : part[4:4])
#pragma omp target
  part[5] = 55;
  CHECK_EQ_LONG(part[5], 0);
#pragma omp target exit data map(from : part[4:4])
  CHECK_EQ_LONG(part[5], 55);
  CHECK(!omp_target_is_present(part, 0));

  int via = 0;
#pragma omp target map(from : via)
  via = fn_ptr(21);
  CHECK_EQ_LONG(via, 42);

  /* Nothing left mapped. */
  CHECK(!omp_target_is_present(&x, 0) && !omp_target_is_present(&s, 0));
  KITE_TEST_END();
}
