// Split barriers: __kmpc_barrier_master lets only the primary thread
// through, the others wait until it calls __kmpc_end_barrier_master; with
// __kmpc_barrier_master_nowait nobody waits for the primary's block.
#include <omp.h>

#include "kite_test.h"

typedef struct ident ident_t;
int __kmpc_barrier_master(ident_t*, int);
void __kmpc_end_barrier_master(ident_t*, int);
int __kmpc_barrier_master_nowait(ident_t*, int);
int __kmpc_global_thread_num(ident_t*);

#define ROUNDS 200

int main(void) {
  KITE_TEST_BEGIN();
  int bad = 0, masters = 0, nthreads = 0;
  long block = 0;
#pragma omp parallel reduction(+ : bad, masters)
  {
    int gtid = __kmpc_global_thread_num(NULL);
#pragma omp single
    nthreads = omp_get_num_threads();
    for (int r = 0; r < ROUNDS; ++r) {
      if (__kmpc_barrier_master(NULL, gtid)) {
        if (omp_get_thread_num() != 0) bad++;
        masters++;
        // Everyone has arrived, and nobody has left yet.
        __atomic_store_n(&block, r + 1, __ATOMIC_RELAXED);
        __kmpc_end_barrier_master(NULL, gtid);
      } else {
        // Released only after the primary's block.
        if (__atomic_load_n(&block, __ATOMIC_RELAXED) != r + 1) bad++;
      }
    }
    int m = __kmpc_barrier_master_nowait(NULL, gtid);
    if (m != (omp_get_thread_num() == 0)) bad++;
  }
  CHECK_EQ_LONG(bad, 0);
  CHECK_EQ_LONG(masters, ROUNDS);
  CHECK(nthreads >= 1);
  // Outside a parallel region the caller is the primary thread of its own
  // team of one.
  int gtid = __kmpc_global_thread_num(NULL);
  CHECK(__kmpc_barrier_master(NULL, gtid) == 1);
  __kmpc_end_barrier_master(NULL, gtid);
  CHECK(__kmpc_barrier_master_nowait(NULL, gtid) == 1);
  KITE_TEST_END();
}
