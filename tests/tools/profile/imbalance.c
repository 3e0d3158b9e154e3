/* kite profile known answer: an imbalanced region. At 2 threads, thread 0
 * works three times as long as thread 1 in each of REPS regions, so
 * thread 1 waits at the region's closing barrier for 2/3 of each region.
 * Expected: barrier blame about 1/3 of the thread time, on the line of the
 * long work (@long); the region's imbalance the same. */
#include <omp.h>
#include <stdio.h>

#include "spin.h"

#define REPS 40

int main(void) {
  for (int r = 0; r < REPS; ++r) {
#pragma omp parallel num_threads(2) /* @region */
    {
      if (omp_get_thread_num() == 0)
        SPIN_MS(15.0); /* @long */
      else
        SPIN_MS(5.0); /* @short */
    }
  }
  printf("done\n");
  return 0;
}
