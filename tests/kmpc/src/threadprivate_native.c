// threadprivate with clang's default native TLS, and copyin.
#include "kite_test.h"

static int tp = 7;
static long counter;
#pragma omp threadprivate(tp, counter)

int main(void) {
  KITE_TEST_BEGIN();
  tp = 42;
  int bad = 0;
#pragma omp parallel copyin(tp)
  {
    if (tp != 42) {
#pragma omp atomic
      bad++;
    }
    tp = omp_get_thread_num();
    counter = 0;
  }
#pragma omp parallel
  {
    for (int i = 0; i < 10; i++) counter++;
    if (counter != 10) {
#pragma omp atomic
      bad++;
    }
  }
  CHECK_EQ_LONG(bad, 0);
  KITE_TEST_END();
}
