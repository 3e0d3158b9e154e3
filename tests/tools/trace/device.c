/* kite trace on two emulated devices (KITE_DEVICES=2): a known number of
 * target regions, each mapping `a` to the device and `b` back, alternating
 * devices, then nowait regions on device 0 from every thread of a team. The
 * device tracks (from OMPT device tracing) must hold exactly these kernels
 * and transfers, inside the host-side target slices (check_device.py). */
#include <omp.h>
#include <stdio.h>

#define N 1024
#define ROUNDS 6
#define NOWAIT_PER_THREAD 3

static double a[N], b[N];

int main(void) {
  for (int r = 0; r < ROUNDS; ++r) {
    int dev = r % 2;
    for (int i = 0; i < N; ++i) a[i] = i + r;
#pragma omp target device(dev) map(to : a) map(from : b)
    for (int i = 0; i < N; ++i) b[i] = 2 * a[i];
    if (b[N - 1] != 2 * (N - 1 + r)) {
      fprintf(stderr, "wrong result on device %d\n", dev);
      return 1;
    }
  }
  static int out[64];
  int threads = 0;
#pragma omp parallel
  {
#pragma omp single
    threads = omp_get_num_threads();
    int t = omp_get_thread_num();
    for (int k = 0; k < NOWAIT_PER_THREAD && t * NOWAIT_PER_THREAD + k < 64; ++k) {
      int s = t * NOWAIT_PER_THREAD + k;
#pragma omp target nowait device(0) map(tofrom : out[s : 1])
      out[s] = s + 1;
    }
#pragma omp taskwait
  }
  for (int s = 0; s < threads * NOWAIT_PER_THREAD && s < 64; ++s)
    if (out[s] != s + 1) {
      fprintf(stderr, "wrong nowait result %d\n", s);
      return 1;
    }
  printf("devices %d threads %d\n", omp_get_num_devices(), threads);
  return 0;
}
