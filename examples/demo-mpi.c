/* A small MPI + OpenMP program (what `./run.sh demo-mpi` traces at 2 ranks
 * x 2 threads): each step, every rank computes its part in an OpenMP
 * parallel loop, exchanges halo values with its neighbours in a ring
 * (MPI_Sendrecv) and agrees on a residual (MPI_Allreduce). The last rank
 * has half as much work again as the others, so the others wait for it in
 * the exchange and in the allreduce: the trace shows those waits on the
 * MPI tracks, the flows from each send to its receive, and the profile
 * blames the waiting on the last rank's loop. Built with Open MPI's mpicc
 * -fopenmp -g; run it on Kite through `kite`. */
#include <dlfcn.h>
#include <math.h>
#include <mpi.h>
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>

enum { N = 1000000, STEPS = 20 };

/* One step's work on this rank's block: `rounds` sweeps of a smoothing. */
static double relax(double *u, long n, int rounds) {
  double change = 0;
  for (int r = 0; r < rounds; ++r) {
    change = 0;
#pragma omp parallel for reduction(+ : change) schedule(static)
    for (long i = 1; i < n - 1; ++i) {
      double v = 0.5 * u[i] + 0.25 * (u[i - 1] + u[i + 1]);
      change += fabs(v - u[i]);
      u[i] = v;
    }
  }
  return change;
}

int main(int argc, char **argv) {
  int provided, rank, size;
  MPI_Init_thread(&argc, &argv, MPI_THREAD_FUNNELED, &provided);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  const char *(*kite_version)(void) =
      (const char *(*)(void))dlsym(RTLD_DEFAULT, "kite_runtime_version");
  if (rank == 0)
    printf("runtime: %s; %d ranks x %d threads\n",
           kite_version ? kite_version() : "not Kite (system libgomp?)", size,
           omp_get_max_threads());

  double *u = malloc(sizeof(double) * (N + 2));
  for (long i = 0; i < N + 2; ++i) u[i] = (double)((i * 7 + rank * 13) % 100);
  int rounds = rank == size - 1 ? 3 : 2; /* the last rank: 1.5 times the work */
  int right = (rank + 1) % size, left = (rank + size - 1) % size;
  double residual = 0;
  for (int step = 0; step < STEPS; ++step) {
    double change = relax(u, N + 2, rounds);
    MPI_Sendrecv(&u[N], 1, MPI_DOUBLE, right, 1, &u[0], 1, MPI_DOUBLE, left, 1,
                 MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    MPI_Sendrecv(&u[1], 1, MPI_DOUBLE, left, 2, &u[N + 1], 1, MPI_DOUBLE, right, 2,
                 MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    MPI_Allreduce(&change, &residual, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
  }
  if (rank == 0) printf("residual after %d steps: %.3f\n", STEPS, residual);
  free(u);
  MPI_Finalize();
  return 0;
}
