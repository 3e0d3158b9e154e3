/* target data / enter data / exit data / update on the host device: no
 * copies exist, so every access sees the one host object.
 * kite-test-threads: 1 2
 */
#include "kite_test.h"

#include <stdlib.h>

#define N 1000

int main(void) {
  KITE_TEST_BEGIN();
  double* a = malloc(N * sizeof *a);
  double* b = malloc(N * sizeof *b);
  for (int i = 0; i < N; ++i) {
    a[i] = i;
    b[i] = 0;
  }

#pragma omp target data map(to : a[0 : N]) map(from : b[0 : N])
  {
#pragma omp target teams distribute parallel for
    for (int i = 0; i < N; ++i) b[i] = 2 * a[i];
    /* Host update between two regions, pushed with target update. */
    for (int i = 0; i < N; ++i) a[i] = -a[i];
#pragma omp target update to(a[0 : N])
#pragma omp target
    for (int i = 0; i < N; ++i) b[i] += a[i];
#pragma omp target update from(b[0 : N])
  }
  for (int i = 0; i < N; ++i) CHECK(b[i] == (double)i);

  int scalar = 3;
#pragma omp target enter data map(to : a[0 : N], scalar)
  CHECK(omp_target_is_present(a, omp_get_default_device()));
#pragma omp target map(tofrom : scalar)
  {
    scalar *= 5;
    a[7] = 99;
  }
#pragma omp target exit data map(from : a[0 : N], scalar)
#pragma omp target exit data map(delete : a[0 : N]) map(release : b[0 : N])
  CHECK_EQ_LONG(scalar, 15);
  CHECK(a[7] == 99);

  /* Constructs with depend clauses and nowait also finish in program order
   * for a single generating task. */
  int x = 1;
#pragma omp target enter data map(to : x) depend(inout : x)
#pragma omp target update to(x) depend(in : x)
#pragma omp target exit data map(from : x) depend(inout : x)
  CHECK_EQ_LONG(x, 1);

  /* Data constructs encountered concurrently by a team. */
  int errs = 0;
#pragma omp parallel reduction(+ : errs)
  {
    int v = omp_get_thread_num();
#pragma omp target data map(tofrom : v)
    {
#pragma omp target map(tofrom : v)
      v += 1000;
    }
    if (v != omp_get_thread_num() + 1000) errs++;
  }
  CHECK_EQ_LONG(errs, 0);
  free(a);
  free(b);
  KITE_TEST_END();
}
