/* kite trace: a small OpenMP program for the command's tests; exits with
 * status 3 when its first argument is "exit3". */
#include <omp.h>
#include <stdio.h>
#include <string.h>

int main(int argc, char **argv) {
  int n = 0;
#pragma omp parallel num_threads(2) reduction(+ : n)
  n += 1;
  printf("threads %d\n", n);
  return argc > 1 && !strcmp(argv[1], "exit3") ? 3 : 0;
}
