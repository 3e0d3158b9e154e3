// C++ objects in tasks through the LLVM ABI: firstprivate objects are
// copy-constructed into the task and destroyed when it ends (the
// destructors thunk), taskloop copies them per task (task_dup) and
// destroys the pattern's; lastprivate objects come back.
#include <omp.h>

#include <atomic>
#include <string>

#include "kite_test.h"

static std::atomic<long> alive{0};

struct Tracked {
  long value;
  std::string text;
  Tracked() : value(0), text("default") { alive++; }
  explicit Tracked(long v) : value(v), text("value " + std::to_string(v)) { alive++; }
  Tracked(const Tracked& o) : value(o.value), text(o.text) { alive++; }
  Tracked& operator=(const Tracked& o) {
    value = o.value;
    text = o.text;
    return *this;
  }
  ~Tracked() { alive--; }
};

int main() {
  KITE_TEST_BEGIN();
  {
    Tracked t(7);
    std::atomic<long> sum{0};
    int bad = 0;
#pragma omp parallel
#pragma omp single
    {
      for (int i = 0; i < 50; i++) {
#pragma omp task firstprivate(t) shared(sum, bad)
        {
          if (t.text != "value 7") bad = 1;
          sum += t.value;
        }
      }
    }
    CHECK_EQ_LONG(sum.load(), 350);
    CHECK_EQ_LONG(bad, 0);
    CHECK_EQ_LONG(alive.load(), 1);  // only `t` itself

    Tracked last;
    std::atomic<long> lsum{0};
#pragma omp parallel
#pragma omp single
    {
#pragma omp taskloop firstprivate(t) lastprivate(last) grainsize(10)
      for (int i = 0; i < 100; i++) {
        lsum += t.value;
        last = Tracked(i);
      }
    }
    CHECK_EQ_LONG(lsum.load(), 700);
    CHECK_EQ_LONG(last.value, 99);
    CHECK(last.text == "value 99");
    CHECK_EQ_LONG(alive.load(), 2);  // `t` and `last`
  }
  CHECK_EQ_LONG(alive.load(), 0);
  KITE_TEST_END();
}
