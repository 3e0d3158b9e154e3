/* Collective operations, N world ranks (N >= 2). What it must produce, on
 * every rank, in this order (bytes as mpi_format.h counts them: pairwise
 * transfers, the rank itself included):
 *    1 MPI_Allreduce  world, 1 double
 *    2 MPI_Barrier    world
 *    3 MPI_Bcast      world, root 0, 10 ints
 *    4 MPI_Reduce     world, root N-1, 4 doubles
 *    5 MPI_Gather     world, root 0, 2 ints from each rank
 *    6 MPI_Scatter    world, root 0, 3 ints to each rank
 *    7 MPI_Alltoall   world, 1 int to each rank
 *    8 MPI_Alltoallv  world, rank r sends r+1 ints to each rank
 *    9 MPI_Allgather  world, 1 int from each rank
 *   10 MPI_Comm_split world -> "half": color rank % 2, key rank
 *   11 MPI_Allreduce  half, 1 int (the sum of the half's world ranks)
 *   12 MPI_Barrier    half
 *   13 MPI_Comm_free  half
 *   14 MPI_Comm_dup   world -> "dup"
 *   15 MPI_Bcast      dup, root 1, 1 int
 *   16 MPI_Comm_free  dup
 *   17 MPI_Comm_create world, group {0, 1} -> "pair" (MPI_COMM_NULL on the
 *                    other ranks: nothing to agree there)
 *   18 MPI_Barrier    pair (ranks 0 and 1 only), then MPI_Comm_free
 *   19 MPI_Cart_create (not wrapped) world -> "ring", periodic, no reorder
 *   20 MPI_Sendrecv   ring: 1 int (4 bytes) to the right, tag 30, from the
 *                    left: a communicator the wrappers did not see made,
 *                    id kUnseenBase | hash of its members, the same on
 *                    every rank; then MPI_Comm_free
 * So ranks 0 and 1 record 13 kMpiCollective, the others 12 (9 on world, 2
 * on its half, 1 on dup, 1 on the pair), the half's members are the world
 * ranks of one parity, the new communicators have ids agreed by their
 * members (mpi_format.h), and N messages of 4 bytes go round the ring.
 * Results are checked; a wrong one exits 1. */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

#define FAIL(...)                                   \
  do {                                              \
    fprintf(stderr, "collectives: " __VA_ARGS__);   \
    return 1;                                       \
  } while (0)

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  int rank, n;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &n);
  double one = rank + 1, sum = 0;
  double work = 0;
