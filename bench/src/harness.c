/* Timing, delay calibration, statistics and JSON output of the benchmarks. */
#define _GNU_SOURCE
#include "harness.h"

#include <dlfcn.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static long delay_iterations = 1;

double bench_now_us(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec * 1e6 + (double)ts.tv_nsec * 1e-3;
}

static void spin(long n) {
  long acc = 0;
  for (long i = 0; i < n; ++i) {
    acc += i;
    /* Keeps the loop: the compiler must assume acc is observed. */
    __asm__ volatile("" : "+r"(acc));
  }
}

void bench_delay(void) { spin(delay_iterations); }

void bench_calibrate_delay(double delay_us) {
  /* The fastest of a few runs: the machine is shared, and interference only
   * ever makes a run slower. */
  const long probe = 2000000;
  double best = 1e30;
  for (int k = 0; k < 5; ++k) {
    double t0 = bench_now_us();
    spin(probe);
    double dt = bench_now_us() - t0;
    if (dt < best) best = dt;
  }
  double per_us = (double)probe / (best > 0 ? best : 1);
  long n = (long)(delay_us * per_us + 0.5);
  delay_iterations = n < 1 ? 1 : n;
}

void ref_serial(const bench_params* p, long inner, long arg) {
  (void)p;
  (void)arg;
  for (long j = 0; j < inner; ++j) bench_delay();
}

void ref_in_team(const bench_params* p, long inner, long arg) {
  (void)arg;
#pragma omp parallel num_threads(p->threads)
  for (long j = 0; j < inner; ++j) bench_delay();
}

int bench_team_size(int n) {
  int count = 0;
#pragma omp parallel num_threads(n)
  __atomic_fetch_add(&count, 1, __ATOMIC_RELAXED);
  return count;
}

static int cmp_double(const void* a, const void* b) {
  double x = *(const double*)a, y = *(const double*)b;
  return (x > y) - (x < y);
}

static double median_of(const double* v, int n) {
  double* s = malloc(sizeof(double) * (size_t)n);
  memcpy(s, v, sizeof(double) * (size_t)n);
  qsort(s, (size_t)n, sizeof(double), cmp_double);
  double m = n % 2 ? s[n / 2] : 0.5 * (s[n / 2 - 1] + s[n / 2]);
  free(s);
  return m;
}

static double min_of(const double* v, int n) {
  double m = v[0];
  for (int k = 1; k < n; ++k)
    if (v[k] < m) m = v[k];
  return m;
}

/* A line after every timed run (outside the timed window) tells the runner
 * that a slow construct is still making progress, so that only a construct
 * that really hangs is killed. */
static void heartbeat(void) {
  fputs("#\n", stdout);
  fflush(stdout);
}

static double time_kernel(bench_kernel k, const bench_params* p, long inner, long arg) {
  double t0 = bench_now_us();
  k(p, inner, arg);
  double dt = bench_now_us() - t0;
  heartbeat();
  return dt;
}

void bench_json_string(const char* s) {
  putchar('"');
  for (; *s; ++s) {
    unsigned char c = (unsigned char)*s;
    if (c == '"' || c == '\\')
      printf("\\%c", c);
    else if (c < 0x20)
      printf("\\u%04x", c);
    else
      putchar(c);
  }
  putchar('"');
}

/* Inner count: grow (in multiples of the team size, so per-thread shares
 * stay whole) until one test run lasts the target time. */
static long calibrate_inner(const bench_construct* c, const bench_params* p) {
  long inner = p->threads;
  time_kernel(c->test, p, inner, c->arg); /* warm the team up */
  for (;;) {
    /* The faster of two runs: one preempted run must not stop the growth. */
    double dt = time_kernel(c->test, p, inner, c->arg);
    double again = time_kernel(c->test, p, inner, c->arg);
    if (again < dt) dt = again;
    if (dt >= p->target_us || inner >= p->max_inner) break;
    long next;
    if (dt > p->target_us / 16) /* close enough to extrapolate */
      next = (long)((double)inner * p->target_us / dt * 1.05) + 1;
    else
      next = inner * 4;
    if (next > p->max_inner) next = p->max_inner;
    next = (next + p->threads - 1) / p->threads * p->threads;
    if (next <= inner) break;
    inner = next;
  }
  return inner;
}

