/* bt: the shape of NPB BT. ADI time steps of an implicit scheme for a
 * system of 5 coupled fields on an n^3 grid (Dirichlet): each step solves,
 * in x, then y, then z, one block-tridiagonal system per grid line with
 * 5x5 blocks, (I + dt K (-D2) / h^2) v = u (K a fixed symmetric positive
 * definite coupling matrix), by block elimination (a 5x5 LU with partial
 * pivoting per grid point, as BT's). One parallel loop (collapse(2),
 * static) over the lines of each direction; a dynamic loop computes the
 * per-plane energy, summed by a reduction.
 *
 * With u = v (x) a product of sines, each direction maps v to
 * (I + dt lam K)^-1 v, lam = 4 / h^2 sin^2(pi h / 2).
 * Verified: after STEPS steps u equals G^(3 STEPS) v (x) the sine mode,
 * G = (I + dt lam K)^-1 computed serially, to 1e-10 of its largest value.
 * Usage: bt [N [STEPS]]   (default 40 30) */
#include <math.h>
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void app_runtime_report(void);

#define B 5
static int n;
static double *u, K[B][B], cd; /* cd = dt / h^2 */
#define U(i, j, k) (u + ((((long)(k) * n) + (j)) * n + (i)) * B)

/* Solves M X = R for X (M is B x B, R is B x nr, both overwritten; X in R). */
static void lu_solve(double M[B][B], double *R, int nr) {
  for (int c = 0; c < B; ++c) {
    int p = c;
    for (int r = c + 1; r < B; ++r)
      if (fabs(M[r][c]) > fabs(M[p][c])) p = r;
    if (p != c) {
      for (int q = 0; q < B; ++q) {
        double t = M[c][q];
        M[c][q] = M[p][q];
        M[p][q] = t;
      }
      for (int q = 0; q < nr; ++q) {
        double t = R[c * nr + q];
        R[c * nr + q] = R[p * nr + q];
        R[p * nr + q] = t;
      }
    }
    for (int r = c + 1; r < B; ++r) {
      double l = M[r][c] / M[c][c];
      for (int q = c; q < B; ++q) M[r][q] -= l * M[c][q];
      for (int q = 0; q < nr; ++q) R[r * nr + q] -= l * R[c * nr + q];
    }
  }
  for (int c = B - 1; c >= 0; --c)
    for (int q = 0; q < nr; ++q) {
      double s = R[c * nr + q];
      for (int r = c + 1; r < B; ++r) s -= M[c][r] * R[r * nr + q];
      R[c * nr + q] = s / M[c][c];
    }
}

/* Block Thomas on one line: x[r][0..B) right sides in, solution out.
 * Diagonal blocks I + 2 cd K, off-diagonal blocks -cd K. cp: n blocks of
 * B x B (C'_i stored row-major with B columns). */
static void block_line(double (*x)[B], double *cp) {
  double M[B][B], R[B * (B + 1)];
  for (int r = 0; r < n; ++r) {
    /* M = D - L C'_{r-1}, R = [U | x_r - L x'_{r-1}] with L = U = -cd K */
    for (int a = 0; a < B; ++a)
      for (int b = 0; b < B; ++b) M[a][b] = (a == b) + 2 * cd * K[a][b];
    if (r > 0) {
      const double *c = cp + (long)(r - 1) * B * B;
      for (int a = 0; a < B; ++a)
        for (int b = 0; b < B; ++b) {
          double s = 0;
          for (int q = 0; q < B; ++q) s += K[a][q] * c[q * B + b];
          M[a][b] += cd * s; /* - L C' = + cd K C' */
        }
    }
    for (int a = 0; a < B; ++a) {
      for (int b = 0; b < B; ++b) R[a * (B + 1) + b] = -cd * K[a][b];
      double s = x[r][a];
      if (r > 0)
        for (int q = 0; q < B; ++q) s += cd * K[a][q] * x[r - 1][q];
      R[a * (B + 1) + B] = s;
    }
    lu_solve(M, R, B + 1);
    for (int a = 0; a < B; ++a) {
      for (int b = 0; b < B; ++b) cp[(long)r * B * B + a * B + b] = R[a * (B + 1) + b];
      x[r][a] = R[a * (B + 1) + B];
    }
  }
  for (int r = n - 2; r >= 0; --r)
    for (int a = 0; a < B; ++a) {
      double s = 0;
      for (int b = 0; b < B; ++b) s += cp[(long)r * B * B + a * B + b] * x[r + 1][b];
      x[r][a] -= s;
    }
}

