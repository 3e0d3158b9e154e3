/* Non-blocking exchange on a periodic ring of all world ranks (N >= 2).
 * What it must produce:
 *   - kIters (5) iterations; in each, every rank posts MPI_Irecv from its
 *     left neighbour (tag 10) and from its right (tag 11), MPI_Isend to its
 *     right (tag 10) and to its left (tag 11), kCount (256) ints = 1024
 *     bytes each, and completes all four with one MPI_Waitall (statuses
 *     ignored). Per rank: 10 isends (kMpiSend with a request id, each
 *     completed: kMpiSendComplete) and 10 irecvs (kMpiRecvRequest, each
 *     completed by a kMpiRecv with the same request id), all on comm world.
 *   - then rank 0 MPI_Isend's 8 ints (32 bytes, tag 20) to rank 1 and
 *     completes it with MPI_Wait; rank 1 MPI_Irecv's it (any source, tag 20)
 *     and completes it with an MPI_Test loop (a request completed by
 *     MPI_Test, whose kMpiRecv names rank 0 and tag 20 from the status).
 *   - then every rank posts kMany (300) MPI_Irecv and kMany MPI_Isend of 2
 *     ints (8 bytes, tag 40) to itself on MPI_COMM_SELF, and completes all
 *     600 with one MPI_Waitall (statuses asked for): per rank 300 messages
 *     on its self communicator (id kSelfBase + world rank), 600 requests
 *     outstanding at once.
 *   - one MPI_Barrier.
 * Between iterations an OpenMP loop computes. Received values are checked;
 * a wrong one exits 1. */
#include <mpi.h>
#include <stdio.h>

enum { kIters = 5, kCount = 256, kMany = 300 };

static double work(long n) {
  double s = 0;
#pragma omp parallel for reduction(+ : s)
  for (long i = 0; i < n; ++i) s += (double)(i & 3);
  return s;
}

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  int rank, size;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  int right = (rank + 1) % size, left = (rank - 1 + size) % size;
  int to_r[kCount], to_l[kCount], from_l[kCount], from_r[kCount];
  double sink = 0;
  for (int it = 0; it < kIters; ++it) {
    for (int i = 0; i < kCount; ++i) {
      to_r[i] = rank * 100000 + it * 1000 + i;
      to_l[i] = -(rank * 100000 + it * 1000 + i);
    }
    MPI_Request req[4];
    MPI_Irecv(from_l, kCount, MPI_INT, left, 10, MPI_COMM_WORLD, &req[0]);
    MPI_Irecv(from_r, kCount, MPI_INT, right, 11, MPI_COMM_WORLD, &req[1]);
    MPI_Isend(to_r, kCount, MPI_INT, right, 10, MPI_COMM_WORLD, &req[2]);
    MPI_Isend(to_l, kCount, MPI_INT, left, 11, MPI_COMM_WORLD, &req[3]);
    sink += work(200000);
    MPI_Waitall(4, req, MPI_STATUSES_IGNORE); /* statuses ignored */
    for (int i = 0; i < kCount; ++i)
      if (from_l[i] != left * 100000 + it * 1000 + i ||
          from_r[i] != -(right * 100000 + it * 1000 + i)) {
        fprintf(stderr, "nonblocking: rank %d: wrong value at %d of iteration %d\n", rank, i, it);
        return 1;
      }
  }
  int eight[8];
  if (rank == 0) {
    for (int i = 0; i < 8; ++i) eight[i] = 70 + i;
    MPI_Request r;
    MPI_Isend(eight, 8, MPI_INT, 1, 20, MPI_COMM_WORLD, &r);
    MPI_Wait(&r, MPI_STATUS_IGNORE);
  } else if (rank == 1) {
    MPI_Request r;
    MPI_Irecv(eight, 8, MPI_INT, MPI_ANY_SOURCE, 20, MPI_COMM_WORLD, &r);
    int done = 0;
    MPI_Status st;
    while (!done) MPI_Test(&r, &done, &st);
    if (st.MPI_SOURCE != 0 || st.MPI_TAG != 20) {
      fprintf(stderr, "nonblocking: status says %d/%d\n", st.MPI_SOURCE, st.MPI_TAG);
      return 1;
    }
    for (int i = 0; i < 8; ++i)
      if (eight[i] != 70 + i) {
        fprintf(stderr, "nonblocking: rank 1 got %d at %d\n", eight[i], i);
        return 1;
      }
  }
  static int self_out[kMany][2], self_in[kMany][2];
  static MPI_Request self_req[2 * kMany];
  static MPI_Status self_st[2 * kMany];
  for (int i = 0; i < kMany; ++i) {
    self_out[i][0] = rank;
    self_out[i][1] = i;
    MPI_Irecv(self_in[i], 2, MPI_INT, 0, 40, MPI_COMM_SELF, &self_req[i]);
  }
  for (int i = 0; i < kMany; ++i)
    MPI_Isend(self_out[i], 2, MPI_INT, 0, 40, MPI_COMM_SELF, &self_req[kMany + i]);
  MPI_Waitall(2 * kMany, self_req, self_st);
  for (int i = 0; i < kMany; ++i)
    if (self_in[i][0] != rank || self_in[i][1] != i || self_st[i].MPI_TAG != 40) {
      fprintf(stderr, "nonblocking: rank %d: self message %d is %d/%d\n", rank, i, self_in[i][0],
              self_in[i][1]);
      return 1;
    }
  MPI_Barrier(MPI_COMM_WORLD);
  if (sink < 0) printf("%f\n", sink);
  printf("nonblocking: rank %d of %d done\n", rank, size);
  MPI_Finalize();
  return 0;
}
