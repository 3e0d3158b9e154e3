// Target regions from C++: firstprivate class objects are copied (the
// region's changes stay private), references and lambdas work on the host.
// kite-test-threads: 1 2
#include "kite_test.h"

#include <numeric>
#include <vector>

struct Counter {
  int hits[8];
  long total;
};

template <typename F>
static void on_device(F f) {
#pragma omp target
  f();
}

int main() {
  KITE_TEST_BEGIN();
  Counter c{};
  c.total = 7;
  long seen = 0;
#pragma omp target firstprivate(c) map(from : seen)
  {
    seen = c.total;
    c.total = -1;
    c.hits[3] = 99;
  }
  CHECK_EQ_LONG(seen, 7);
  CHECK_EQ_LONG(c.total, 7);
  CHECK_EQ_LONG(c.hits[3], 0);

  std::vector<int> v(1000);
  int* data = v.data();
  const int n = static_cast<int>(v.size());
#pragma omp target teams distribute parallel for map(tofrom : data[0 : n])
  for (int i = 0; i < n; ++i) data[i] = i;
  CHECK_EQ_LONG(std::accumulate(v.begin(), v.end(), 0L), 999L * 1000 / 2);

  int r = 0;
  int& ref = r;
#pragma omp target map(tofrom : ref)
  ref = 41;
  on_device([&] { r += 1; });
  CHECK_EQ_LONG(r, 42);
  KITE_TEST_END();
}
