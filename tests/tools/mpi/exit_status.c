/* An MPI + OpenMP program for kite's launch tests (mpi_cli.py): every rank
 * runs a parallel region, meets the others in a barrier and an allreduce,
 * prints "rank R of N", and exits with the status given for its rank
 * ("exit R:S" makes rank R exit S; the others exit 0). */
#include <mpi.h>
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int main(int argc, char **argv) {
  int provided, rank, size;
  MPI_Init_thread(&argc, &argv, MPI_THREAD_FUNNELED, &provided);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  int threads = 0;
#pragma omp parallel
  {
#pragma omp atomic
    threads++;
  }
  MPI_Barrier(MPI_COMM_WORLD);
  int sum = 0;
  MPI_Allreduce(&threads, &sum, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
  printf("rank %d of %d: %d threads, %d in all\n", rank, size, threads, sum);
  int status = 0;
  if (argc > 2 && !strcmp(argv[1], "exit")) {
    int r = -1, s = 0;
    if (sscanf(argv[2], "%d:%d", &r, &s) == 2 && r == rank) status = s;
  }
  MPI_Finalize();
  return status;
}
