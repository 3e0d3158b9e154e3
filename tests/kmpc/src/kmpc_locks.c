// The __kmpc_* lock entry points (what libomp's omp_*_lock routines call,
// and what other front ends call directly) on the same locks as the omp_*
// routines: a lock taken through one is held for the other.
#include <omp.h>
#include <stdint.h>

#include "kite_test.h"

typedef struct ident ident_t;
void __kmpc_init_lock(ident_t*, int, void**);
void __kmpc_init_lock_with_hint(ident_t*, int, void**, uintptr_t);
void __kmpc_destroy_lock(ident_t*, int, void**);
void __kmpc_set_lock(ident_t*, int, void**);
void __kmpc_unset_lock(ident_t*, int, void**);
int __kmpc_test_lock(ident_t*, int, void**);
void __kmpc_init_nest_lock(ident_t*, int, void**);
void __kmpc_init_nest_lock_with_hint(ident_t*, int, void**, uintptr_t);
void __kmpc_destroy_nest_lock(ident_t*, int, void**);
void __kmpc_set_nest_lock(ident_t*, int, void**);
void __kmpc_unset_nest_lock(ident_t*, int, void**);
int __kmpc_test_nest_lock(ident_t*, int, void**);
int __kmpc_global_thread_num(ident_t*);

#define ROUNDS 2000

static omp_lock_t lock, hinted;
static omp_nest_lock_t nest;
static long counter;

int main(void) {
  KITE_TEST_BEGIN();
  int gtid = __kmpc_global_thread_num(NULL);
  __kmpc_init_lock(NULL, gtid, (void**)&lock);
  __kmpc_set_lock(NULL, gtid, (void**)&lock);
  CHECK(omp_test_lock(&lock) == 0);  // held, even by the caller
  omp_unset_lock(&lock);
  CHECK(__kmpc_test_lock(NULL, gtid, (void**)&lock) == 1);
  CHECK(__kmpc_test_lock(NULL, gtid, (void**)&lock) == 0);
  __kmpc_unset_lock(NULL, gtid, (void**)&lock);
  omp_set_lock(&lock);
  __kmpc_unset_lock(NULL, gtid, (void**)&lock);

  __kmpc_init_lock_with_hint(NULL, gtid, (void**)&hinted, omp_sync_hint_contended);
  CHECK(omp_test_lock(&hinted) == 1);
  __kmpc_unset_lock(NULL, gtid, (void**)&hinted);
  __kmpc_destroy_lock(NULL, gtid, (void**)&hinted);

  // Mutual exclusion: odd rounds go through one interface, even rounds
  // through the other, on every thread at once.
#pragma omp parallel
  {
    int me = __kmpc_global_thread_num(NULL);
    for (int r = 0; r < ROUNDS; ++r) {
      if (r & 1)
        __kmpc_set_lock(NULL, me, (void**)&lock);
      else
        omp_set_lock(&lock);
      long v = counter;
      counter = v + 1;
      if ((r >> 1) & 1)
        __kmpc_unset_lock(NULL, me, (void**)&lock);
      else
        omp_unset_lock(&lock);
    }
  }
  int nthreads = 0;
#pragma omp parallel
#pragma omp single
  nthreads = omp_get_num_threads();
  CHECK_EQ_LONG(counter, (long)nthreads * ROUNDS);
  __kmpc_destroy_lock(NULL, gtid, (void**)&lock);

  // Nest locks: depth counts across both interfaces; another thread's
  // test fails while the lock is held.
  __kmpc_init_nest_lock(NULL, gtid, (void**)&nest);
  __kmpc_set_nest_lock(NULL, gtid, (void**)&nest);
  CHECK(omp_test_nest_lock(&nest) == 2);
  CHECK(__kmpc_test_nest_lock(NULL, gtid, (void**)&nest) == 3);
  int other = -1;
#pragma omp parallel num_threads(2)
  if (omp_get_thread_num() == 1) other = __kmpc_test_nest_lock(NULL, 0, (void**)&nest);
  if (other != -1) CHECK(other == 0);
  __kmpc_unset_nest_lock(NULL, gtid, (void**)&nest);
  omp_unset_nest_lock(&nest);
  __kmpc_unset_nest_lock(NULL, gtid, (void**)&nest);
  CHECK(omp_test_nest_lock(&nest) == 1);  // free again
  omp_unset_nest_lock(&nest);
  __kmpc_destroy_nest_lock(NULL, gtid, (void**)&nest);
  __kmpc_init_nest_lock_with_hint(NULL, gtid, (void**)&nest, omp_sync_hint_uncontended);
  CHECK(__kmpc_test_nest_lock(NULL, gtid, (void**)&nest) == 1);
  __kmpc_unset_nest_lock(NULL, gtid, (void**)&nest);
  omp_destroy_nest_lock(&nest);
  KITE_TEST_END();
}
