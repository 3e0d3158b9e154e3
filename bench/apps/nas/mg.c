/* mg: the shape of NPB MG. V-cycle multigrid for the periodic 3-D Poisson
 * equation -lap u = f on an n^3 grid (7-point stencil), weighted Jacobi
 * smoothing, full-weighting restriction and trilinear prolongation down to
 * a 2^3 grid. Every grid operation is its own parallel loop (collapse(2),
 * static), so the coarse levels are many very short parallel regions; the
 * residual norm is a reduction.
 *
 * f is the discrete Laplacian of a known field (two Fourier modes, exact
 * eigenvectors of the stencil), so the answer is known analytically.
 * Verified: after CYCLES V-cycles the residual norm has dropped below 1e-6
 * of its start and u equals the known field to 1e-6 of its largest value.
 * Usage: mg [LOG2_N [CYCLES]]   (default 7 14) */
#include <math.h>
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>

void app_runtime_report(void);

#define MAXL 12
static int levels;
static int nl[MAXL];
static double *U[MAXL], *F[MAXL], *R[MAXL];

#define AT(a, n, i, j, k) (a)[(((long)((k) & ((n)-1)) * (n)) + ((j) & ((n)-1))) * (n) + ((i) & ((n)-1))]

/* r = f - A u on level l, A = -lap / h^2 with h = 1/n */
static void residual(int l) {
  int n = nl[l];
  double h2i = (double)n * n;
  double *u = U[l], *f = F[l], *r = R[l];
#pragma omp parallel for collapse(2) schedule(static)
  for (int k = 0; k < n; ++k)
    for (int j = 0; j < n; ++j)
      for (int i = 0; i < n; ++i) {
        double au = 6 * AT(u, n, i, j, k) - AT(u, n, i - 1, j, k) - AT(u, n, i + 1, j, k) - AT(u, n, i, j - 1, k) -
                    AT(u, n, i, j + 1, k) - AT(u, n, i, j, k - 1) - AT(u, n, i, j, k + 1);
        AT(r, n, i, j, k) = AT(f, n, i, j, k) - h2i * au;
      }
}

/* weighted Jacobi: u += w r h^2 / 6, after residual() */
static void smooth(int l, int sweeps) {
  int n = nl[l];
  double c = (6.0 / 7.0) / (6.0 * n * n);
  for (int s = 0; s < sweeps; ++s) {
    residual(l);
    double *u = U[l], *r = R[l];
#pragma omp parallel for schedule(static)
    for (long p = 0; p < (long)n * n * n; ++p) u[p] += c * r[p];
  }
}

static void restrict_to(int l) { /* R[l] (fine) -> F[l+1] (coarse), full weighting */
  int n = nl[l + 1];
  double *r = R[l], *f = F[l + 1];
  int m = nl[l];
#pragma omp parallel for collapse(2) schedule(static)
  for (int k = 0; k < n; ++k)
    for (int j = 0; j < n; ++j)
      for (int i = 0; i < n; ++i) {
        double s = 0;
        for (int c = -1; c <= 1; ++c)
          for (int b = -1; b <= 1; ++b)
            for (int a = -1; a <= 1; ++a)
              s += (double)((2 - abs(a)) * (2 - abs(b)) * (2 - abs(c))) * AT(r, m, 2 * i + a, 2 * j + b, 2 * k + c);
        AT(f, n, i, j, k) = s / 64.0;
      }
}

static void prolong_add(int l) { /* U[l+1] (coarse) -> added to U[l], trilinear */
  int n = nl[l], m = nl[l + 1];
  double *u = U[l], *e = U[l + 1];
#pragma omp parallel for collapse(2) schedule(static)
  for (int k = 0; k < n; ++k)
    for (int j = 0; j < n; ++j)
      for (int i = 0; i < n; ++i) {
        int i0 = i >> 1, j0 = j >> 1, k0 = k >> 1, di = i & 1, dj = j & 1, dk = k & 1;
        double s = 0;
        for (int c = 0; c <= dk; ++c)
          for (int b = 0; b <= dj; ++b)
            for (int a = 0; a <= di; ++a) s += AT(e, m, i0 + a, j0 + b, k0 + c);
        AT(u, n, i, j, k) += s / (double)((1 + di) * (1 + dj) * (1 + dk));
      }
}

