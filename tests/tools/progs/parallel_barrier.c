/* kite check: parallel regions (nested too) and explicit barriers. */
#include <omp.h>
#include <stdio.h>

int main(void) {
  int sum = 0;
  for (int rep = 0; rep < 3; ++rep) {
#pragma omp parallel reduction(+ : sum)
    {
      sum += omp_get_thread_num();
#pragma omp barrier
      sum += 1;
#pragma omp barrier
    }
  }
#pragma omp parallel num_threads(2)
  {
#pragma omp parallel num_threads(2)
    {
#pragma omp barrier
    }
  }
  printf("%d\n", sum);
  return sum > 0 ? 0 : 1;
}