void bench_run(const bench_construct* c, const bench_params* p) {
  int seen = bench_team_size(p->threads);
  long inner = calibrate_inner(c, p);
  int n = p->outer;
  double* ref = malloc(sizeof(double) * (size_t)n);
  double* test = malloc(sizeof(double) * (size_t)n);
  double* ov = malloc(sizeof(double) * (size_t)n);
  for (int k = 0; k < n; ++k) {
    ref[k] = time_kernel(c->reference, p, inner, c->arg);
    test[k] = time_kernel(c->test, p, inner, c->arg);
  }
  /* Interference (other processes, preemption) only ever adds time, so the
   * fastest reference run is the best estimate of the delays' own time; a
   * preempted reference would otherwise make every overhead look smaller,
   * even negative. Test runs keep their spread: that is what is reported. */
  double ref_best = min_of(ref, n);
  double sum = 0, lo = 1e300, hi = -1e300;
  for (int k = 0; k < n; ++k) {
    ov[k] = (test[k] - ref_best) / (double)inner;
    sum += ov[k];
    if (ov[k] < lo) lo = ov[k];
    if (ov[k] > hi) hi = ov[k];
  }
  double mean = sum / n, var = 0;
  for (int k = 0; k < n; ++k) var += (ov[k] - mean) * (ov[k] - mean);
  double sd = n > 1 ? sqrt(var / (n - 1)) : 0;

  static bench_identity id;
  static int identified;
  if (!identified) {
    bench_identify(&id);
    identified = 1;
  }
  printf("{\"construct\":");
  bench_json_string(c->name);
  printf(",\"group\":");
  bench_json_string(c->group);
  printf(",\"what\":");
  bench_json_string(c->what);
  printf(",\"arg\":%ld,\"threads\":%d,\"threads_seen\":%d,\"runtime\":", c->arg, p->threads,
         seen);
  bench_json_string(id.runtime);
  printf(",\"library\":");
  bench_json_string(id.library);
  printf(",\"inner\":%ld,\"outer\":%d,\"delay_us\":%.4f", inner, n, p->delay_us);
  printf(",\"overhead_us\":{\"mean\":%.5f,\"median\":%.5f,\"stddev\":%.5f,\"min\":%.5f,"
         "\"max\":%.5f}",
         mean, median_of(ov, n), sd, lo, hi);
  printf(",\"ref_us\":{\"min\":%.3f,\"median\":%.3f},\"test_us\":{\"min\":%.3f,\"median\":%.3f}"
         ",\"samples_us\":[",
         ref_best, median_of(ref, n), min_of(test, n), median_of(test, n));
  for (int k = 0; k < n; ++k) printf("%s%.5f", k ? "," : "", ov[k]);
  printf("]}\n");
  fflush(stdout);
  free(ref);
  free(test);
  free(ov);
}

static void scan_maps(char* out, size_t cap) {
  out[0] = '\0';
  FILE* f = fopen("/proc/self/maps", "r");
  if (!f) return;
  char line[PATH_MAX + 128];
  while (fgets(line, sizeof line, f)) {
    char* path = strchr(line, '/');
    if (!path) continue;
    path[strcspn(path, "\n")] = '\0';
    const char* base = strrchr(path, '/') + 1;
    if (!strstr(base, "gomp") && !strstr(base, "libomp") && !strstr(base, "kite")) continue;
    if (strstr(out, path)) continue; /* each mapping appears several times */
    if (strlen(out) + strlen(path) + 2 >= cap) break;
    if (out[0]) strcat(out, ";");
    strcat(out, path);
  }
  fclose(f);
}

void bench_identify(bench_identity* out) {
  snprintf(out->runtime, sizeof out->runtime, "unknown");
  out->library[0] = '\0';
  /* The entry point the compiler emitted for a parallel region: whichever
   * library defines it is the runtime this binary really runs on. */
#ifdef __clang__
  void* entry = dlsym(RTLD_DEFAULT, "__kmpc_fork_call");
#else
  void* entry = dlsym(RTLD_DEFAULT, "GOMP_parallel");
#endif
  Dl_info info;
  if (entry && dladdr(entry, &info) && info.dli_fname) {
    char* real = realpath(info.dli_fname, NULL);
    snprintf(out->library, sizeof out->library, "%s", real ? real : info.dli_fname);
    free(real);
  }
  const char* (*kite_version)(void) =
      (const char* (*)(void))dlsym(RTLD_DEFAULT, "kite_runtime_version");
  if (kite_version)
    snprintf(out->runtime, sizeof out->runtime, "%s", kite_version());
  else if (dlsym(RTLD_DEFAULT, "__kmpc_fork_call"))
    snprintf(out->runtime, sizeof out->runtime, "libomp");
  else if (entry)
    snprintf(out->runtime, sizeof out->runtime, "libgomp");
  scan_maps(out->mapped, sizeof out->mapped);

  /* A preloaded runtime that lacks an entry point would let that one call
   * fall through to the libgomp the binary was linked with: name any entry
   * point defined by another object than GOMP_parallel's. */
  static const char* const probes[] = {
#ifdef __clang__
      "__kmpc_barrier", "__kmpc_single", "__kmpc_critical", "__kmpc_for_static_init_4",
      "__kmpc_dispatch_init_8", "__kmpc_dispatch_next_8", "__kmpc_ordered",
      "__kmpc_reduce_nowait", "__kmpc_omp_task_alloc", "__kmpc_omp_task", "__kmpc_omp_taskwait",
      "__kmpc_taskgroup", "__kmpc_taskloop", "__kmpc_omp_task_with_deps",
      "omp_set_lock", "omp_get_num_threads", "omp_get_thread_num"};
#else
      "GOMP_barrier", "GOMP_single_start", "GOMP_critical_start", "GOMP_atomic_start",
      "GOMP_loop_nonmonotonic_dynamic_start", "GOMP_loop_nonmonotonic_guided_start",
      "GOMP_loop_ordered_static_start", "GOMP_ordered_start", "GOMP_loop_end",
      "GOMP_task", "GOMP_taskwait", "GOMP_taskgroup_start", "GOMP_taskloop",
      "omp_set_lock", "omp_get_num_threads", "omp_get_thread_num"};
#endif
  out->foreign[0] = '\0';
  Dl_info home;
  if (!entry || !dladdr(entry, &home)) return;
  for (size_t i = 0; i < sizeof probes / sizeof probes[0]; ++i) {
    void* sym = dlsym(RTLD_DEFAULT, probes[i]);
    Dl_info where;
    if (!sym || !dladdr(sym, &where) || where.dli_fbase == home.dli_fbase) continue;
    size_t used = strlen(out->foreign);
    snprintf(out->foreign + used, sizeof out->foreign - used, "%s%s@%s", used ? ";" : "",
             probes[i], where.dli_fname ? where.dli_fname : "?");
  }
}