static void zero(int l) {
  long N = (long)nl[l] * nl[l] * nl[l];
  double *u = U[l];
#pragma omp parallel for schedule(static)
  for (long p = 0; p < N; ++p) u[p] = 0;
}

static void vcycle(int l) {
  if (l == levels - 1) {
    smooth(l, 8);
    return;
  }
  smooth(l, 2);
  residual(l);
  restrict_to(l);
  zero(l + 1);
  vcycle(l + 1);
  prolong_add(l);
  smooth(l, 2);
}

static double norm(int l) {
  long N = (long)nl[l] * nl[l] * nl[l];
  double s = 0, *r = R[l];
#pragma omp parallel for schedule(static) reduction(+ : s)
  for (long p = 0; p < N; ++p) s += r[p] * r[p];
  return sqrt(s / N);
}

int main(int argc, char **argv) {
  int lg = argc > 1 ? atoi(argv[1]) : 7, cycles = argc > 2 ? atoi(argv[2]) : 14;
  if (lg < 2 || lg > 10 || cycles < 1) {
    fprintf(stderr, "mg: need LOG2_N in 2..10 and CYCLES >= 1\n");
    return 2;
  }
  app_runtime_report();
  levels = lg;
  for (int l = 0; l < levels; ++l) {
    nl[l] = 1 << (lg - l);
    long N = (long)nl[l] * nl[l] * nl[l];
    U[l] = calloc(N, sizeof(double));
    F[l] = calloc(N, sizeof(double));
    R[l] = calloc(N, sizeof(double));
  }
  int n = nl[0];
  /* u* = sin(2 pi x) sin(2 pi y) sin(2 pi z) + 0.5 cos(4 pi x) cos(2 pi z):
   * f = lambda u* per mode, lambda = (4/h^2) sum sin^2(pi m h) */
  double h = 1.0 / n, big = 1.5;
  double lam1 = 3 * 4 * n * n * pow(sin(M_PI * h), 2);
  double lam2 = 4 * n * n * (pow(sin(2 * M_PI * h), 2) + pow(sin(M_PI * h), 2));
  double *ustar = malloc(sizeof(double) * n * n * n);
  for (int k = 0; k < n; ++k)
    for (int j = 0; j < n; ++j)
      for (int i = 0; i < n; ++i) {
        double x = i * h, y = j * h, z = k * h;
        double m1 = sin(2 * M_PI * x) * sin(2 * M_PI * y) * sin(2 * M_PI * z), m2 = 0.5 * cos(4 * M_PI * x) * cos(2 * M_PI * z);
        AT(ustar, n, i, j, k) = m1 + m2;
        AT(F[0], n, i, j, k) = lam1 * m1 + lam2 * m2;
      }
  double t0 = omp_get_wtime();
  residual(0);
  double r0 = norm(0), rn = r0;
  for (int c = 0; c < cycles; ++c) {
    vcycle(0);
    residual(0);
    rn = norm(0);
  }
  double secs = omp_get_wtime() - t0;
  double err = 0;
  for (long p = 0; p < (long)n * n * n; ++p) err = fmax(err, fabs(U[0][p] - ustar[p]));
  int ok = rn < 1e-6 * r0 && err < 1e-6 * big;
  printf("mg: %d^3 levels=%d cycles=%d residual %.3e -> %.3e (factor/cycle %.3f) error %.2e time %.3f s\n", n,
         levels, cycles, r0, rn, pow(rn / r0, 1.0 / cycles), err, secs);
  printf("%s\n", ok ? "OK" : "FAILED");
  return ok ? 0 : 1;
}
