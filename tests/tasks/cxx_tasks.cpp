// kite-test-threads: 1 2 4 8
/* C++ objects in tasks: firstprivate class objects are copy-constructed
 * into the task (gcc's copy function) and destroyed after it, taskloop with
 * a firstprivate object, aligned firstprivate data, and a user-defined
 * task reduction. */
#include <atomic>
#include <vector>

#include "kite_test.h"

static std::atomic<int> live{0}, copies{0};

struct Tracked {
  int v;
  std::vector<int> data;
  explicit Tracked(int x) : v(x), data(16, x) { live++; }
  Tracked(const Tracked& o) : v(o.v), data(o.data) {
    live++;
    copies++;
  }
  ~Tracked() { live--; }
  long sum() const {
    long s = 0;
    for (int d : data) s += d;
    return s;
  }
};

struct alignas(64) Wide {
  double x[8];
};

struct Vec3 {
  long a, b, c;
};
#pragma omp declare reduction(vadd : Vec3 : omp_out.a += omp_in.a, omp_out.b += omp_in.b, omp_out.c += omp_in.c) \
    initializer(omp_priv = Vec3{0, 0, 0})

int main() {
  KITE_TEST_BEGIN();
  std::atomic<long> total{0};
  std::atomic<int> misaligned{0};
  {
    Tracked t(3);
    Wide w{};
    for (int k = 0; k < 8; ++k) w.x[k] = k;
#pragma omp parallel shared(total, misaligned)
#pragma omp single
    {
      for (int i = 0; i < 200; ++i) {
#pragma omp task firstprivate(t, w, i) shared(total, misaligned)
        {
          if (reinterpret_cast<uintptr_t>(&w) % 64 != 0) misaligned++;
          total += t.sum() + i + static_cast<long>(w.x[7]);
        }
      }
#pragma omp taskloop firstprivate(t) num_tasks(10) shared(total)
      for (int i = 0; i < 100; ++i) total += t.v;
    }
    CHECK_EQ_LONG(live.load(), 1);  // only `t` itself is left
  }
  CHECK_EQ_LONG(live.load(), 0);
  CHECK(copies.load() >= 210);
  CHECK_EQ_LONG(misaligned.load(), 0);
  CHECK_EQ_LONG(total.load(), 200L * 48 + 199 * 200 / 2 + 200 * 7 + 300);

  Vec3 acc{0, 0, 0};
#pragma omp parallel
#pragma omp single
#pragma omp taskgroup task_reduction(vadd : acc)
  {
    for (int i = 0; i < 100; ++i) {
#pragma omp task in_reduction(vadd : acc) firstprivate(i)
      {
        acc.a += 1;
        acc.b += i;
        acc.c += 2 * i;
      }
    }
  }
  CHECK_EQ_LONG(acc.a, 100);
  CHECK_EQ_LONG(acc.b, 4950);
  CHECK_EQ_LONG(acc.c, 9900);
  KITE_TEST_END();
}
