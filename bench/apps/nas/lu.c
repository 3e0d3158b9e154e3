/* lu: the shape of NPB LU. SSOR iterations for -lap u = f on an n^3 grid
 * (Dirichlet, 7-point stencil): a forward Gauss-Seidel sweep in
 * lexicographic order (each point uses the new values below it in i, j and
 * k), a backward sweep in the reverse order, then a residual norm (a
 * reduction). The sweeps are pipelined over the k planes:
 *   flush mode (default): one parallel region for the whole run; each
 *     thread owns a block of j rows; at plane k it spins with
 *     `#pragma omp flush` on a one-slot mailbox until its predecessor has
 *     posted that it finished plane k, takes the post, sweeps its rows,
 *     and posts to its successor once that one took the previous post
 *     (NPB LU's scheme: neighbours in lock step; it collapses when threads
 *     outnumber cores, since a spinning thread holds the core the thread
 *     it waits for needs).
 *   doacross mode: a `for ordered(2)` loop over (k, j) per sweep,
 *     schedule(static, 1) over k, each row waiting with
 *     `ordered depend(sink: ...)` for the rows it reads.
 *
 * Verified: the first iteration's result equals a serial SSOR iteration
 * from the same start (the sweeps keep the serial order of every update,
 * so to 1e-13), and the residual falls below RATIO of its start after
 * ITERS iterations (f = the discrete Laplacian of a sine mode).
 * Usage: lu [N [ITERS [flush|doacross]]]   (default 96 60 flush) */
#include <math.h>
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void app_runtime_report(void);

#define MAXT 256
static int n, m;                  /* interior n, with the boundary m = n + 2 */
static double *u, *f, h2, omega = 1.8;
static int fwd[MAXT][16], bwd[MAXT][16]; /* hand-off slots, one cache line each */

#define A(a, i, j, k) (a)[(((long)(k) * m) + (j)) * m + (i)]

static inline void relax(int i, int j, int k) {
  double nb = A(u, i - 1, j, k) + A(u, i + 1, j, k) + A(u, i, j - 1, k) + A(u, i, j + 1, k) + A(u, i, j, k - 1) +
              A(u, i, j, k + 1);
  double gs = (nb + h2 * A(f, i, j, k)) / 6.0;
  A(u, i, j, k) += omega * (gs - A(u, i, j, k));
}

static void row_fwd(int j, int k) {
  for (int i = 1; i <= n; ++i) relax(i, j, k);
}
static void row_bwd(int j, int k) {
  for (int i = n; i >= 1; --i) relax(i, j, k);
}

static double resid_norm(void) {
  double s = 0;
#pragma omp parallel for collapse(2) schedule(static) reduction(+ : s)
  for (int k = 1; k <= n; ++k)
    for (int j = 1; j <= n; ++j)
      for (int i = 1; i <= n; ++i) {
        double au = (6 * A(u, i, j, k) - A(u, i - 1, j, k) - A(u, i + 1, j, k) - A(u, i, j - 1, k) -
                     A(u, i, j + 1, k) - A(u, i, j, k - 1) - A(u, i, j, k + 1)) / h2;
        double r = A(f, i, j, k) - au;
        s += r * r;
      }
  return sqrt(s / ((double)n * n * n));
}

static void serial_iteration(void) {
  for (int k = 1; k <= n; ++k)
    for (int j = 1; j <= n; ++j) row_fwd(j, k);
  for (int k = n; k >= 1; --k)
    for (int j = n; j >= 1; --j) row_bwd(j, k);
}

/* Waits (flushing) until *f == want, then stores next into it: one slot of
 * a two-way hand-off between neighbours. */
static inline void take_slot(int *f, int want, int next) {
  for (;;) {
#pragma omp flush
    if (*f == want) break;
  }
  *f = next;
#pragma omp flush
}

/* ITERS iterations, flag pipeline; snap gets u after the first. Between
 * neighbours a one-slot mailbox per direction (NPB LU's shape): thread t
 * may start plane k when its predecessor has posted (slot 1) and takes the
 * post (slot 0); it posts to its successor only once the successor took
 * the previous post. Neither runs ahead of the other by more than one
 * plane, so every hand-off needs both threads on a processor. */
