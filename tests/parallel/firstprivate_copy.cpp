// kite-test-threads: 1 2 4
/* firstprivate gives every implicit task its own copy, initialized from the
 * value the variable had when the region started: scalars, arrays, structs,
 * and C++ objects (copy constructor runs once per thread, destructor too). */
#include <atomic>

#include "kite_test.h"

static std::atomic<int> copies{0}, destroyed{0};

struct Tracked {
  int value;
  int buf[32];
  explicit Tracked(int v) : value(v) {
    for (int i = 0; i < 32; ++i) buf[i] = v + i;
  }
  Tracked(const Tracked& o) : value(o.value) {
    for (int i = 0; i < 32; ++i) buf[i] = o.buf[i];
    copies.fetch_add(1);
  }
  ~Tracked() { destroyed.fetch_add(1); }
};

struct Plain {
  double d;
  char name[8];
};

int main() {
  KITE_TEST_BEGIN();
  omp_set_dynamic(0);
  for (int n = 1; n <= 4; ++n) {
    int scalar = 41;
    int arr[5] = {1, 2, 3, 4, 5};
    Plain p = {2.5, "kite"};
    copies = 0;
    destroyed = 0;
    int team = 0, wrong = 0;
    {
      Tracked obj(100);
#pragma omp parallel num_threads(n) firstprivate(scalar, arr, p, obj)
      {
        int me = omp_get_thread_num();
        if (me == 0) team = omp_get_num_threads();
        if (scalar != 41 || arr[4] != 5 || p.d != 2.5 || p.name[0] != 'k' || obj.value != 100 ||
            obj.buf[31] != 131)
          __atomic_add_fetch(&wrong, 1, __ATOMIC_RELAXED);
        /* Private: writes by one thread are invisible to the others. */
        scalar = me * 7;
        arr[4] = me;
        p.d = me;
        obj.value = me;
        obj.buf[31] = -me;
#pragma omp barrier
        if (scalar != me * 7 || arr[4] != me || p.d != me || obj.value != me ||
            obj.buf[31] != -me)
          __atomic_add_fetch(&wrong, 1, __ATOMIC_RELAXED);
      }
      CHECK_EQ_LONG(obj.value, 100); /* the original is untouched */
      CHECK_EQ_LONG(copies.load(), team);
      CHECK_EQ_LONG(destroyed.load(), team);
    }
    CHECK_EQ_LONG(team, n);
    CHECK_EQ_LONG(wrong, 0);
    CHECK_EQ_LONG(scalar, 41);
    CHECK_EQ_LONG(arr[4], 5);
  }
  KITE_TEST_END();
}
