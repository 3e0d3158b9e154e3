/* ft: the shape of NPB FT. A 3-D complex field of random values is
 * transformed forward once (3-D FFT: radix-2 transforms of every line, one
 * worksharing loop over the lines of each dimension, collapse(2)), then for
 * each time step t its spectrum is damped by exp(-4 pi^2 alpha |k|^2 t) and
 * transformed back, and a checksum of the result is reduced. Each thread's
 * line buffer is threadprivate.
 *
 * Verified: Parseval (sum |u|^2 equals sum |U|^2 / N after the forward
 * transform, 1e-12 relative), and at the last step 16 sample points of the
 * inverse transform equal the inverse DFT summed directly (serially, 1e-10
 * of the field's largest value).
 * Usage: ft [LOG2_NX LOG2_NY LOG2_NZ [STEPS]]   (default 7 7 6 12) */
#include <complex.h>
#include <math.h>
#include <omp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

void app_runtime_report(void);

typedef double complex cplx;
static int nx, ny, nz, lx, ly, lz;
static cplx *u0, *u1, *u2;          /* initial, spectrum, evolved field */
static cplx *line;
static int line_len;
#pragma omp threadprivate(line, line_len)

#define IDX(i, j, k) (((long)(k) * ny + (j)) * nx + (i))

/* In-place radix-2 FFT of a[0..n), sign -1 forward, +1 inverse (unscaled). */
static void fft1(cplx *a, int n, int lg, int sign) {
  for (int i = 1, j = 0; i < n; ++i) {
    int bit = n >> 1;
    for (; j & bit; bit >>= 1) j ^= bit;
    j ^= bit;
    if (i < j) {
      cplx t = a[i];
      a[i] = a[j];
      a[j] = t;
    }
  }
  (void)lg;
  for (int len = 2; len <= n; len <<= 1) {
    double ang = sign * 2 * M_PI / len;
    cplx wl = cos(ang) + I * sin(ang);
    for (int i = 0; i < n; i += len) {
      cplx w = 1;
      for (int k = 0; k < len / 2; ++k) {
        cplx x = a[i + k], y = a[i + k + len / 2] * w;
        a[i + k] = x + y;
        a[i + k + len / 2] = x - y;
        w *= wl;
      }
    }
  }
}

static cplx *buffer(int n) {
  if (line_len < n) {
    free(line);
    line = malloc(sizeof(cplx) * n);
    line_len = n;
  }
  return line;
}

/* 3-D FFT of a (in place), one region, one worksharing loop per dimension. */
static void fft3(cplx *a, int sign) {
#pragma omp parallel
  {
    cplx *b = buffer(nx > ny ? (nx > nz ? nx : nz) : (ny > nz ? ny : nz));
#pragma omp for collapse(2) schedule(static)
    for (int k = 0; k < nz; ++k)
      for (int j = 0; j < ny; ++j) fft1(&a[IDX(0, j, k)], nx, lx, sign);
#pragma omp for collapse(2) schedule(static)
    for (int k = 0; k < nz; ++k)
      for (int i = 0; i < nx; ++i) {
        for (int j = 0; j < ny; ++j) b[j] = a[IDX(i, j, k)];
        fft1(b, ny, ly, sign);
        for (int j = 0; j < ny; ++j) a[IDX(i, j, k)] = b[j];
      }
#pragma omp for collapse(2) schedule(static)
    for (int j = 0; j < ny; ++j)
      for (int i = 0; i < nx; ++i) {
        for (int k = 0; k < nz; ++k) b[k] = a[IDX(i, j, k)];
        fft1(b, nz, lz, sign);
        for (int k = 0; k < nz; ++k) a[IDX(i, j, k)] = b[k];
      }
  }
}

static int freq(int i, int n) { return i < n / 2 ? i : i - n; }

