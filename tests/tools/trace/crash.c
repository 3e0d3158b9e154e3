/* kite trace: a program that crashes (SIGSEGV) in the middle of its run,
 * after REGIONS parallel regions (or argv[2] of them); its trace must
 * still convert and hold them. It writes the number of regions it
 * completed to stdout first. argv[1]: "x" ends with _exit(9), "k" with
 * SIGKILL (nothing of the program or its tool runs after it), anything
 * else with SIGSEGV. */
#include <omp.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>

#define REGIONS 25

int main(int argc, char **argv) {
  volatile int sum = 0;
  int regions = argc > 2 ? atoi(argv[2]) : REGIONS;
  for (int r = 0; r < regions; ++r) {
#pragma omp parallel num_threads(2) /* @crashregion */
    {
#pragma omp atomic
      sum += 1;
    }
  }
  printf("regions %d\n", regions);
  fflush(stdout);
  if (argc > 1 && argv[1][0] == 'x') _exit(9); /* no finalizer either */
  if (argc > 1 && argv[1][0] == 'k') raise(SIGKILL);
  raise(SIGSEGV);
  return 0;
}
