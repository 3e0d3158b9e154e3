/* kite trace: a task-heavy run (TASKS tiny tasks created by one thread of
 * two, run by both), for the converter's memory bound: about 3 events per
 * task, so the event count follows the argument. */
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>

int main(int argc, char **argv) {
  long tasks = argc > 1 ? atol(argv[1]) : 100000;
  long done = 0;
#pragma omp parallel num_threads(2)
#pragma omp single
  for (long i = 0; i < tasks; ++i) {
#pragma omp task
    {
#pragma omp atomic
      done++;
    }
  }
  printf("tasks %ld\n", done);
  return done == tasks ? 0 : 1;
}
