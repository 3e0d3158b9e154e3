/* Busy work for kite profile's known-answer programs: spins for a given
 * wall time (the answers must not depend on the machine's speed), its
 * time on the line of the calling macro's argument... SPIN_MS(ms) expands
 * on the caller's line so the samples land there. */
#ifndef KITE_PROFILE_SPIN_H
#define KITE_PROFILE_SPIN_H
#include <time.h>

static double kp_now(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return ts.tv_sec + ts.tv_nsec * 1e-9;
}

static volatile double kp_sink;

/* One statement, so every sample of it is on the line that uses it. */
#define SPIN_MS(ms)                                                         \
  do {                                                                      \
    double kp_end_ = kp_now() + (ms) * 1e-3, kp_x_ = 0;                     \
    while (kp_now() < kp_end_)                                              \
      for (int kp_i_ = 0; kp_i_ < 20000; ++kp_i_) kp_x_ += 1.0 / (kp_i_ + 1.0); \
    kp_sink = kp_x_;                                                        \
  } while (0)

#endif
