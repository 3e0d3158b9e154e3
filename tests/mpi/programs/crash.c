/* A rank that dies: rank 1 calls abort() after traced work and messages.
 * What it must produce, N >= 2 ranks:
 *   - kRounds (3) round trips between ranks 0 and 1: rank 0 MPI_Send's
 *     4 ints (16 bytes, tag 3) to rank 1, rank 1 answers with the same
 *     (tag 4); an OpenMP region on rank 1 after each.
 *   - then rank 1 calls abort(): no MPI_Finalize; its records up to there
 *     are still in its files (the recorder's tails, salvaged by readers):
 *     3 receives of tag 3 and 3 sends of tag 4.
 *   - the other ranks wait in MPI_Barrier and are killed by the launcher
 *     (or finish, if the MPI lets them); the launcher exits non-zero. */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

enum { kRounds = 3 };

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  int rank, size;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  int buf[4] = {1, 2, 3, 4};
  double sink = 0;
  for (int i = 0; i < kRounds && rank < 2; ++i) {
    if (rank == 0) {
      MPI_Send(buf, 4, MPI_INT, 1, 3, MPI_COMM_WORLD);
      MPI_Recv(buf, 4, MPI_INT, 1, 4, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    } else {
      MPI_Recv(buf, 4, MPI_INT, 0, 3, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
      MPI_Send(buf, 4, MPI_INT, 0, 4, MPI_COMM_WORLD);
#pragma omp parallel reduction(+ : sink)
      sink += 1;
    }
  }
  if (rank == 1) {
    fprintf(stderr, "crash: rank 1 aborts (on purpose)\n");
    abort();
  }
  MPI_Barrier(MPI_COMM_WORLD);
  printf("crash: rank %d of %d done\n", rank, size);
  MPI_Finalize();
  return 0;
}
