/* cg: conjugate gradients on the 5-point Laplacian of an N x N grid, the
 * shape of NPB CG and of many solvers: every iteration is a sparse
 * matrix-vector product, two dot products and three vector updates, each
 * its own short parallel region (dots with a reduction). Many small
 * regions per second: the most events per second of the three apps.
 *
 * Solves A x = b with b = A x_true from x = 0 to a relative residual of
 * 1e-10, SOLVES times, and checks x against x_true.
 * Usage: cg [N [SOLVES]]   (default 160 24: about 1 s at 2 threads) */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

static int n;          /* grid side; unknowns n * n */
static long rows;

/* y = A x, A = 4 on the diagonal, -1 for each grid neighbour (CSR-free:
 * the stencil is the matrix). */
static void matvec(const double *x, double *y) {
#pragma omp parallel for schedule(static)
  for (long r = 0; r < rows; ++r) {
    long i = r / n, j = r % n;
    double v = 4.0 * x[r];
    if (i > 0) v -= x[r - n];
    if (i < n - 1) v -= x[r + n];
    if (j > 0) v -= x[r - 1];
    if (j < n - 1) v -= x[r + 1];
    y[r] = v;
  }
}

static double dot(const double *a, const double *b) {
  double s = 0;
#pragma omp parallel for schedule(static) reduction(+ : s)
  for (long r = 0; r < rows; ++r) s += a[r] * b[r];
  return s;
}

/* y = a * x + y */
static void axpy(double a, const double *x, double *y) {
#pragma omp parallel for schedule(static)
  for (long r = 0; r < rows; ++r) y[r] += a * x[r];
}

/* p = r + beta * p */
static void xpby(const double *r_, double beta, double *p) {
#pragma omp parallel for schedule(static)
  for (long r = 0; r < rows; ++r) p[r] = r_[r] + beta * p[r];
}

static int solve(const double *b, double *x, double *r, double *p, double *q, double tol) {
#pragma omp parallel for schedule(static)
  for (long k = 0; k < rows; ++k) {
    x[k] = 0;
    r[k] = b[k];
    p[k] = b[k];
  }
  double rr = dot(r, r), stop = tol * tol * rr;
  int it = 0;
  while (rr > stop && it < 100000) {
    matvec(p, q);
    double alpha = rr / dot(p, q);
    axpy(alpha, p, x);
    axpy(-alpha, q, r);
    double rr_new = dot(r, r);
    xpby(r, rr_new / rr, p);
    rr = rr_new;
    ++it;
  }
  return it;
}

int main(int argc, char **argv) {
  n = argc > 1 ? atoi(argv[1]) : 160;
  int solves = argc > 2 ? atoi(argv[2]) : 24;
  if (n < 4 || solves < 1) {
    fprintf(stderr, "usage: cg [N>=4 [SOLVES>=1]]\n");
    return 2;
  }
  rows = (long)n * n;
  double *xt = malloc(sizeof(double) * rows), *b = malloc(sizeof(double) * rows);
  double *x = malloc(sizeof(double) * rows), *r = malloc(sizeof(double) * rows);
  double *p = malloc(sizeof(double) * rows), *q = malloc(sizeof(double) * rows);
  for (long k = 0; k < rows; ++k) xt[k] = sin(0.001 * (double)k) + 0.5 * cos(0.37 * (double)(k % 97));
  matvec(xt, b);
  long iterations = 0;
  double worst = 0;
  for (int s = 0; s < solves; ++s) {
    iterations += solve(b, x, r, p, q, 1e-10);
    double err = 0, norm = 0;
    for (long k = 0; k < rows; ++k) {
      err += (x[k] - xt[k]) * (x[k] - xt[k]);
      norm += xt[k] * xt[k];
    }
    err = sqrt(err / norm);
    if (err > worst) worst = err;
  }
  /* cond(A) < 0.5 n^2: a residual of 1e-10 bounds the error by ~1e-6. */
  int ok = worst < 1e-5;
  printf("cg: n=%d solves=%d iterations=%ld (%ld parallel regions) relative error %.2e: %s\n", n,
         solves, iterations, 6 * iterations + 2 * solves + 1, worst, ok ? "OK" : "FAILED");
  free(xt), free(b), free(x), free(r), free(p), free(q);
  return ok ? 0 : 1;
}
