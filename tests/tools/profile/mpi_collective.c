/* Waits at N-to-N collectives with a known last arrival, N >= 2 ranks.
 *   1. the last rank (N-1) spins kFirstMs (300) ms in an OpenMP region on
 *      the line marked @last_barrier, the others go straight to MPI_Barrier:
 *      each of them waits ~300 ms there, blamed on rank N-1's line;
 *   2. rank 0 spins kSecondMs (200) ms on the line marked @last_allreduce,
 *      then every rank calls MPI_Allreduce: ranks 1.. wait ~200 ms, blamed
 *      on rank 0's line. */
#include <mpi.h>
#include <stdio.h>

#include "mpi_spin.h"

enum { kFirstMs = 300, kSecondMs = 200 };

__attribute__((noinline)) static double before_barrier(void) {
  double sink = 0;
  /* One end for the team: a thread that starts late does not lengthen it. */
  double end = mpi_now_s() + kFirstMs * 1e-3;
#pragma omp parallel reduction(+ : sink)
  {
    while (mpi_now_s() < end)
      for (int k = 0; k < 4096; ++k) sink += k * 0.5; /* @last_barrier */
  }
  return sink;
}

__attribute__((noinline)) static double before_allreduce(void) {
  double sink = 0;
  /* One end for the team: a thread that starts late does not lengthen it. */
  double end = mpi_now_s() + kSecondMs * 1e-3;
#pragma omp parallel reduction(+ : sink)
  {
    while (mpi_now_s() < end)
      for (int k = 0; k < 4096; ++k) sink += k * 0.5; /* @last_allreduce */
  }
  return sink;
}

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  int rank, size;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  double w = 1;
  if (rank == size - 1) w = before_barrier();
  MPI_Barrier(MPI_COMM_WORLD);
  if (rank == 0) w = before_allreduce();
  double sum = 0;
  MPI_Allreduce(&w, &sum, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
  if (sum <= 0) {
    fprintf(stderr, "mpi_collective: sum %f\n", sum);
    return 1;
  }
  MPI_Finalize();
  return 0;
}
