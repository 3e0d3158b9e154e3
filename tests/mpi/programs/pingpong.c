/* Ping-pong between world ranks 0 and 1, with OpenMP compute between the
 * messages. What it must produce (any number of ranks >= 2; ranks >= 2
 * only take part in the barrier):
 *   - kIters (10) round trips: rank 0 MPI_Send -> rank 1 MPI_Recv, then
 *     rank 1 MPI_Send -> rank 0 MPI_Recv; comm world, tag 7 for the ping,
 *     tag 8 for the pong, each kCount (1000) ints = 4000 bytes.
 *     So 20 messages in all: 10 from 0 to 1 (tag 7), 10 from 1 to 0 (tag 8).
 *   - between the messages, each of ranks 0 and 1 runs one OpenMP parallel
 *     region (a reduction loop) per iteration.
 *   - one MPI_Barrier on every rank at the end, then MPI_Finalize.
 * It checks the values it receives: the ping carries i + iteration, the pong
 * that plus 1; a wrong value exits 1. */
#include <mpi.h>
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>

enum { kIters = 10, kCount = 1000 };

static double compute(int n) {
  double s = 0;
#pragma omp parallel for reduction(+ : s)
  for (int i = 0; i < n; ++i) s += (double)i * 0.5;
  return s;
}

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  int rank, size;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  if (size < 2) {
    fprintf(stderr, "pingpong: needs at least 2 ranks\n");
    MPI_Abort(MPI_COMM_WORLD, 2);
  }
  int buf[kCount];
  double sink = 0;
  for (int it = 0; it < kIters && rank < 2; ++it) {
    if (rank == 0) {
      for (int i = 0; i < kCount; ++i) buf[i] = i + it;
      MPI_Send(buf, kCount, MPI_INT, 1, 7, MPI_COMM_WORLD);
      MPI_Recv(buf, kCount, MPI_INT, 1, 8, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
      for (int i = 0; i < kCount; ++i)
        if (buf[i] != i + it + 1) {
          fprintf(stderr, "pingpong: rank 0 got %d at %d of iteration %d\n", buf[i], i, it);
          return 1;
        }
    } else {
      MPI_Status st;
      MPI_Recv(buf, kCount, MPI_INT, 0, 7, MPI_COMM_WORLD, &st);
      for (int i = 0; i < kCount; ++i) {
        if (buf[i] != i + it) {
          fprintf(stderr, "pingpong: rank 1 got %d at %d of iteration %d\n", buf[i], i, it);
          return 1;
        }
        buf[i] += 1;
      }
      MPI_Send(buf, kCount, MPI_INT, 0, 8, MPI_COMM_WORLD);
    }
    sink += compute(20000);
  }
  MPI_Barrier(MPI_COMM_WORLD);
  if (sink < 0) printf("%f\n", sink);
  printf("pingpong: rank %d of %d done\n", rank, size);
  MPI_Finalize();
  return 0;
}
