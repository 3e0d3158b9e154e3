/* kite profile known answer: a task producer that is too slow. One thread
 * creates TASKS tasks (0.6 s: enough samples at 200 Hz), spending 2 ms
 * producing each (@produce); each task
 * runs 0.2 ms. The other thread waits at the single's barrier for tasks
 * most of the time. Expected: task_starvation blame on @produce, about
 * 0.9 * 1/2 of the thread time. */
#include <omp.h>
#include <stdio.h>

#include "spin.h"

#define TASKS 300

int main(void) {
  int done = 0;
#pragma omp parallel num_threads(2)
#pragma omp single
  for (int i = 0; i < TASKS; ++i) {
    SPIN_MS(2.0); /* @produce */
#pragma omp task shared(done)
    {
      SPIN_MS(0.2);
#pragma omp atomic
      done++;
    }
  }
  printf("done %d\n", done);
  return done == TASKS ? 0 : 1;
}
