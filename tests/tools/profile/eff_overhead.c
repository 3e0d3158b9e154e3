/* kite profile efficiency known answer: runtime overhead. Each of REPS
 * steps runs a balanced region (both threads 10 ms of CPU time), then forks
 * and joins empty regions for 10 ms of the initial thread's CPU time: there
 * the threads spend their time in the runtime (forking, joining, waiting
 * for each other to do so) and, between two regions, in the loop's own
 * code on the initial thread while the worker idles. Expected: parallel
 * efficiency 0.5; runtime overhead + serialization 0.5, most of it runtime
 * overhead (at least 0.3: on Kite a fork and join takes well under a
 * microsecond, so the loop's own few instructions between regions are a
 * visible share, which the profile rightly calls serialization). */
#include <omp.h>
#include <stdio.h>

#include "spin.h"

#define REPS 60

static volatile int sink;

int main(void) {
  long empty = 0;
  for (int r = 0; r < REPS; ++r) {
#pragma omp parallel num_threads(2)
    SPIN_MS(10.0);
    struct timespec ts;
    double end = KP_CPU_S(ts) + 10e-3;
    /* The clock is a system call: read every 64 regions, a few % of it. */
    for (int i = 1;; ++i) {
      if (i % 64 == 0 && KP_CPU_S(ts) >= end) break;
#pragma omp parallel num_threads(2)
      {
        if (sink) sink = 0;
      }
      ++empty;
    }
  }
  printf("done (%ld empty regions)\n", empty);
  return 0;
}
