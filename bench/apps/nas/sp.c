/* sp: the shape of NPB SP. ADI time steps of an implicit scheme on an n^3
 * grid (Dirichlet): each step solves, in x, then y, then z, one scalar
 * pentadiagonal system per grid line, (I + dt (a (-D2) / h^2 + b D2^2 / h^4))
 * v = u, factoring the banded matrix of each line afresh (as SP does) and
 * substituting; one parallel loop (collapse(2), static) over the lines of
 * each direction, lines gathered into a per-thread buffer. Each step ends
 * with a max-norm reduction in its own parallel region.
 *
 * A product of sines is an eigenvector of each line operator (D2^2 with
 * the boundary rows of the squared second difference), so each direction
 * multiplies it by 1 / (1 + dt (a lam + b lam^2)), lam = 4 / h^2 sin^2(pi h / 2).
 * Verified: after STEPS steps u equals the sine mode times that factor to
 * the power 3 STEPS, to 1e-10 of its largest value.
 * Usage: sp [N [STEPS]]   (default 64 100) */
#include <math.h>
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>

void app_runtime_report(void);

static int n;
static double *u, ca, cb; /* ca = dt a / h^2, cb = dt b / h^4 */
#define U(i, j, k) u[(((long)(k) * n) + (j)) * n + (i)]

/* Solve the pentadiagonal line system in place: x[0..n) holds the right side. */
static void penta(double *x, double *w) {
  double *e = w, *c = w + n, *d = w + 2 * n, *a = w + 3 * n, *b = w + 4 * n;
  for (int i = 0; i < n; ++i) { /* bands: e (i-2), c (i-1), d, a (i+1), b (i+2) */
    e[i] = cb;
    c[i] = -ca - 4 * cb;
    d[i] = 1 + 2 * ca + 6 * cb;
    a[i] = -ca - 4 * cb;
    b[i] = cb;
  }
  d[0] -= cb;
  d[n - 1] -= cb;
  /* Gaussian elimination without pivoting (the matrix is SPD) */
  for (int i = 0; i < n - 1; ++i) {
    double l1 = c[i + 1] / d[i];
    d[i + 1] -= l1 * a[i];
    a[i + 1] -= l1 * b[i];
    x[i + 1] -= l1 * x[i];
    if (i + 2 < n) {
      double l2 = e[i + 2] / d[i];
      c[i + 2] -= l2 * a[i];
      d[i + 2] -= l2 * b[i];
      x[i + 2] -= l2 * x[i];
    }
  }
  x[n - 1] /= d[n - 1];
  x[n - 2] = (x[n - 2] - a[n - 2] * x[n - 1]) / d[n - 2];
  for (int i = n - 3; i >= 0; --i) x[i] = (x[i] - a[i] * x[i + 1] - b[i] * x[i + 2]) / d[i];
}

static void sweep(int dir) {
#pragma omp parallel
  {
    double *x = malloc(sizeof(double) * n), *w = malloc(sizeof(double) * 5 * n);
#pragma omp for collapse(2) schedule(static)
    for (int p = 0; p < n; ++p)
      for (int q = 0; q < n; ++q) {
        for (int r = 0; r < n; ++r) x[r] = dir == 0 ? U(r, q, p) : dir == 1 ? U(q, r, p) : U(q, p, r);
        penta(x, w);
        for (int r = 0; r < n; ++r) {
          if (dir == 0)
            U(r, q, p) = x[r];
          else if (dir == 1)
            U(q, r, p) = x[r];
          else
            U(q, p, r) = x[r];
        }
      }
    free(x);
    free(w);
  }
}

int main(int argc, char **argv) {
  n = argc > 1 ? atoi(argv[1]) : 64;
  int steps = argc > 2 ? atoi(argv[2]) : 100;
  if (n < 4 || n > 1000 || steps < 1) {
    fprintf(stderr, "sp: need N in 4..1000 and STEPS >= 1\n");
    return 2;
  }
  app_runtime_report();
  long N = (long)n * n * n;
  u = malloc(sizeof(double) * N);
  double h = 1.0 / (n + 1), dt = 1e-3, a = 1.0, b = 1e-3;
  ca = dt * a / (h * h);
  cb = dt * b / (h * h * h * h);
  double lam = 4 / (h * h) * pow(sin(M_PI * h / 2), 2), g = 1 / (1 + dt * (a * lam + b * lam * lam));
  for (int k = 0; k < n; ++k)
    for (int j = 0; j < n; ++j)
      for (int i = 0; i < n; ++i) U(i, j, k) = sin(M_PI * (i + 1) * h) * sin(M_PI * (j + 1) * h) * sin(M_PI * (k + 1) * h);
  double t0 = omp_get_wtime(), mx = 0;
  for (int s = 0; s < steps; ++s) {
    sweep(0);
    sweep(1);
    sweep(2);
    mx = 0;
#pragma omp parallel for schedule(static) reduction(max : mx)
    for (long p = 0; p < N; ++p) mx = fmax(mx, fabs(u[p]));
  }
  double secs = omp_get_wtime() - t0;
  double factor = pow(g, 3.0 * steps), err = 0, big = 0;
  for (int k = 0; k < n; ++k)
    for (int j = 0; j < n; ++j)
      for (int i = 0; i < n; ++i) {
        double e = factor * sin(M_PI * (i + 1) * h) * sin(M_PI * (j + 1) * h) * sin(M_PI * (k + 1) * h);
        err = fmax(err, fabs(U(i, j, k) - e));
        big = fmax(big, fabs(e));
      }
  int ok = err < 1e-10 * big && fabs(mx - big) < 1e-10 * big;
  printf("sp: %d^3 steps=%d max %.12f (expect %.12f) error %.2e time %.3f s\n", n, steps, mx, big, err / big, secs);
  printf("%s\n", ok ? "OK" : "FAILED");
  return ok ? 0 : 1;
}
