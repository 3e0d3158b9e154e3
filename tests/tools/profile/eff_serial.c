/* kite profile efficiency known answer: a 30 % serial fraction. Each of
 * REPS steps runs a balanced region (both threads 7 ms of CPU time), then
 * 3 ms of serial code on the initial thread while the worker idles.
 * Expected: serial fraction (the workers' share of time idle for serial
 * code) 3 / 10 = 0.30; serialization (share of all thread time)
 * 3 / 20 = 0.15; parallel efficiency (2 x 7 + 3) / 20 = 0.85; load
 * balance 1. */
#include <omp.h>
#include <stdio.h>

#include "spin.h"

#define REPS 100

int main(void) {
  for (int r = 0; r < REPS; ++r) {
#pragma omp parallel num_threads(2)
    SPIN_MS(7.0);
    SPIN_MS(3.0);
  }
  printf("done\n");
  return 0;
}
