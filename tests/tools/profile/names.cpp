/* kite profile and kite trace: the names every output gives. A function
 * template in a namespace, a lambda and an always-inlined helper called at
 * two sites each hold a parallel region (with a barrier inside, so the
 * trace has constructs in the outlined bodies too). Expected, with g++ and
 * clang alike: outlined bodies named "<function> (omp at line <pragma>)",
 * never by the compiler's symbol (._omp_fn.N, .omp_outlined.*, [clone]);
 * no parameter lists in names (the signature apart); the two regions of
 * the inlined helper told apart by their call sites; no line 0. */
#include <omp.h>
#include <stdio.h>

#include "spin.h"

namespace physics {
template <typename T>
T relax(T factor) {
  T sum = 0;
#pragma omp parallel num_threads(2) reduction(+ : sum) /* @template */
  {
    SPIN_MS(60.0); /* @template_work */
#pragma omp barrier
    sum += factor;
  }
  return sum;
}
}  // namespace physics

static inline __attribute__((always_inline)) double smooth(double x) {
  double s = x;
#pragma omp parallel num_threads(2) reduction(+ : s) /* @inlined */
  {
    SPIN_MS(40.0); /* @inlined_work */
    s += 1;
  }
  return s;
}

int main() {
  double t = 0;
  auto step = [&](int k) {
    double z = 0;
#pragma omp parallel num_threads(2) reduction(+ : z) /* @lambda */
    {
      SPIN_MS(60.0); /* @lambda_work */
#pragma omp barrier
      z += k;
    }
    return z;
  };
  for (int r = 0; r < 3; ++r) {
    t += physics::relax<double>(2.0);
    t += step(3);
    t += smooth(1.0); /* @site1 */
    t += smooth(2.0); /* @site2 */
  }
  printf("%.1f\n", t);
  return 0;
}
