/* An OpenMP program linking libmpi_other.so (fakempi.c). */
#include <stdio.h>
int fake_mpi_init(void);
int main(void) {
  int n = 0;
#pragma omp parallel reduction(+ : n)
  n += 1;
  printf("threads %d %d\n", n, fake_mpi_init());
  return 0;
}
