// kite-test-threads: 1 2 4 8
// C++ loops: random-access iterators, collapse(2) over mixed types,
// lastprivate, reductions, nowait loops in member functions, and the
// combined parallel for over a std::vector.
#include "kite_test.h"

#include <algorithm>
#include <atomic>
#include <numeric>
#include <vector>

struct Grid {
  int rows, cols;
  std::vector<long> cells;
  Grid(int r, int c) : rows(r), cols(c), cells(static_cast<size_t>(r) * c, 0) {}

  void fill() {
#pragma omp parallel
    {
#pragma omp for collapse(2) schedule(dynamic, 5) nowait
      for (int r = 0; r < rows; ++r)
        for (long c = 0; c < cols; ++c) cells[static_cast<size_t>(r) * cols + c] += r * 1000 + c;
#pragma omp for schedule(guided) nowait
      for (int r = 0; r < rows; ++r) cells[static_cast<size_t>(r) * cols] += 1;
    }
  }
};

int main() {
  KITE_TEST_BEGIN();
  std::vector<int> v(5000);
  std::iota(v.begin(), v.end(), 0);
  std::vector<std::atomic<int>> seen(v.size());
  for (auto& s : seen) s = 0;

#pragma omp parallel for schedule(dynamic, 16)
  for (auto it = v.begin(); it < v.end(); ++it) seen[*it]++;
  CHECK(std::all_of(seen.begin(), seen.end(), [](const std::atomic<int>& s) { return s == 1; }));

  long sum = 0;
  int last = -1;
#pragma omp parallel for schedule(runtime) reduction(+ : sum) lastprivate(last)
  for (auto it = v.rbegin(); it < v.rend(); ++it) {
    sum += *it;
    last = *it;
  }
  CHECK_EQ_LONG(sum, 4999L * 5000 / 2);
  CHECK_EQ_LONG(last, 0);

  Grid g(37, 41);
  g.fill();
  for (int r = 0; r < g.rows; ++r)
    for (int c = 0; c < g.cols; ++c)
      CHECK_EQ_LONG(g.cells[static_cast<size_t>(r) * g.cols + c], r * 1000 + c + (c == 0));

  unsigned long long usum = 0;
#pragma omp parallel for schedule(guided, 3) reduction(+ : usum)
  for (unsigned long long i = ~0ull - 10000; i > ~0ull - 20000; i -= 7) usum += 1;
  CHECK_EQ_LONG(usum, (10000 + 6) / 7);
  KITE_TEST_END();
}
