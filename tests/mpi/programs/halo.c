/* 1-D halo exchange on a periodic ring of all world ranks, with OpenMP
 * compute between exchanges. What it must produce, N ranks (N >= 2):
 *   - kIters (5) iterations; in each, every rank calls MPI_Sendrecv twice:
 *     first sends to its right neighbour (rank+1 mod N) with tag 1 while
 *     receiving from its left one (tag 1), then sends to the left with tag
 *     2 while receiving from the right (tag 2); kHalo (100) doubles = 800
 *     bytes each. So per rank: 10 sends and 10 receives, all on comm world;
 *     from r to (r+1)%N: 5 messages tag 1; from r to (r-1+N)%N: 5 tag 2.
 *     (With N = 2 both neighbours are the other rank.)
 *   - then one MPI_Allreduce (1 double, sum of the checksums).
 *   - compute: every rank runs one OpenMP parallel loop of kWork
 *     iterations per iteration; rank 1 runs it twice (2 * kWork): a known
 *     imbalance. MPI load balance (average compute / largest compute over
 *     ranks) is therefore (N + 1) / (2N): 0.75 for 2 ranks, 0.625 for 4.
 * It checks the halo values it receives (the neighbour's rank and the
 * iteration); a wrong value exits 1. */
#include <mpi.h>
#include <stdio.h>

enum { kIters = 5, kHalo = 100, kWork = 4000000 };

static double work(long n) {
  double s = 0;
#pragma omp parallel for reduction(+ : s)
  for (long i = 0; i < n; ++i) s += (double)(i % 7) * 0.25;
  return s;
}

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  int rank, size;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  int right = (rank + 1) % size, left = (rank - 1 + size) % size;
  double out[kHalo], in[kHalo], check = 0;
  for (int it = 0; it < kIters; ++it) {
    check += work(rank == 1 ? 2L * kWork : kWork);
    for (int i = 0; i < kHalo; ++i) out[i] = rank * 1000 + it + i * 1e-3;
    MPI_Sendrecv(out, kHalo, MPI_DOUBLE, right, 1, in, kHalo, MPI_DOUBLE, left, 1, MPI_COMM_WORLD,
                 MPI_STATUS_IGNORE);
    for (int i = 0; i < kHalo; ++i)
      if (in[i] != left * 1000 + it + i * 1e-3) {
        fprintf(stderr, "halo: rank %d got %f from the left at %d\n", rank, in[i], i);
        return 1;
      }
    MPI_Status st;
    MPI_Sendrecv(out, kHalo, MPI_DOUBLE, left, 2, in, kHalo, MPI_DOUBLE, right, 2, MPI_COMM_WORLD,
                 &st);
    for (int i = 0; i < kHalo; ++i)
      if (in[i] != right * 1000 + it + i * 1e-3 || st.MPI_SOURCE != right) {
        fprintf(stderr, "halo: rank %d got %f from the right at %d\n", rank, in[i], i);
        return 1;
      }
  }
  double total = 0;
  MPI_Allreduce(&check, &total, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
  if (total <= 0) {
    fprintf(stderr, "halo: checksum %f\n", total);
    return 1;
  }
  printf("halo: rank %d of %d done\n", rank, size);
  MPI_Finalize();
  return 0;
}
