/* kite check: worksharing loops of every schedule, sections, single. */
#include <omp.h>

int main(void) {
  long total = 0;
#pragma omp parallel reduction(+ : total)
  {
#pragma omp for schedule(static)
    for (int i = 0; i < 100; ++i) total += i;
#pragma omp for schedule(dynamic, 3)
    for (int i = 0; i < 100; ++i) total += i;
#pragma omp for schedule(guided)
    for (int i = 0; i < 100; ++i) total += i;
#pragma omp for schedule(runtime) nowait
    for (int i = 0; i < 100; ++i) total += i;
#pragma omp sections
    {
#pragma omp section
      total += 1;
#pragma omp section
      total += 2;
    }
#pragma omp single
    total += 3;
  }
#pragma omp parallel for schedule(dynamic) reduction(+ : total)
  for (int i = 0; i < 50; ++i) total += i;
  return total == 4 * 4950 + 6 + 1225 ? 0 : 1;
}
