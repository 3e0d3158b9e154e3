/* A late sender, a late receiver, then a late arrival at a barrier, N >= 2
 * ranks.
 *   Rank 0 receives from rank 1 at once (MPI_Recv, tag 5); rank 1 first
 *   spins kLateMs (300) ms in an OpenMP region, every thread on the line
 *   marked @late, then sends: rank 0's receive waits ~300 ms, a late-sender
 *   wait blamed on rank 1's @late line.
 *   Then rank 0 sends to rank 1 at once with MPI_Ssend (tag 6), which
 *   returns only once the receive has begun; rank 1 first spins
 *   kLateRecvMs (200) ms on the line marked @late_recv, then receives:
 *   a late-receiver wait of ~200 ms blamed on rank 1's @late_recv line.
 *   Then every rank calls MPI_Barrier: ranks 2.. arrive ~500 ms before
 *   ranks 0 and 1 (a wait at the collective, blamed on the last of them). */
#include <mpi.h>
#include <stdio.h>

#include "mpi_spin.h"

enum { kLateMs = 300, kLateRecvMs = 200 };

__attribute__((noinline)) static double late_work(void) {
  double sink = 0;
  /* One end for the team: a thread that starts late does not lengthen it. */
  double end = mpi_now_s() + kLateMs * 1e-3;
#pragma omp parallel reduction(+ : sink)
  {
    while (mpi_now_s() < end)
      for (int k = 0; k < 4096; ++k) sink += k * 0.5; /* @late */
  }
  return sink;
}

__attribute__((noinline)) static double late_recv_work(void) {
  double sink = 0;
  double end = mpi_now_s() + kLateRecvMs * 1e-3;
#pragma omp parallel reduction(+ : sink)
  {
    while (mpi_now_s() < end)
      for (int k = 0; k < 4096; ++k) sink += k * 0.5; /* @late_recv */
  }
  return sink;
}

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  int rank, size;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  MPI_Barrier(MPI_COMM_WORLD); /* the ranks leave MPI_Init at different times */
  int v = 0;
  if (rank == 0) {
    MPI_Recv(&v, 1, MPI_INT, 1, 5, MPI_COMM_WORLD, MPI_STATUS_IGNORE); /* @recv */
    if (v != 4321) {
      fprintf(stderr, "mpi_late_sender: received %d\n", v);
      return 1;
    }
  } else if (rank == 1) {
    v = 4321;
    if (late_work() <= 0) return 1;
    MPI_Send(&v, 1, MPI_INT, 0, 5, MPI_COMM_WORLD);
  }
  if (rank == 0) {
    v = 1234;
    MPI_Ssend(&v, 1, MPI_INT, 1, 6, MPI_COMM_WORLD); /* @ssend */
  } else if (rank == 1) {
    if (late_recv_work() <= 0) return 1;
    MPI_Recv(&v, 1, MPI_INT, 0, 6, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    if (v != 1234) {
      fprintf(stderr, "mpi_late_sender: received %d\n", v);
      return 1;
    }
  }
  MPI_Barrier(MPI_COMM_WORLD);
  MPI_Finalize();
  return 0;
}
