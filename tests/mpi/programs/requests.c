/* Persistent requests, MPI_Request_free, MPI_Cancel and the non-blocking
 * collectives, on a periodic ring of all world ranks (N >= 2; the tests run
 * it at 2). What it must produce, per rank r (right = r+1 mod N, left =
 * r-1 mod N), all on comm world unless said:
 *   A. persistent requests, each start a message of kCount (256) ints =
 *      1024 bytes to the right, received from the left:
 *      - MPI_Send_init + MPI_Recv_init (tag 50), started kIters (4) times
 *        by MPI_Startall and completed by MPI_Waitall (an OpenMP loop
 *        between);
 *      - MPI_Ssend_init + MPI_Recv_init (tag 51), started 3 times by
 *        MPI_Start (receive first), completed by MPI_Wait each;
 *      - MPI_Rsend_init + MPI_Recv_init (tag 52), 2 times: the receive
 *        started, an MPI_Barrier, the ready send started, MPI_Waitall;
 *      - MPI_Bsend_init + MPI_Recv_init (tag 53, a buffer attached), 2
 *        times, the receive completed by an MPI_Test loop, the send by
 *        MPI_Wait;
 *      then MPI_Request_free of all 8. Per rank 11 sends with 11 distinct
 *      request ids (kMpiSend in MPI_Start/MPI_Startall), each completed once
 *      (kMpiSendComplete), and 11 receive starts (kMpiRecvRequest in
 *      MPI_Start/Startall) each completed once by a kMpiRecv of 1024 bytes
 *      from the left with the start's id: tag 53's in MPI_Test.
 *   B. MPI_Request_free of an active request: MPI_Isend of 2 ints (8 bytes,
 *      tag 60) to the right, freed at once (kMpiSend with a request id,
 *      never completed); the left's message received by MPI_Recv. Then
 *      MPI_Isend of 8 bytes to the right (tag 62; Open MPI and MPICH hand
 *      out the freed handle again here), received by MPI_Recv, completed
 *      by MPI_Wait: its kMpiSendComplete names the tag-62 isend's own
 *      request id, not the freed one's. Then
 *      MPI_Irecv from the left (tag 61, 8 bytes, sent by MPI_Send) and
 *      MPI_Wait: its kMpiRecv names tag 61 and the irecv's own request id
 *      (MPI may hand out the freed handle again: no stale entry matches).
 *   C. MPI_Cancel: an MPI_Irecv from any source, tag 99 (never sent),
 *      cancelled, MPI_Wait'ed: MPI_Test_cancelled says so (else exit 1);
 *      recorded: its kMpiRecvRequest, then kMpiRequestCancelled with its id
 *      inside MPI_Wait, and no kMpiRecv. Then one MPI_Barrier.
 *   D. non-blocking collectives, each once on comm world with the blocking
 *      operation's bytes: MPI_Ibarrier (MPI_Wait), MPI_Ibcast of 100 ints
 *      from root 0 (MPI_Wait), MPI_Iallreduce of 1 double (an OpenMP loop
 *      overlaps it, then an MPI_Test loop), then MPI_Ireduce of 4 doubles
 *      to root N-1, MPI_Igather (2 ints, root 0), MPI_Igatherv (r+1 ints,
 *      root 0), MPI_Iscatter (3 ints, root 0), MPI_Iscatterv (r+1 ints,
 *      root 0), MPI_Iallgather (2 ints), MPI_Iallgatherv (r+1 ints),
 *      MPI_Ialltoall (1 int), MPI_Ialltoallv (1 int to each), MPI_Ireduce_
 *      scatter (2 ints each), MPI_Ireduce_scatter_block (2 ints each),
 *      MPI_Iscan (1 int), MPI_Iexscan (1 int), those 13 completed by one
 *      MPI_Waitall: per rank 16 kMpiCollectiveRequest and 16
 *      kMpiCollectiveComplete with the same ids and fields; Ibarrier and
 *      Ibcast completed in MPI_Wait, Iallreduce in MPI_Test.
 *   Blocking collectives: 3 MPI_Barrier (2 in A, 1 in C).
 * Received and reduced values are checked; a wrong one exits 1. */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