int main(int argc, char **argv) {
  lx = argc > 3 ? atoi(argv[1]) : 7;
  ly = argc > 3 ? atoi(argv[2]) : 7;
  lz = argc > 3 ? atoi(argv[3]) : 6;
  int steps = argc > 4 ? atoi(argv[4]) : 12;
  if (lx < 2 || ly < 2 || lz < 2 || lx > 10 || ly > 10 || lz > 10 || steps < 1) {
    fprintf(stderr, "ft: each LOG2 size in 2..10, STEPS >= 1\n");
    return 2;
  }
  app_runtime_report();
  nx = 1 << lx;
  ny = 1 << ly;
  nz = 1 << lz;
  long N = (long)nx * ny * nz;
  u0 = malloc(sizeof(cplx) * N);
  u1 = malloc(sizeof(cplx) * N);
  u2 = malloc(sizeof(cplx) * N);
  const double alpha = 1e-6;
  uint64_t s = 271828;
  for (long i = 0; i < N; ++i) {
    s = s * 6364136223846793005ULL + 1442695040888963407ULL;
    double re = (double)(s >> 11) / 9007199254740992.0;
    s = s * 6364136223846793005ULL + 1442695040888963407ULL;
    u0[i] = re + I * ((double)(s >> 11) / 9007199254740992.0);
  }
  double t0 = omp_get_wtime(), e0 = 0, e1 = 0;
#pragma omp parallel for schedule(static) reduction(+ : e0)
  for (long i = 0; i < N; ++i) {
    u1[i] = u0[i];
    e0 += creal(u0[i] * conj(u0[i]));
  }
  fft3(u1, -1);
#pragma omp parallel for schedule(static) reduction(+ : e1)
  for (long i = 0; i < N; ++i) e1 += creal(u1[i] * conj(u1[i]));
  e1 /= N;
  cplx sum = 0;
  for (int t = 1; t <= steps; ++t) {
    double sr = 0, si = 0;
#pragma omp parallel
    {
#pragma omp for collapse(2) schedule(static)
      for (int k = 0; k < nz; ++k)
        for (int j = 0; j < ny; ++j) {
          int fk = freq(k, nz), fj = freq(j, ny);
          for (int i = 0; i < nx; ++i) {
            int fi = freq(i, nx);
            double k2 = (double)fi * fi + (double)fj * fj + (double)fk * fk;
            u2[IDX(i, j, k)] = u1[IDX(i, j, k)] * exp(-4 * M_PI * M_PI * alpha * k2 * t);
          }
        }
    }
    fft3(u2, +1);
#pragma omp parallel for schedule(static) reduction(+ : sr, si)
    for (int q = 0; q < 1024; ++q) {
      long p = ((long)q * 2654435761L) % N;
      sr += creal(u2[p]) / N;
      si += cimag(u2[p]) / N;
    }
    sum = sr + I * si;
  }
  double secs = omp_get_wtime() - t0;
  /* Direct inverse DFT at 16 points of the last step. */
  int ok = fabs(e1 - e0) < 1e-12 * e0;
  double worst = 0, big = 0;
  for (long i = 0; i < N; ++i)
    if (cabs(u2[i]) / N > big) big = cabs(u2[i]) / N;
  cplx *wz = malloc(sizeof(cplx) * nz), *wy = malloc(sizeof(cplx) * ny), *wxs = malloc(sizeof(cplx) * nx);
  for (int smp = 0; smp < 16; ++smp) {
    long p = ((long)smp * 40503L * 7919L) % N;
    int pi = (int)(p % nx), pj = (int)((p / nx) % ny), pk = (int)(p / ((long)nx * ny));
    for (int k = 0; k < nz; ++k) wz[k] = cexp(I * 2 * M_PI * (double)k * pk / nz);
    for (int j = 0; j < ny; ++j) wy[j] = cexp(I * 2 * M_PI * (double)j * pj / ny);
    for (int i = 0; i < nx; ++i) wxs[i] = cexp(I * 2 * M_PI * (double)i * pi / nx);
    cplx acc = 0;
    for (int k = 0; k < nz; ++k)
      for (int j = 0; j < ny; ++j) {
        int fk = freq(k, nz), fj = freq(j, ny);
        cplx inner = 0;
        for (int i = 0; i < nx; ++i) {
          int fi = freq(i, nx);
          double k2 = (double)fi * fi + (double)fj * fj + (double)fk * fk;
          inner += u1[IDX(i, j, k)] * exp(-4 * M_PI * M_PI * alpha * k2 * steps) * wxs[i];
        }
        acc += inner * wy[j] * wz[k];
      }
    double d = cabs(acc / N - u2[p] / N);
    if (d > worst) worst = d;
  }
  ok = ok && worst < 1e-10 * big && isfinite(creal(sum));
  printf("ft: %dx%dx%d steps=%d checksum %.10e %+.10ei parseval %.3e direct-DFT error %.2e time %.3f s\n", nx, ny, nz,
         steps, creal(sum), cimag(sum), fabs(e1 - e0) / e0, worst / big, secs);
  printf("%s\n", ok ? "OK" : "FAILED");
  return ok ? 0 : 1;
}
