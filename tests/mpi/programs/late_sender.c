/* A late sender: rank 0 posts its MPI_Recv at once; rank 1 first computes
 * for kLateMs (300) ms in late_work() -- an OpenMP region whose threads
 * each spin that long, on the line marked LATE_SENDER_LINE -- and only
 * then sends. What it must produce, N >= 2 ranks:
 *   - rank 1 -> rank 0: one MPI_Send / MPI_Recv, comm world, tag 5, 1 int
 *     (4 bytes); rank 0's MPI_Recv lasts at least ~kLateMs (its wait is
 *     a late-sender wait state caused by late_work()).
 *   - one MPI_Barrier on every rank.
 * The value received is checked (exit 1 if wrong). */
#include <mpi.h>
#include <stdio.h>
#include <time.h>

enum { kLateMs = 300 };

static double now_s(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return ts.tv_sec + ts.tv_nsec * 1e-9;
}

__attribute__((noinline)) static double late_work(void) {
  double sink = 0;
#pragma omp parallel reduction(+ : sink)
  {
    double end = now_s() + kLateMs * 1e-3;
    while (now_s() < end) sink += 1.0;  // LATE_SENDER_LINE
  }
  return sink;
}

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  int rank, size;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  if (rank == 0) {
    int v = 0;
    MPI_Recv(&v, 1, MPI_INT, 1, 5, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    if (v != 1234) {
      fprintf(stderr, "late_sender: got %d\n", v);
      return 1;
    }
  } else if (rank == 1) {
    int v = 1234;
    if (late_work() <= 0) return 1;
    MPI_Send(&v, 1, MPI_INT, 0, 5, MPI_COMM_WORLD);
  }
  MPI_Barrier(MPI_COMM_WORLD);
  printf("late_sender: rank %d of %d done\n", rank, size);
  MPI_Finalize();
  return 0;
}
