// The other threadprivate entry points: __kmpc_threadprivate (no cache
// word from the compiler) and __kmpc_threadprivate_register_vec (an array
// variable whose constructor and destructor take the element count; the
// destructor runs when a thread's copy goes away).
#include <omp.h>
#include <pthread.h>
#include <stddef.h>

#include "kite_test.h"

typedef struct ident ident_t;
void* __kmpc_threadprivate(ident_t*, int, void*, size_t);
void* __kmpc_threadprivate_cached(ident_t*, int, void*, size_t, void***);
void __kmpc_threadprivate_register_vec(ident_t*, void*, void* (*)(void*, size_t),
                                       void* (*)(void*, void*, size_t),
                                       void (*)(void*, size_t), size_t);
int __kmpc_global_thread_num(ident_t*);

static int plain = 5;
static double arr[4];
static void** arr_cache;
static int vec_ctor_calls, vec_dtor_calls, bad_counts;

static void* arr_ctor(void* p, size_t n) {
  if (n != 4) __atomic_add_fetch(&bad_counts, 1, __ATOMIC_RELAXED);
  for (size_t i = 0; i < n; ++i) ((double*)p)[i] = 1.5 + (double)i;
  __atomic_add_fetch(&vec_ctor_calls, 1, __ATOMIC_RELAXED);
  return p;
}
static void arr_dtor(void* p, size_t n) {
  (void)p;
  if (n != 4) __atomic_add_fetch(&bad_counts, 1, __ATOMIC_RELAXED);
  __atomic_add_fetch(&vec_dtor_calls, 1, __ATOMIC_RELAXED);
}

static double* my_arr(void) {
  return (double*)__kmpc_threadprivate_cached(NULL, __kmpc_global_thread_num(NULL), arr,
                                              sizeof arr, &arr_cache);
}

static void* user_thread(void* out) {
  double* a = my_arr();
  *(double*)out = a[3];
  return NULL;
}

int main(void) {
  KITE_TEST_BEGIN();
  __kmpc_threadprivate_register_vec(NULL, arr, arr_ctor, NULL, arr_dtor, 4);
  int* seen[64] = {0};
  int bad = 0;
#pragma omp parallel reduction(+ : bad)
  {
    int t = omp_get_thread_num();
    int* p = (int*)__kmpc_threadprivate(NULL, __kmpc_global_thread_num(NULL), &plain,
                                        sizeof plain);
    if (t < 64) seen[t] = p;
    if (t == 0 && omp_get_level() == 1 && __kmpc_global_thread_num(NULL) == 0 && p != &plain)
      bad++;
    if (*p != 5) bad++;
    double* a = my_arr();
    if (__kmpc_global_thread_num(NULL) != 0 && (a == arr || a[0] != 1.5 || a[3] != 4.5)) bad++;
  }
  CHECK_EQ_LONG(bad, 0);
  CHECK_EQ_LONG(bad_counts, 0);
  int n = omp_get_max_threads() < 64 ? omp_get_max_threads() : 64;
  for (int i = 0; i < n; ++i)
    for (int j = i + 1; j < n; ++j)
      if (seen[i] && seen[j]) CHECK(seen[i] != seen[j]);
  // The same copy again for the same thread.
#pragma omp parallel reduction(+ : bad)
  {
    int t = omp_get_thread_num();
    int* p = (int*)__kmpc_threadprivate(NULL, __kmpc_global_thread_num(NULL), &plain,
                                        sizeof plain);
    if (t < 64 && seen[t] && p != seen[t]) bad++;
  }
  CHECK_EQ_LONG(bad, 0);

  // A user thread's array copy: constructed once, destroyed at its end.
  int dtors = vec_dtor_calls, ctors = vec_ctor_calls;
  double last = 0;
  pthread_t th;
  CHECK(pthread_create(&th, NULL, user_thread, &last) == 0);
  pthread_join(th, NULL);
  CHECK(last == 4.5);
  CHECK_EQ_LONG(vec_ctor_calls, ctors + 1);
  CHECK_EQ_LONG(vec_dtor_calls, dtors + 1);
  KITE_TEST_END();
}
