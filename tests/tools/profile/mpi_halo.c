/* An imbalanced halo exchange, N >= 2 ranks on a periodic ring: kIters (5)
 * iterations of an OpenMP region in which every thread spins kWorkMs (200)
 * ms (rank 1: twice as long, on the line marked @heavy; the others on
 * @light), then MPI_Sendrecv to the right and from the left. The ranks'
 * time outside MPI is their work, so the MPI load balance (mean / max over
 * ranks) is (N + 1) / (2N): 0.75 at 2 ranks, 0.625 at 4; the OpenMP
 * regions are balanced (every thread spins as long). */
#include <mpi.h>
#include <stdio.h>

#include "mpi_spin.h"

enum { kIters = 5, kWorkMs = 200, kHalo = 64 };

__attribute__((noinline)) static double work(int heavy) {
  double sink = 0;
  /* One end for the team: a thread that starts late does not lengthen it. */
  double end = mpi_now_s() + (heavy ? 2 : 1) * kWorkMs * 1e-3;
#pragma omp parallel reduction(+ : sink)
  {
    if (heavy)
      while (mpi_now_s() < end)
        for (int k = 0; k < 4096; ++k) sink += k * 0.5; /* @heavy */
    else
      while (mpi_now_s() < end)
        for (int k = 0; k < 4096; ++k) sink += k * 0.5; /* @light */
  }
  return sink;
}

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  int rank, size;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  MPI_Barrier(MPI_COMM_WORLD); /* the ranks leave MPI_Init at different times */
  int right = (rank + 1) % size, left = (rank + size - 1) % size;
  double out[kHalo], in[kHalo];
  for (int it = 0; it < kIters; ++it) {
    double s = work(rank == 1);
    for (int i = 0; i < kHalo; ++i) out[i] = rank * 100 + it + (s > 0 ? 0 : 1);
    MPI_Sendrecv(out, kHalo, MPI_DOUBLE, right, 7, in, kHalo, MPI_DOUBLE, left, 7, /* @exchange */
                 MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    if (in[0] != left * 100 + it) {
      fprintf(stderr, "mpi_halo: rank %d received %f\n", rank, in[0]);
      return 1;
    }
  }
  MPI_Finalize();
  return 0;
}