enum { kIters = 4, kCount = 256, kMaxRanks = 16 };

static double work(long n) {
  double s = 0;
#pragma omp parallel for reduction(+ : s)
  for (long i = 0; i < n; ++i) s += (double)(i & 3);
  return s;
}

static int bad(const char *what, int rank) {
  fprintf(stderr, "requests: rank %d: %s\n", rank, what);
  MPI_Abort(MPI_COMM_WORLD, 1);
  return 1;
}

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  int rank, size;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  if (size < 2 || size > kMaxRanks) bad("needs 2..16 ranks", rank);
  int right = (rank + 1) % size, left = (rank - 1 + size) % size;
  static int out[4][kCount], in[4][kCount];
  MPI_Request p[8];
  double s = 0;

  /* A. persistent requests */
  MPI_Send_init(out[0], kCount, MPI_INT, right, 50, MPI_COMM_WORLD, &p[0]);
  MPI_Recv_init(in[0], kCount, MPI_INT, left, 50, MPI_COMM_WORLD, &p[1]);
  MPI_Ssend_init(out[1], kCount, MPI_INT, right, 51, MPI_COMM_WORLD, &p[2]);
  MPI_Recv_init(in[1], kCount, MPI_INT, left, 51, MPI_COMM_WORLD, &p[3]);
  MPI_Rsend_init(out[2], kCount, MPI_INT, right, 52, MPI_COMM_WORLD, &p[4]);
  MPI_Recv_init(in[2], kCount, MPI_INT, left, 52, MPI_COMM_WORLD, &p[5]);
  MPI_Bsend_init(out[3], kCount, MPI_INT, right, 53, MPI_COMM_WORLD, &p[6]);
  MPI_Recv_init(in[3], kCount, MPI_INT, left, 53, MPI_COMM_WORLD, &p[7]);
  for (int it = 0; it < kIters; ++it) {
    for (int i = 0; i < kCount; ++i) out[0][i] = rank * 1000 + it + i;
    MPI_Startall(2, p);
    s += work(200000);
    MPI_Waitall(2, p, MPI_STATUSES_IGNORE);
    for (int i = 0; i < kCount; ++i)
      if (in[0][i] != left * 1000 + it + i) bad("wrong value (tag 50)", rank);
  }
  for (int it = 0; it < 3; ++it) {
    for (int i = 0; i < kCount; ++i) out[1][i] = rank + it * 7 + i;
    MPI_Start(&p[3]);
    MPI_Start(&p[2]);
    MPI_Wait(&p[2], MPI_STATUS_IGNORE);
    MPI_Status st;
    MPI_Wait(&p[3], &st);
    if (st.MPI_SOURCE != left || st.MPI_TAG != 51 || in[1][kCount - 1] != left + it * 7 + kCount - 1)
      bad("wrong message (tag 51)", rank);
  }
  for (int it = 0; it < 2; ++it) {
    for (int i = 0; i < kCount; ++i) out[2][i] = -rank - it - i;
    MPI_Start(&p[5]);
    MPI_Barrier(MPI_COMM_WORLD); /* every receive is posted before any ready send */
    MPI_Start(&p[4]);
    MPI_Waitall(2, &p[4], MPI_STATUSES_IGNORE);
    if (in[2][5] != -left - it - 5) bad("wrong value (tag 52)", rank);
  }
  int bsize = 0;
  MPI_Pack_size(kCount, MPI_INT, MPI_COMM_WORLD, &bsize);
  bsize += MPI_BSEND_OVERHEAD;
  void *bbuf = malloc((size_t)bsize);
  MPI_Buffer_attach(bbuf, bsize);
  for (int it = 0; it < 2; ++it) {
    for (int i = 0; i < kCount; ++i) out[3][i] = rank * 3 + it + i;
    MPI_Start(&p[7]);
    MPI_Start(&p[6]);
    MPI_Wait(&p[6], MPI_STATUS_IGNORE);
    int done = 0;
    while (!done) MPI_Test(&p[7], &done, MPI_STATUS_IGNORE);
    if (in[3][9] != left * 3 + it + 9) bad("wrong value (tag 53)", rank);
  }
  MPI_Buffer_detach(&bbuf, &bsize);
  free(bbuf);
  for (int i = 0; i < 8; ++i) MPI_Request_free(&p[i]);

  /* B. an active request freed; a later request's handle */
  int two[2] = {rank, -rank}, got[2] = {0, 0};
  MPI_Request r;
  MPI_Isend(two, 2, MPI_INT, right, 60, MPI_COMM_WORLD, &r);
  MPI_Request_free(&r);
  MPI_Recv(got, 2, MPI_INT, left, 60, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
  if (got[0] != left || got[1] != -left) bad("wrong value (tag 60)", rank);
  int three[2] = {rank + 3, rank + 4};
  MPI_Isend(three, 2, MPI_INT, right, 62, MPI_COMM_WORLD, &r);
  MPI_Recv(got, 2, MPI_INT, left, 62, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
  MPI_Wait(&r, MPI_STATUS_IGNORE);
  if (got[0] != left + 3) bad("wrong value (tag 62)", rank);
  int two2[2] = {rank + 5, rank + 6};
  MPI_Irecv(got, 2, MPI_INT, left, 61, MPI_COMM_WORLD, &r);
  MPI_Send(two2, 2, MPI_INT, right, 61, MPI_COMM_WORLD);
  MPI_Status st;
  MPI_Wait(&r, &st);
  if (st.MPI_TAG != 61 || got[0] != left + 5) bad("wrong message (tag 61)", rank);
  /* Sends freed while active are complete once their receives are: the
   * buffer `two` stays untouched until the barrier below. */

  /* C. a cancelled receive */
  int never = 0;
  MPI_Irecv(&never, 1, MPI_INT, MPI_ANY_SOURCE, 99, MPI_COMM_WORLD, &r);
  MPI_Cancel(&r);
  MPI_Wait(&r, &st);
  int cancelled = 0;
  MPI_Test_cancelled(&st, &cancelled);
  if (!cancelled) bad("the tag-99 receive was not cancelled", rank);
  MPI_Barrier(MPI_COMM_WORLD);

  /* D. non-blocking collectives */
  MPI_Request q[13];
  MPI_Ibarrier(MPI_COMM_WORLD, &r);
  MPI_Wait(&r, MPI_STATUS_IGNORE);
  int bc[100];
  for (int i = 0; i < 100; ++i) bc[i] = rank == 0 ? i * 2 : -1;
  MPI_Ibcast(bc, 100, MPI_INT, 0, MPI_COMM_WORLD, &r);
  MPI_Wait(&r, MPI_STATUS_IGNORE);
  if (bc[99] != 198) bad("wrong ibcast", rank);
  double one = rank + 1, sum = 0;
  MPI_Iallreduce(&one, &sum, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD, &r);
  s += work(200000);
  int done = 0;
  while (!done) MPI_Test(&r, &done, MPI_STATUS_IGNORE);
  if (sum != size * (size + 1) / 2.0) bad("wrong iallreduce", rank);

  double four[4] = {1, 2, 3, (double)rank}, four_sum[4];
  int g2[2] = {rank, rank}, g2_all[2 * kMaxRanks];
  int gv[kMaxRanks], gv_all[kMaxRanks * (kMaxRanks + 1) / 2], counts[kMaxRanks], displs[kMaxRanks];
  int at = 0;
  for (int i = 0; i < size; ++i) {
    counts[i] = i + 1;
    displs[i] = at;
    at += i + 1;
  }
  for (int i = 0; i <= rank; ++i) gv[i] = rank;
  int sc_src[3 * kMaxRanks], sc3[3], scv_src[kMaxRanks * (kMaxRanks + 1) / 2], scv[kMaxRanks];
  for (int i = 0; i < 3 * size; ++i) sc_src[i] = i;
  for (int i = 0; i < at; ++i) scv_src[i] = i;
  int ag[2 * kMaxRanks], agv[kMaxRanks * (kMaxRanks + 1) / 2];
  int a2a_out[kMaxRanks], a2a_in[kMaxRanks], a2av_out[kMaxRanks], a2av_in[kMaxRanks];
  int ones[kMaxRanks], idx[kMaxRanks];
  for (int i = 0; i < size; ++i) {
    a2a_out[i] = rank * 100 + i;
    a2av_out[i] = rank * 10 + i;
    ones[i] = 1;
    idx[i] = i;
  }
  int rs_out[2 * kMaxRanks], rs_in[2], rsb_in[2], two_each[kMaxRanks];
  for (int i = 0; i < 2 * size; ++i) rs_out[i] = 1;
  for (int i = 0; i < size; ++i) two_each[i] = 2;
  int scan_in = rank + 1, scan_out = 0, exscan_out = -7;
  MPI_Ireduce(four, four_sum, 4, MPI_DOUBLE, MPI_SUM, size - 1, MPI_COMM_WORLD, &q[0]);
  MPI_Igather(g2, 2, MPI_INT, g2_all, 2, MPI_INT, 0, MPI_COMM_WORLD, &q[1]);
  MPI_Igatherv(gv, rank + 1, MPI_INT, gv_all, counts, displs, MPI_INT, 0, MPI_COMM_WORLD, &q[2]);
  MPI_Iscatter(sc_src, 3, MPI_INT, sc3, 3, MPI_INT, 0, MPI_COMM_WORLD, &q[3]);
  MPI_Iscatterv(scv_src, counts, displs, MPI_INT, scv, rank + 1, MPI_INT, 0, MPI_COMM_WORLD, &q[4]);
  MPI_Iallgather(g2, 2, MPI_INT, ag, 2, MPI_INT, MPI_COMM_WORLD, &q[5]);
  MPI_Iallgatherv(gv, rank + 1, MPI_INT, agv, counts, displs, MPI_INT, MPI_COMM_WORLD, &q[6]);
  MPI_Ialltoall(a2a_out, 1, MPI_INT, a2a_in, 1, MPI_INT, MPI_COMM_WORLD, &q[7]);
  MPI_Ialltoallv(a2av_out, ones, idx, MPI_INT, a2av_in, ones, idx, MPI_INT, MPI_COMM_WORLD, &q[8]);
  MPI_Ireduce_scatter(rs_out, rs_in, two_each, MPI_INT, MPI_SUM, MPI_COMM_WORLD, &q[9]);
  MPI_Ireduce_scatter_block(rs_out, rsb_in, 2, MPI_INT, MPI_SUM, MPI_COMM_WORLD, &q[10]);
  MPI_Iscan(&scan_in, &scan_out, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD, &q[11]);
  MPI_Iexscan(&scan_in, &exscan_out, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD, &q[12]);
  MPI_Waitall(13, q, MPI_STATUSES_IGNORE);
  if (rank == size - 1 && four_sum[1] != 2.0 * size) bad("wrong ireduce", rank);
  if (rank == 0 && (g2_all[2 * size - 1] != size - 1 || gv_all[at - 1] != size - 1))
    bad("wrong igather(v)", rank);
  if (sc3[2] != 3 * rank + 2 || scv[rank] != displs[rank] + rank) bad("wrong iscatter(v)", rank);
  if (ag[2 * size - 2] != size - 1 || agv[at - 1] != size - 1) bad("wrong iallgather(v)", rank);
  if (a2a_in[left] != left * 100 + rank || a2av_in[right] != right * 10 + rank)
    bad("wrong ialltoall(v)", rank);
  if (rs_in[1] != size || rsb_in[0] != size) bad("wrong ireduce_scatter(_block)", rank);
  if (scan_out != (rank + 1) * (rank + 2) / 2 || (rank > 0 && exscan_out != rank * (rank + 1) / 2))
    bad("wrong iscan/iexscan", rank);

  if (rank == 0) printf("requests: %d ranks ok (%.0f)\n", size, s);
  MPI_Finalize();
  return 0;
}
