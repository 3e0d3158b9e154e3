/* Measurement harness of the construct-overhead benchmarks.
 *
 * Method (the one the EPCC OpenMP microbenchmarks made standard): a
 * reference kernel runs `inner` calibrated delays; the test kernel runs the
 * same delays wrapped in `inner` instances of the construct. Both are timed
 * `outer` times, interleaved, and the overhead of one construct instance is
 * (test time - fastest reference time) / inner for each outer repetition.
 *
 * Only the constructs themselves go through the OpenMP runtime: timing,
 * delays and thread counting are plain C, so a runtime that lacks a routine
 * fails in the construct that needs it, not in the harness. */
#ifndef BENCH_HARNESS_H
#define BENCH_HARNESS_H

#include <stdbool.h>

typedef struct bench_params {
  int threads;          /* team size requested with num_threads() */
  int outer;            /* outer repetitions (samples) */
  double target_us;     /* wanted duration of one test kernel run */
  double delay_us;      /* length of one delay */
  long max_inner;       /* upper bound for the calibrated inner count */
  int iters_per_thread; /* loop iterations per thread in the schedule sweep */
} bench_params;

/* A kernel runs `inner` instances; `arg` is a construct-specific knob (the
 * chunk size of the schedule sweep, otherwise 0). */
typedef void (*bench_kernel)(const bench_params* p, long inner, long arg);

typedef struct bench_construct {
  const char* name;
  const char* group;     /* sync, loop, task, sched */
  bench_kernel test;
  bench_kernel reference;
  long arg;
  const char* what;      /* one line: what one instance is */
} bench_construct;

/* Busy work of the calibrated length; never touches memory shared between
 * threads, so it scales perfectly when threads have their own cores. */
void bench_delay(void);
void bench_calibrate_delay(double delay_us);

/* Microseconds of a monotonic clock (no omp_get_wtime: it is a runtime
 * routine and the harness must not depend on what a runtime provides). */
double bench_now_us(void);

/* Common reference kernels. */
void ref_serial(const bench_params* p, long inner, long arg);   /* inner delays, one thread */
void ref_in_team(const bench_params* p, long inner, long arg);  /* inner delays per thread, in one region */

/* Runs one construct and prints its JSON line on stdout (flushed). */
void bench_run(const bench_construct* c, const bench_params* p);

/* How many threads a parallel region with num_threads(n) really got. */
int bench_team_size(int n);

/* Which runtime provides the OpenMP entry points of this process. */
typedef struct bench_identity {
  char runtime[128]; /* "libgomp", "libomp", "kite <version>", "unknown" */
  char library[512]; /* path of the object defining GOMP_parallel */
  char mapped[1024]; /* OpenMP-looking libraries in /proc/self/maps */
  char foreign[1024]; /* entry points defined outside `library` (should be none) */
} bench_identity;
void bench_identify(bench_identity* out);
void bench_json_string(const char* s); /* prints s as a JSON string */

#endif
