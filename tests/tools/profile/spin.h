/* Busy work for kite profile's known-answer programs. SPIN_MS(ms) burns
 * `ms` of the calling thread's CPU time (CLOCK_THREAD_CPUTIME_ID): the
 * answers must not depend on the machine's speed, and on a machine where
 * other processes take turns on the cores every thread's work stretches
 * alike, so the shares of waiting stay what the program makes them. It
 * expands on the caller's line, so the samples land there. */
#ifndef KITE_PROFILE_SPIN_H
#define KITE_PROFILE_SPIN_H
#include <time.h>

static double kp_now(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return ts.tv_sec + ts.tv_nsec * 1e-9;
}

/* The calling thread's CPU time in seconds, read where the macro expands:
 * no function of this header is left between clock_gettime and the
 * caller's line, so a sample taken in the system call (a real one: the
 * vDSO has no thread CPU clock) lands on the line that spins, as the
 * known answers expect, and not on a helper here (on a loaded machine
 * 45 % of starve.c's blame once landed in such a helper). */
#define KP_CPU_S(ts_) \
  (clock_gettime(CLOCK_THREAD_CPUTIME_ID, &(ts_)), (ts_).tv_sec + (ts_).tv_nsec * 1e-9)

static volatile double kp_sink;

/* One statement, so every sample of it is on the line that uses it. */
#define SPIN_MS(ms)                                                         \
  do {                                                                      \
    struct timespec kp_ts_;                                                 \
    double kp_end_ = KP_CPU_S(kp_ts_) + (ms) * 1e-3, kp_x_ = 0;             \
    while (KP_CPU_S(kp_ts_) < kp_end_)                                      \
      for (int kp_i_ = 0; kp_i_ < 20000; ++kp_i_) kp_x_ += 1.0 / (kp_i_ + 1.0); \
    kp_sink = kp_x_;                                                        \
  } while (0)

#endif
