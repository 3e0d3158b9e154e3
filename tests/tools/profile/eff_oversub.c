/* kite profile efficiency known answer: an oversubscribed run. Four
 * threads do the same work (CPU time) in each region on a machine with
 * two cores (the test pins the process to two CPUs): each thread is
 * runnable but not running about half the time. Expected: descheduled
 * above 5 % of the thread time (and a warning), load balance near 1 and
 * no imbalance to speak of: the descheduled time is not imbalance. */
#include <omp.h>
#include <stdio.h>

#include "spin.h"

#define REPS 25

int main(void) {
  for (int r = 0; r < REPS; ++r) {
#pragma omp parallel num_threads(4)
    SPIN_MS(10.0);
  }
  printf("done\n");
  return 0;
}