static void sweep(int dir) {
#pragma omp parallel
  {
    double(*x)[B] = malloc(sizeof(double) * B * n), *cp = malloc(sizeof(double) * B * B * n);
#pragma omp for collapse(2) schedule(static)
    for (int p = 0; p < n; ++p)
      for (int q = 0; q < n; ++q) {
        for (int r = 0; r < n; ++r)
          memcpy(x[r], dir == 0 ? U(r, q, p) : dir == 1 ? U(q, r, p) : U(q, p, r), sizeof(double) * B);
        block_line(x, cp);
        for (int r = 0; r < n; ++r)
          memcpy(dir == 0 ? U(r, q, p) : dir == 1 ? U(q, r, p) : U(q, p, r), x[r], sizeof(double) * B);
      }
    free(x);
    free(cp);
  }
}

int main(int argc, char **argv) {
  n = argc > 1 ? atoi(argv[1]) : 40;
  int steps = argc > 2 ? atoi(argv[2]) : 30;
  if (n < 3 || n > 500 || steps < 1) {
    fprintf(stderr, "bt: need N in 3..500 and STEPS >= 1\n");
    return 2;
  }
  app_runtime_report();
  for (int a = 0; a < B; ++a) /* SPD: diagonally dominant, symmetric */
    for (int b = 0; b < B; ++b) K[a][b] = a == b ? 2.0 + 0.5 * a : 0.3 / (1 + abs(a - b));
  long N = (long)n * n * n;
  u = malloc(sizeof(double) * N * B);
  double h = 1.0 / (n + 1), dt = 2e-4, v[B] = {1.0, -0.5, 0.25, 0.8, -1.2};
  cd = dt / (h * h);
  for (int k = 0; k < n; ++k)
    for (int j = 0; j < n; ++j)
      for (int i = 0; i < n; ++i) {
        double s = sin(M_PI * (i + 1) * h) * sin(M_PI * (j + 1) * h) * sin(M_PI * (k + 1) * h);
        for (int a = 0; a < B; ++a) U(i, j, k)[a] = v[a] * s;
      }
  double t0 = omp_get_wtime(), energy = 0;
  for (int s = 0; s < steps; ++s) {
    sweep(0);
    sweep(1);
    sweep(2);
    energy = 0;
#pragma omp parallel for schedule(dynamic, 1) reduction(+ : energy)
    for (int k = 0; k < n; ++k)
      for (long p = (long)k * n * n * B; p < (long)(k + 1) * n * n * B; ++p) energy += u[p] * u[p];
  }
  double secs = omp_get_wtime() - t0;
  /* expected v: G^(3 steps) v, G v = solve (I + dt lam K) y = v */
  double lam = 4 / (h * h) * pow(sin(M_PI * h / 2), 2), w[B];
  memcpy(w, v, sizeof(w));
  for (int s = 0; s < 3 * steps; ++s) {
    double M[B][B];
    for (int a = 0; a < B; ++a)
      for (int b = 0; b < B; ++b) M[a][b] = (a == b) + dt * lam * K[a][b];
    lu_solve(M, w, 1);
  }
  double err = 0, big = 0, e2 = 0;
  for (int k = 0; k < n; ++k)
    for (int j = 0; j < n; ++j)
      for (int i = 0; i < n; ++i) {
        double s = sin(M_PI * (i + 1) * h) * sin(M_PI * (j + 1) * h) * sin(M_PI * (k + 1) * h);
        for (int a = 0; a < B; ++a) {
          err = fmax(err, fabs(U(i, j, k)[a] - w[a] * s));
          big = fmax(big, fabs(w[a] * s));
          e2 += (w[a] * s) * (w[a] * s);
        }
      }
  int ok = err < 1e-10 * big && fabs(energy - e2) < 1e-9 * e2;
  printf("bt: %d^3 x %d steps=%d energy %.12e (expect %.12e) error %.2e time %.3f s\n", n, B, steps, energy, e2,
         err / big, secs);
  printf("%s\n", ok ? "OK" : "FAILED");
  return ok ? 0 : 1;
}
