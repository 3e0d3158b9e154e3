// Doacross loops (ordered(n) with depend(sink) / depend(source)) through
// __kmpc_doacross_*: static and dynamic schedules, one and two dimensions,
// non-unit and negative steps.
#include <string.h>

#include "kite_test.h"

#define N 200
#define M 40
static long a[N + 2][M + 2];
static long b[N];

int main(void) {
  KITE_TEST_BEGIN();
  // 1-D chain: b[i] depends on b[i-1].
  for (int round = 0; round < 3; round++) {
    memset(b, 0, sizeof b);
#pragma omp parallel for ordered(1) schedule(static, 1)
    for (int i = 1; i < N; i++) {
#pragma omp ordered depend(sink : i - 1)
      b[i] = b[i - 1] + i;
#pragma omp ordered depend(source)
    }
    int bad = 0;
    for (int i = 1; i < N; i++) bad += b[i] != (long)i * (i + 1) / 2;
    CHECK_EQ_LONG(bad, 0);
  }

  // 2-D wavefront with a dynamic schedule: a[i][j] needs a[i-1][j] and
  // a[i][j-1] done.
  memset(a, 0, sizeof a);
  for (int j = 0; j <= M; j++) a[0][j] = 1;
  for (int i = 0; i <= N; i++) a[i][0] = 1;
#pragma omp parallel for ordered(2) schedule(dynamic, 3)
  for (int i = 1; i <= N; i++)
    for (int j = 1; j <= M; j++) {
#pragma omp ordered depend(sink : i - 1, j) depend(sink : i, j - 1)
      a[i][j] = (a[i - 1][j] + a[i][j - 1]) % 1000003;
#pragma omp ordered depend(source)
    }
  long expect[M + 1];
  for (int j = 0; j <= M; j++) expect[j] = 1;
  for (int i = 1; i <= N; i++)
    for (int j = 1; j <= M; j++) expect[j] = (expect[j] + expect[j - 1]) % 1000003;
  int bad = 0;
  for (int j = 0; j <= M; j++) bad += a[N][j] != expect[j];
  CHECK_EQ_LONG(bad, 0);

  // Downward outer loop with step -2, guided and static unchunked.
  memset(b, 0, sizeof b);
#pragma omp parallel for ordered(1) schedule(guided)
  for (int i = N - 1; i >= 1; i -= 2) {
#pragma omp ordered depend(sink : i + 2)
    b[i] = (i + 2 < N ? b[i + 2] : 0) + 1;
#pragma omp ordered depend(source)
  }
  bad = 0;
  for (int i = N - 1, k = 1; i >= 1; i -= 2, k++) bad += b[i] != k;
  CHECK_EQ_LONG(bad, 0);
  memset(b, 0, sizeof b);
#pragma omp parallel for ordered(1) schedule(static)
  for (int i = 1; i < N; i++) {
#pragma omp ordered depend(sink : i - 1)
    b[i] = b[i - 1] + 1;
#pragma omp ordered depend(source)
  }
  CHECK_EQ_LONG(b[N - 1], N - 1);

  // Constructs after a doacross loop in the same region still line up.
  long after = 0;
#pragma omp parallel
  {
#pragma omp for ordered(1) schedule(dynamic)
    for (int i = 1; i < 50; i++) {
#pragma omp ordered depend(sink : i - 1)
      b[i] = b[i - 1];
#pragma omp ordered depend(source)
    }
#pragma omp for reduction(+ : after) schedule(dynamic, 2)
    for (int i = 0; i < 100; i++) after += 1;
  }
  CHECK_EQ_LONG(after, 100);
  KITE_TEST_END();
}
