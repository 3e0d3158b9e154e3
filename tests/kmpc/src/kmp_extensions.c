// libomp's kmp_* extensions that Kite maps onto its settings: stack size
// of worker threads, blocktime (the spin budget), memory routines.
#include <omp.h>
#include <pthread.h>
#include <stdint.h>

#include "kite_test.h"

int main(void) {
  KITE_TEST_BEGIN();
  // Before the first region, so that the workers are created with it.
  kmp_set_stacksize_s((size_t)24 << 20);
  CHECK(kmp_get_stacksize_s() == ((size_t)24 << 20));
  CHECK_EQ_LONG(kmp_get_stacksize(), 24 << 20);
  int small = 0;
#pragma omp parallel
  {
    if (omp_get_thread_num() != 0) {
      pthread_attr_t attr;
      size_t size = 0;
      if (pthread_getattr_np(pthread_self(), &attr) == 0) {
        pthread_attr_getstacksize(&attr, &size);
        pthread_attr_destroy(&attr);
      }
      if (size < ((size_t)24 << 20)) {
#pragma omp atomic
        small++;
      }
    }
  }
  CHECK_EQ_LONG(small, 0);

  kmp_set_blocktime(0);
  CHECK_EQ_LONG(kmp_get_blocktime(), 0);
  kmp_set_blocktime(7);
  CHECK_EQ_LONG(kmp_get_blocktime(), 7);
  int n = 0;
#pragma omp parallel reduction(+ : n)
  n++;
  CHECK_EQ_LONG(n, omp_get_max_threads());

  char* p = kmp_malloc(100);
  CHECK(p != NULL);
  p = kmp_realloc(p, 1000);
  CHECK(p != NULL);
  kmp_free(p);
  int* z = kmp_calloc(10, sizeof(int));
  CHECK(z != NULL && z[9] == 0);
  kmp_free(z);
  void* a = kmp_aligned_malloc(64, 256);
  CHECK(a != NULL && ((uintptr_t)a & 255) == 0);
  kmp_free(a);
  KITE_TEST_END();
}
