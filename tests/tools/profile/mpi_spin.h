/* Spinning for a wall-clock time, in every thread of an OpenMP region: the
 * MPI known-answer programs' work, by time rather than by iterations, so
 * that their known answers hold on a loaded or oversubscribed machine (the
 * MPI model compares the ranks' time outside MPI, not their CPU speed).
 * The clock is read once per 4096 additions, so nearly every sample of a
 * spinning thread is on the line of the additions (the marked line). */
#pragma once
#include <time.h>

static inline double mpi_now_s(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}
