/* kite trace: a task-heavy run for the converter's memory bound. Each of two
 * threads creates half of TASKS tiny tasks and waits for its tasks every
 * BATCH of them, so at most 2 * BATCH tasks are open at any moment whatever
 * TASKS is, and both threads record about as many events (their OTF2
 * locations fill their buffers alike). About 3 events per task, so the
 * event count follows the argument. */
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>

enum { BATCH = 64 };

int main(int argc, char **argv) {
  long tasks = argc > 1 ? atol(argv[1]) : 100000;
  long done = 0;
#pragma omp parallel num_threads(2)
  {
    int me = omp_get_thread_num(), n = omp_get_num_threads();
    long mine = tasks / n + (me < tasks % n ? 1 : 0);
    for (long i = 0; i < mine; ++i) {
#pragma omp task
      {
#pragma omp atomic
        done++;
      }
      if ((i + 1) % BATCH == 0) {
#pragma omp taskwait
      }
    }
  }
  printf("tasks %ld\n", done);
  return done == tasks ? 0 : 1;
}
