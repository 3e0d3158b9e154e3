// libomp's library modes, warnings switch and queries on Kite: serial
// gives later regions one thread; turnaround never lets waiting threads
// sleep (blocktime infinite); throughput spins, then sleeps.
// kite-test-env: OMP_CANCELLATION=true
#include <limits.h>
#include <omp.h>

#include "kite_test.h"

extern void kmp_set_library_(int*);
extern int kmp_get_library_(void);
extern int kmp_get_cancellation_status_(int*);
extern void kmpc_set_library(int);
// Not in every omp.h: libomp's own declarations.
extern int kmp_get_cancellation_status(int);
extern int kmp_get_num_known_threads(void);
enum { kCancelParallel = 1, kCancelTaskgroup = 4 };

int main(void) {
  KITE_TEST_BEGIN();
  // Kite's default wait policy is libomp's throughput mode.
  CHECK_EQ_LONG(kmp_get_library(), 3);
  kmp_set_library_turnaround();
  CHECK_EQ_LONG(kmp_get_library(), 2);
  CHECK_EQ_LONG(kmp_get_blocktime(), INT_MAX);
  kmp_set_library_throughput();
  CHECK_EQ_LONG(kmp_get_library(), 3);
  CHECK(kmp_get_blocktime() < INT_MAX);
  kmp_set_library(2);
  CHECK_EQ_LONG(kmp_get_library(), 2);
  int three = 3;
  kmp_set_library_(&three);
  CHECK_EQ_LONG(kmp_get_library_(), 3);
  kmpc_set_library(2);
  CHECK_EQ_LONG(kmp_get_library(), 2);
  // An unknown mode changes nothing (with warnings off: silently).
  kmp_set_warnings_off();
  kmp_set_library(9);
  CHECK_EQ_LONG(kmp_get_library(), 2);
  kmp_set_warnings_on();
  kmp_set_library(3);

  int team = 0;
#pragma omp parallel num_threads(2)
#pragma omp single
  team = omp_get_num_threads();
  CHECK(team == 2);
  CHECK(kmp_get_num_known_threads() >= 2);

  kmp_set_library_serial();
  CHECK_EQ_LONG(kmp_get_library(), 1);
  CHECK_EQ_LONG(omp_get_max_threads(), 1);
#pragma omp parallel
#pragma omp single
  team = omp_get_num_threads();
  CHECK(team == 1);

  kmp_set_disp_num_buffers(8);
  kmp_set_defaults("KMP_AFFINITY=none");

  // Cancellation status, as the construct the caller is in sees it.
  CHECK(kmp_get_cancellation_status(kCancelParallel) == 0);
  CHECK(kmp_get_cancellation_status(kCancelTaskgroup) == 0);
  CHECK(kmp_get_cancellation_status(42) == 0);
  int in_group = -1, after = -1;
#pragma omp parallel num_threads(2)
#pragma omp single
  {
#pragma omp taskgroup
    {
#pragma omp task
      {
#pragma omp cancel taskgroup
      }
#pragma omp taskwait
      int k = kCancelTaskgroup;
      in_group = kmp_get_cancellation_status(kCancelTaskgroup) + 10 * kmp_get_cancellation_status_(&k);
    }
    after = kmp_get_cancellation_status(kCancelTaskgroup);
  }
  CHECK(in_group == 11);
  CHECK(after == 0);
  KITE_TEST_END();
}
