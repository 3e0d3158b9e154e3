/* kite trace: a program that crashes (SIGSEGV) in the middle of its run,
 * after REGIONS parallel regions; its trace must still convert and hold
 * them. It writes the number of regions it completed to stdout first. */
#include <omp.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>

#define REGIONS 25

int main(int argc, char **argv) {
  volatile int sum = 0;
  for (int r = 0; r < REGIONS; ++r) {
#pragma omp parallel num_threads(2) /* @crashregion */
    {
#pragma omp atomic
      sum += 1;
    }
  }
  printf("regions %d\n", REGIONS);
  fflush(stdout);
  if (argc > 1 && argv[1][0] == 'x') _exit(9); /* no finalizer either */
  raise(SIGSEGV);
  return 0;
}