static void run_flush(int iters, double *snap) {
#pragma omp parallel
  {
    int t = omp_get_thread_num(), nt = omp_get_num_threads();
    int j0 = 1 + (int)((long)n * t / nt), j1 = (int)((long)n * (t + 1) / nt);
    for (int it = 0; it < iters; ++it) {
      for (int k = 1; k <= n; ++k) { /* forward: wait for thread t-1 to finish plane k */
        if (t > 0) take_slot(&fwd[t - 1][0], 1, 0);
        for (int j = j0; j <= j1; ++j) row_fwd(j, k);
        if (t < nt - 1) take_slot(&fwd[t][0], 0, 1);
      }
      for (int k = n; k >= 1; --k) { /* backward: wait for thread t+1 */
        if (t < nt - 1) take_slot(&bwd[t + 1][0], 1, 0);
        for (int j = j1; j >= j0; --j) row_bwd(j, k);
        if (t > 0) take_slot(&bwd[t][0], 0, 1);
      }
#pragma omp barrier
      if (it == 0) {
#pragma omp single
        memcpy(snap, u, sizeof(double) * m * m * m);
      }
    }
  }
}

static void run_doacross(int iters, double *snap) {
  for (int it = 0; it < iters; ++it) {
#pragma omp parallel
    {
#pragma omp for ordered(2) schedule(static, 1)
      for (int k = 1; k <= n; ++k)
        for (int j = 1; j <= n; ++j) {
#pragma omp ordered depend(sink : k - 1, j) depend(sink : k, j - 1)
          row_fwd(j, k);
#pragma omp ordered depend(source)
        }
#pragma omp for ordered(2) schedule(static, 1)
      for (int k = n; k >= 1; --k)
        for (int j = n; j >= 1; --j) {
#pragma omp ordered depend(sink : k + 1, j) depend(sink : k, j + 1)
          row_bwd(j, k);
#pragma omp ordered depend(source)
        }
    }
    if (it == 0) memcpy(snap, u, sizeof(double) * m * m * m);
  }
}

int main(int argc, char **argv) {
  n = argc > 1 ? atoi(argv[1]) : 96;
  int iters = argc > 2 ? atoi(argv[2]) : 60;
  const char *mode = argc > 3 ? argv[3] : "flush";
  int doacross = strcmp(mode, "doacross") == 0;
  if (n < 4 || n > 1000 || iters < 2 || (!doacross && strcmp(mode, "flush") != 0)) {
    fprintf(stderr, "lu: need N in 4..1000, ITERS >= 2, mode flush or doacross\n");
    return 2;
  }
  app_runtime_report();
  if (omp_get_max_threads() > MAXT) {
    fprintf(stderr, "lu: at most %d threads\n", MAXT);
    return 2;
  }
  m = n + 2;
  long M = (long)m * m * m;
  u = calloc(M, sizeof(double));
  f = calloc(M, sizeof(double));
  double *snap = malloc(sizeof(double) * M), *ref = malloc(sizeof(double) * M);
  double hh = 1.0 / (n + 1);
  h2 = hh * hh;
  double lam = 3 * 4 / h2 * pow(sin(M_PI * hh / 2), 2);
  for (int k = 1; k <= n; ++k)
    for (int j = 1; j <= n; ++j)
      for (int i = 1; i <= n; ++i) A(f, i, j, k) = lam * sin(M_PI * i * hh) * sin(M_PI * j * hh) * sin(M_PI * k * hh);
  double r0 = resid_norm(), t0 = omp_get_wtime();
  if (doacross)
    run_doacross(iters, snap);
  else
    run_flush(iters, snap);
  double rn = resid_norm(), secs = omp_get_wtime() - t0;
  /* serial first iteration from the same start */
  double *par = u;
  u = ref;
  memset(u, 0, sizeof(double) * M);
  serial_iteration();
  double diff = 0, big = 0;
  for (long p = 0; p < M; ++p) {
    diff = fmax(diff, fabs(snap[p] - ref[p]));
    big = fmax(big, fabs(ref[p]));
  }
  u = par;
  int ok = diff <= 1e-13 * big && rn < 0.5 * r0 && isfinite(rn);
  printf("lu: %d^3 iters=%d mode=%s residual %.4e -> %.4e first-iteration diff %.2e time %.3f s\n", n, iters, mode,
         r0, rn, diff, secs);
  printf("%s\n", ok ? "OK" : "FAILED");
  return ok ? 0 : 1;
}
