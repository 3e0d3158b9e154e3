// kite-test-threads: 1 2 4 8
/* Dependence kinds gcc 12 cannot spell yet but the libgomp ABI carries,
 * driven through GOMP_task directly: inoutset (omp_depend_t kind 5) and
 * omp_all_memory (a null address among the out items). inoutset tasks
 * follow the preceding out and precede the following in; an
 * omp_all_memory task follows every earlier sibling with dependences and
 * precedes every later one. */
#include "kite_test.h"

#include <stdbool.h>
#include <stdint.h>

void GOMP_task(void (*fn)(void*), void* data, void (*cpyfn)(void*, void*), long arg_size,
               long arg_align, bool if_clause, unsigned flags, void** depend, int priority,
               void* detach);
#define FLAG_DEPEND (1u << 3)

static int x, a, b, stage_bad;
static int x_after_set;

struct arg {
  int id;
};

static void spin(void) {
  for (volatile int k = 0; k < 20000; ++k) {
  }
}
static void set_x(void* p) {
  (void)p;
  spin();
  __atomic_store_n(&x, 100, __ATOMIC_RELEASE);
}
static void add_x(void* p) {
  (void)p;
  if (__atomic_load_n(&x, __ATOMIC_ACQUIRE) < 100) __atomic_store_n(&stage_bad, 1, __ATOMIC_RELAXED);
  spin();
  __atomic_add_fetch(&x, 1, __ATOMIC_ACQ_REL);
}
static void read_x(void* p) {
  (void)p;
  x_after_set = __atomic_load_n(&x, __ATOMIC_ACQUIRE);
}
static void set_a(void* p) {
  (void)p;
  spin();
  __atomic_store_n(&a, 1, __ATOMIC_RELEASE);
}
static void set_b(void* p) {
  (void)p;
  spin();
  __atomic_store_n(&b, 1, __ATOMIC_RELEASE);
}
static void all_mem(void* p) {
  (void)p;
  if (__atomic_load_n(&a, __ATOMIC_ACQUIRE) != 1 || __atomic_load_n(&b, __ATOMIC_ACQUIRE) != 1)
    __atomic_store_n(&stage_bad, 2, __ATOMIC_RELAXED);
  spin();
  __atomic_store_n(&a, 2, __ATOMIC_RELEASE);
  __atomic_store_n(&b, 2, __ATOMIC_RELEASE);
}
static void after_all(void* p) {
  (void)p;
  if (__atomic_load_n(&a, __ATOMIC_ACQUIRE) != 2) __atomic_store_n(&stage_bad, 3, __ATOMIC_RELAXED);
}

/* One task with `n` plain items (the first `nout` out) in the short form. */
static void task_short(void (*fn)(void*), void** addrs, int n, int nout) {
  void* dep[2 + 8];
  dep[0] = (void*)(uintptr_t)n;
  dep[1] = (void*)(uintptr_t)nout;
  for (int i = 0; i < n; ++i) dep[2 + i] = addrs[i];
  struct arg g = {0};
  GOMP_task(fn, &g, NULL, sizeof g, __alignof__(g), true, FLAG_DEPEND, dep, 0, NULL);
}

/* One task whose single item is an omp_depend_t object {addr, kind}. */
static void task_depobj(void (*fn)(void*), void* addr, uintptr_t kind) {
  void* obj[2] = {addr, (void*)kind};
  void* dep[6] = {0, (void*)1, 0, 0, 0, obj};
  struct arg g = {0};
  GOMP_task(fn, &g, NULL, sizeof g, __alignof__(g), true, FLAG_DEPEND, dep, 0, NULL);
}

int main(void) {
  KITE_TEST_BEGIN();
  for (int rep = 0; rep < 20; ++rep) {
    x = a = b = 0;
    x_after_set = -1;
#pragma omp parallel
#pragma omp single
    {
      void* px = &x;
      task_short(set_x, &px, 1, 1);             /* out x */
      for (int i = 0; i < 6; ++i) task_depobj(add_x, &x, 5); /* inoutset x */
      task_short(read_x, &px, 1, 0);            /* in x */

      void* pa = &a;
      void* pb = &b;
      task_short(set_a, &pa, 1, 1);
      task_short(set_b, &pb, 1, 1);
      void* all = NULL;
      task_short(all_mem, &all, 1, 1);          /* out omp_all_memory */
      task_short(after_all, &pa, 1, 0);         /* in a */
    }
    CHECK_EQ_LONG(x_after_set, 106);
    CHECK_EQ_LONG(stage_bad, 0);
  }
  KITE_TEST_END();
}
