/* kite profile known answer: a long serial phase between parallel regions.
 * A short region (2 threads, 5 ms) then 20 ms of serial work on the
 * initial thread (@serial), REPS times: the pool's worker idles during the
 * serial phases. Expected: serial blame (idle worker) on @serial, about
 * 20/(2*25) = 40 % of the thread time. */
#include <omp.h>
#include <stdio.h>

#include "spin.h"

#define REPS 20

int main(void) {
  for (int r = 0; r < REPS; ++r) {
#pragma omp parallel num_threads(2)
    SPIN_MS(5.0);
    SPIN_MS(20.0); /* @serial */
  }
  printf("done\n");
  return 0;
}
