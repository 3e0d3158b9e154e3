// kite-test-cflags: -fnoopenmp-use-tls
// C++ threadprivate objects kept by the runtime: each thread's copy is
// constructed (__kmpc_threadprivate_register's constructors) before use.
#include <omp.h>

#include <string>

#include "kite_test.h"

struct Counter {
  std::string name;
  long count;
  Counter() : name("counter"), count(100) {}
};

static Counter counter;
#pragma omp threadprivate(counter)

int main() {
  KITE_TEST_BEGIN();
  int bad = 0;
#pragma omp parallel reduction(+ : bad)
  {
    if (counter.name != "counter" || counter.count != 100) bad++;
    counter.count += omp_get_thread_num();
  }
  CHECK_EQ_LONG(bad, 0);
#pragma omp parallel reduction(+ : bad)
  {
    if (counter.count != 100 + omp_get_thread_num()) bad++;
  }
  CHECK_EQ_LONG(bad, 0);
  KITE_TEST_END();
}
