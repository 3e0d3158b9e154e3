/* MPI_THREAD_MULTIPLE: messages sent and received by several OpenMP
 * threads at once, inside one parallel region. World ranks pair up (0 with
 * 1, 2 with 3, ...; an even number of ranks). What it must produce, with T
 * OpenMP threads (OMP_NUM_THREADS):
 *   - MPI_Init_thread asking for MPI_THREAD_MULTIPLE; it exits 77 if the
 *     MPI does not provide it (meta mpi_thread_level=3).
 *   - in one parallel region, thread t of each rank runs kIters (3) times:
 *     MPI_Isend of kCount (16) ints = 64 bytes to the partner rank with tag
 *     100 + t, MPI_Recv from the partner with tag 100 + t, MPI_Wait on the
 *     send. Per rank: T * 3 sends and T * 3 receives, those of tag 100 + t
 *     all made by thread t: recorded on that thread's own file (T files
 *     with MPI records, one tag each).
 *   - one MPI_Barrier (thread 0, outside the region).
 * Values carry the sender's rank, thread and iteration, checked at the
 * receiver; a wrong one exits 1. */
#include <mpi.h>
#include <omp.h>
#include <stdio.h>

enum { kIters = 3, kCount = 16 };

int main(int argc, char **argv) {
  int provided = 0;
  MPI_Init_thread(&argc, &argv, MPI_THREAD_MULTIPLE, &provided);
  if (provided != MPI_THREAD_MULTIPLE) {
    fprintf(stderr, "multiple: the MPI provides thread level %d only\n", provided);
    MPI_Finalize();
    return 77;
  }
  int rank, size;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  if (size % 2) {
    fprintf(stderr, "multiple: needs an even number of ranks\n");
    MPI_Abort(MPI_COMM_WORLD, 2);
  }
  int partner = rank ^ 1, bad = 0;
#pragma omp parallel reduction(+ : bad)
  {
    int t = omp_get_thread_num();
    for (int it = 0; it < kIters; ++it) {
      int out[kCount], in[kCount];
      for (int i = 0; i < kCount; ++i) out[i] = rank * 10000 + t * 100 + it * 10 + i % 10;
      MPI_Request r;
      MPI_Isend(out, kCount, MPI_INT, partner, 100 + t, MPI_COMM_WORLD, &r);
      MPI_Recv(in, kCount, MPI_INT, partner, 100 + t, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
      MPI_Wait(&r, MPI_STATUS_IGNORE);
      for (int i = 0; i < kCount; ++i)
        if (in[i] != partner * 10000 + t * 100 + it * 10 + i % 10) ++bad;
    }
  }
  if (bad) {
    fprintf(stderr, "multiple: rank %d: %d wrong values\n", rank, bad);
    return 1;
  }
  MPI_Barrier(MPI_COMM_WORLD);
  printf("multiple: rank %d of %d done\n", rank, size);
  MPI_Finalize();
  return 0;
}
