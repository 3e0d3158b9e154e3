/* kite-test-threads: 1 2 4 8
 * Worksharing constructs back to back without barriers, far more than the
 * 8 slots of the worksharing ring: loops of every kind, singles and
 * sections interleaved, with threads delayed unevenly so that some run
 * many constructs ahead. */
#include "kite_test.h"

#define NCONS 40
#define NITER 64

static int loop_hits[NCONS][NITER];
static int single_hits[NCONS];
static int section_hits[NCONS][3];

static void delay(int tid, int c) {
  volatile int x = 0;
  if ((tid + c) % 3 == 0)
    for (int k = 0; k < 20000; ++k) x += k;
}

int main(void) {
  KITE_TEST_BEGIN();
  for (int rep = 0; rep < 20; ++rep) {
    memset(loop_hits, 0, sizeof loop_hits);
    memset(single_hits, 0, sizeof single_hits);
    memset(section_hits, 0, sizeof section_hits);
#pragma omp parallel
    {
      int tid = omp_get_thread_num();
      for (int c = 0; c < NCONS; ++c) {
        delay(tid, c);
        switch (c % 5) {
          case 0:
#pragma omp for schedule(dynamic, 3) nowait
            for (int i = 0; i < NITER; ++i) __atomic_fetch_add(&loop_hits[c][i], 1, __ATOMIC_RELAXED);
            break;
          case 1:
#pragma omp single nowait
            __atomic_fetch_add(&single_hits[c], 1, __ATOMIC_RELAXED);
            break;
          case 2:
#pragma omp for schedule(guided) nowait
            for (int i = 0; i < NITER; ++i) __atomic_fetch_add(&loop_hits[c][i], 1, __ATOMIC_RELAXED);
            break;
          case 3:
#pragma omp sections nowait
            {
#pragma omp section
              __atomic_fetch_add(&section_hits[c][0], 1, __ATOMIC_RELAXED);
#pragma omp section
              __atomic_fetch_add(&section_hits[c][1], 1, __ATOMIC_RELAXED);
#pragma omp section
              __atomic_fetch_add(&section_hits[c][2], 1, __ATOMIC_RELAXED);
            }
            break;
          default:
#pragma omp for schedule(runtime) nowait
            for (int i = 0; i < NITER; ++i) __atomic_fetch_add(&loop_hits[c][i], 1, __ATOMIC_RELAXED);
            break;
        }
      }
    }
    for (int c = 0; c < NCONS; ++c) {
      switch (c % 5) {
        case 1:
          CHECK_EQ_LONG(single_hits[c], 1);
          break;
        case 3:
          for (int s = 0; s < 3; ++s) CHECK_EQ_LONG(section_hits[c][s], 1);
          break;
        default:
          for (int i = 0; i < NITER; ++i) CHECK_EQ_LONG(loop_hits[c][i], 1);
      }
    }
  }
  KITE_TEST_END();
}