#pragma omp parallel for reduction(+ : work)
  for (int i = 0; i < 100000; ++i) work += i % 3;
  if (work < 0) return 1;
  MPI_Allreduce(&one, &sum, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
  if (sum != n * (n + 1) / 2.0) FAIL("allreduce %f\n", sum);
  MPI_Barrier(MPI_COMM_WORLD);
  int ten[10];
  for (int i = 0; i < 10; ++i) ten[i] = rank == 0 ? 5 * i : -1;
  MPI_Bcast(ten, 10, MPI_INT, 0, MPI_COMM_WORLD);
  for (int i = 0; i < 10; ++i)
    if (ten[i] != 5 * i) FAIL("bcast %d at %d\n", ten[i], i);
  double four[4] = {rank, rank, rank, rank}, red[4];
  MPI_Reduce(four, red, 4, MPI_DOUBLE, MPI_SUM, n - 1, MPI_COMM_WORLD);
  if (rank == n - 1 && red[3] != n * (n - 1) / 2.0) FAIL("reduce %f\n", red[3]);
  int two[2] = {rank, -rank}, *all = malloc(sizeof(int) * 4 * (size_t)n);
  MPI_Gather(two, 2, MPI_INT, all, 2, MPI_INT, 0, MPI_COMM_WORLD);
  if (rank == 0)
    for (int r = 0; r < n; ++r)
      if (all[2 * r] != r || all[2 * r + 1] != -r) FAIL("gather from %d\n", r);
  int three[3];
  if (rank == 0)
    for (int i = 0; i < 3 * n; ++i) all[i] = i;
  MPI_Scatter(all, 3, MPI_INT, three, 3, MPI_INT, 0, MPI_COMM_WORLD);
  if (three[2] != 3 * rank + 2) FAIL("scatter %d\n", three[2]);
  int *sa = malloc(sizeof(int) * (size_t)n), *ra = malloc(sizeof(int) * (size_t)n);
  for (int r = 0; r < n; ++r) sa[r] = rank * 100 + r;
  MPI_Alltoall(sa, 1, MPI_INT, ra, 1, MPI_INT, MPI_COMM_WORLD);
  for (int r = 0; r < n; ++r)
    if (ra[r] != r * 100 + rank) FAIL("alltoall %d from %d\n", ra[r], r);
  int *sc = malloc(sizeof(int) * (size_t)n), *sd = malloc(sizeof(int) * (size_t)n);
  int *rc = malloc(sizeof(int) * (size_t)n), *rd = malloc(sizeof(int) * (size_t)n);
  int *sv = malloc(sizeof(int) * (size_t)(n * (rank + 1))), total = 0;
  for (int r = 0; r < n; ++r) {
    sc[r] = rank + 1;
    sd[r] = r * (rank + 1);
    rc[r] = r + 1;
    rd[r] = total;
    total += r + 1;
  }
  int *rv = malloc(sizeof(int) * (size_t)total);
  for (int i = 0; i < n * (rank + 1); ++i) sv[i] = rank;
  MPI_Alltoallv(sv, sc, sd, MPI_INT, rv, rc, rd, MPI_INT, MPI_COMM_WORLD);
  for (int r = 0; r < n; ++r)
    if (rv[rd[r]] != r) FAIL("alltoallv %d from %d\n", rv[rd[r]], r);
  MPI_Allgather(&rank, 1, MPI_INT, ra, 1, MPI_INT, MPI_COMM_WORLD);
  for (int r = 0; r < n; ++r)
    if (ra[r] != r) FAIL("allgather %d from %d\n", ra[r], r);
  MPI_Comm half;
  MPI_Comm_split(MPI_COMM_WORLD, rank % 2, rank, &half);
  int hsum = 0, want = 0;
  for (int r = rank % 2; r < n; r += 2) want += r;
  MPI_Allreduce(&rank, &hsum, 1, MPI_INT, MPI_SUM, half);
  if (hsum != want) FAIL("allreduce on the half: %d, want %d\n", hsum, want);
  MPI_Barrier(half);
  MPI_Comm_free(&half);
  MPI_Comm dup;
  MPI_Comm_dup(MPI_COMM_WORLD, &dup);
  int v = rank == 1 ? 4242 : 0;
  MPI_Bcast(&v, 1, MPI_INT, 1, dup);
  if (v != 4242) FAIL("bcast on dup %d\n", v);
  MPI_Comm_free(&dup);
  MPI_Group wg, pg;
  int pair_ranks[2] = {0, 1};
  MPI_Comm_group(MPI_COMM_WORLD, &wg);
  MPI_Group_incl(wg, 2, pair_ranks, &pg);
  MPI_Comm pair;
  MPI_Comm_create(MPI_COMM_WORLD, pg, &pair);
  if ((pair == MPI_COMM_NULL) != (rank > 1)) FAIL("comm_create gave rank %d %s\n", rank,
                                                  pair == MPI_COMM_NULL ? "no comm" : "a comm");
  if (pair != MPI_COMM_NULL) {
    MPI_Barrier(pair);
    MPI_Comm_free(&pair);
  }
  MPI_Group_free(&pg);
  MPI_Group_free(&wg);
  MPI_Comm ring;
  int dims[1] = {n}, periods[1] = {1};
  MPI_Cart_create(MPI_COMM_WORLD, 1, dims, periods, 0, &ring);
  int from = -1, left, right;
  MPI_Cart_shift(ring, 0, 1, &left, &right);
  MPI_Sendrecv(&rank, 1, MPI_INT, right, 30, &from, 1, MPI_INT, left, 30, ring,
               MPI_STATUS_IGNORE);
  if (from != left) FAIL("ring: got %d from %d\n", from, left);
  MPI_Comm_free(&ring);
  printf("collectives: rank %d of %d done\n", rank, n);
  MPI_Finalize();
  return 0;
}
