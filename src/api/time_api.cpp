// omp_get_wtime / omp_get_wtick: elapsed wall-clock time from a monotonic
// clock, so that differences never go backwards when the system time is set.
#include <time.h>

#include "core/base.h"

extern "C" {

KITE_EXPORT double omp_get_wtime(void) {
  timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return static_cast<double>(ts.tv_sec) + static_cast<double>(ts.tv_nsec) * 1e-9;
}

KITE_EXPORT double omp_get_wtick(void) {
  timespec ts;
  clock_getres(CLOCK_MONOTONIC, &ts);
  return static_cast<double>(ts.tv_sec) + static_cast<double>(ts.tv_nsec) * 1e-9;
}

}  // extern "C"
