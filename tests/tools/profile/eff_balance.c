/* kite profile efficiency known answer: load balance. At 2 threads,
 * thread 0 does twice the work of thread 1 in each of REPS regions
 * (CPU time, spin.h), and nothing runs outside them.
 * Expected (docs/kite-profile.md, "Efficiency"): load balance =
 * mean / max useful time per thread = (2 + 1) / 2 / 2 = 0.75; the
 * imbalance loss (team x max - sum) / thread time = (4 - 3) / 4 = 0.25;
 * parallel efficiency 0.75. With the argument "balanced" both threads
 * do 12 ms (the same total): load balance 1, each region 4 ms shorter
 * (kite diff's known answer). */
#include <omp.h>
#include <stdio.h>

#include "spin.h"

#define REPS 80

int main(int argc, char **argv) {
  int balanced = argc > 1 && argv[1][0] == 'b';
  double w0 = balanced ? 12.0 : 16.0, w1 = balanced ? 12.0 : 8.0;
  for (int r = 0; r < REPS; ++r) {
#pragma omp parallel num_threads(2)
    {
      if (omp_get_thread_num() == 0)
        SPIN_MS(w0); /* @w0 */
      else
        SPIN_MS(w1); /* @w1 */
    }
  }
  printf("done\n");
  return 0;
}
