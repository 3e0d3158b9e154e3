// Division of a taskloop into tasks (see taskloop_parts.h).
#include "taskloop_parts.h"

namespace kite {

TaskloopParts taskloop_parts(unsigned long long n, bool grainsize, unsigned long long value,
                             bool strict, int nthreads) {
  TaskloopParts p{0, 0, 0, 0};
  if (n == 0) return p;
  if (grainsize) {
    unsigned long long g = value;
    if (g == 0) {
      warn("taskloop grainsize(0) is invalid; using grainsize(1)");
      g = 1;
    }
    if (strict) {
      p.ntasks = n / g + (n % g != 0);
      p.per = g;
      p.last = n - (p.ntasks - 1) * g;
      return p;
    }
    // Each task gets between g and 2g-1 iterations.
    p.ntasks = n / g;
    if (p.ntasks == 0) p.ntasks = 1;
  } else {
    p.ntasks = value ? value : static_cast<unsigned long long>(nthreads > 0 ? nthreads : 1);
    if (p.ntasks > n) p.ntasks = n;
  }
  p.per = n / p.ntasks;
  p.extra = n % p.ntasks;
  return p;
}

}  // namespace kite
