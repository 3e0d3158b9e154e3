// kite-test-cflags: -fnoopenmp-use-tls
// threadprivate kept by the runtime (__kmpc_threadprivate_cached): each
// thread's copy is distinct and persists across regions, the initial
// thread's copy is the original, copyin copies the primary's value.
#include "kite_test.h"

static int tp = 7;
static double big[64];
#pragma omp threadprivate(tp, big)

int main(void) {
  KITE_TEST_BEGIN();
  int bad = 0;
  int nt = omp_get_max_threads();
  int* addrs[64] = {0};
#pragma omp parallel
  {
    int me = omp_get_thread_num();
    // Every copy starts from the original's initial value.
    if (tp != 7) {
#pragma omp atomic
      bad++;
    }
    tp = 100 + me;
    big[63] = me;
    if (me < 64) addrs[me] = &tp;
  }
  for (int i = 0; i < nt && i < 64; i++)
    for (int j = i + 1; j < nt && j < 64; j++) CHECK(addrs[i] != addrs[j]);
  // The initial thread's copy is the variable itself.
  CHECK_EQ_LONG(tp, 100);
  CHECK(big[63] == 0);
#pragma omp parallel
  {
    // Values persist into the next region (same team size, no dynamic).
    int me = omp_get_thread_num();
    if (tp != 100 + me || big[63] != me) {
#pragma omp atomic
      bad++;
    }
  }
  tp = 55;
#pragma omp parallel copyin(tp)
  {
    if (tp != 55) {
#pragma omp atomic
      bad++;
    }
  }
  CHECK_EQ_LONG(bad, 0);
  KITE_TEST_END();
}
