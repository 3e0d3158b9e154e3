/* kite check: tasks, taskwait, taskgroup, dependences, taskloop. */
#include <omp.h>

static int fib(int n) {
  if (n < 2) return n;
  int a, b;
#pragma omp task shared(a)
  a = fib(n - 1);
#pragma omp task shared(b)
  b = fib(n - 2);
#pragma omp taskwait
  return a + b;
}

int main(void) {
  int r = 0, x = 0, y = 0;
  long s = 0;
#pragma omp parallel
#pragma omp single
  {
    r = fib(12);
#pragma omp taskgroup
    {
#pragma omp task depend(out : x)
      x = 1;
#pragma omp task depend(in : x) depend(out : y)
      y = x + 1;
    }
#pragma omp task if (0)
    s += 1;
#pragma omp taskloop reduction(+ : s) grainsize(10)
    for (int i = 0; i < 100; ++i) s += i;
  }
  return r == 144 && y == 2 && s == 4951 ? 0 : 1;
}
