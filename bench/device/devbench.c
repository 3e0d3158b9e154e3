/* devbench: the cost of a target region and of mapped bytes, on whatever
 * runtime the process loads (libgomp's host fallback, Kite without devices,
 * Kite with KITE_DEVICES=1). Prints one JSON line per case: the median over
 * `--samples` timed runs of the time per region, in microseconds. Built by
 * bench/device/run; see bench/README.md ("Emulated device"). */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static double now_us(void) { return omp_get_wtime() * 1e6; }

static int cmp(const void* a, const void* b) {
  double x = *(const double*)a, y = *(const double*)b;
  return x < y ? -1 : x > y;
}

static char* buf;
static volatile int sink;

/* One region per call; `bytes` mapped tofrom (0: nothing mapped). */
static void region(size_t bytes) __attribute__((noinline));
static void region(size_t bytes) {
  if (bytes == 0) {
#pragma omp target
    sink = 1;
  } else {
#pragma omp target map(tofrom : buf[0:bytes])
    buf[0] += 1;
  }
}

/* A region whose data a surrounding target data region already mapped. */
static void present_region(size_t bytes) __attribute__((noinline));
static void present_region(size_t bytes) {
#pragma omp target map(tofrom : buf[0:bytes])
  buf[bytes - 1] += 1;
}

typedef struct {
  const char* name;
  size_t bytes;
  int present;
} bench_case;

static double run_case(const bench_case* c, long reps) {
  double t0;
  if (c->present) {
    size_t n = c->bytes;
#pragma omp target data map(tofrom : buf[0:n])
    {
      t0 = now_us();
      for (long i = 0; i < reps; ++i) present_region(n);
      t0 = (now_us() - t0);
    }
  } else {
    t0 = now_us();
    for (long i = 0; i < reps; ++i) region(c->bytes);
    t0 = now_us() - t0;
  }
  return t0 / (double)reps;
}

int main(int argc, char** argv) {
  int samples = 15;
  double target_us = 20000;
  const char* only = NULL;
  for (int i = 1; i < argc; ++i) {
    if (!strcmp(argv[i], "--samples") && i + 1 < argc)
      samples = atoi(argv[++i]);
    else if (!strcmp(argv[i], "--target-us") && i + 1 < argc)
      target_us = atof(argv[++i]);
    else if (!strcmp(argv[i], "--cases") && i + 1 < argc)
      only = argv[++i];
    else {
      fprintf(stderr, "usage: devbench [--samples N] [--target-us US] [--cases a,b]\n");
      return 2;
    }
  }
  if (samples < 1 || samples > 1000) samples = 15;
  static const bench_case cases[] = {
      {"empty", 0, 0},         {"map_4k", 4 << 10, 0},     {"map_1m", 1 << 20, 0},
      {"map_16m", 16 << 20, 0}, {"present_1m", 1 << 20, 1},
  };
  buf = calloc(16 << 20, 1);
  if (!buf) return 1;
  /* Which runtime, proved from inside the process. */
  void* kite = dlsym(RTLD_DEFAULT, "kite_runtime_version");
  Dl_info info;
  dladdr((void*)&omp_get_num_devices, &info);
  printf("{\"identity\":{\"runtime\":\"%s\",\"library\":\"%s\",\"devices\":%d}}\n",
         kite ? "kite" : "other", info.dli_fname ? info.dli_fname : "?", omp_get_num_devices());
  for (size_t k = 0; k < sizeof cases / sizeof cases[0]; ++k) {
    const bench_case* c = &cases[k];
    if (only && !strstr(only, c->name)) continue;
    /* Calibrate: repetitions so that one sample lasts about target_us. */
    long reps = 1;
    for (;;) {
      double per = run_case(c, reps);
      if (per * reps >= target_us / 4 || reps >= (1L << 24)) {
        long want = (long)(target_us / (per > 0.001 ? per : 0.001));
        reps = want < 1 ? 1 : want;
        break;
      }
      reps *= 4;
    }
    double* s = malloc(sizeof(double) * (size_t)samples);
    for (int i = 0; i < samples; ++i) s[i] = run_case(c, reps);
    qsort(s, (size_t)samples, sizeof(double), cmp);
    printf("{\"case\":\"%s\",\"bytes\":%zu,\"present\":%d,\"reps\":%ld,\"median_us\":%.4f,"
           "\"min_us\":%.4f,\"max_us\":%.4f}\n",
           c->name, c->bytes, c->present, reps, s[samples / 2], s[0], s[samples - 1]);
    fflush(stdout);
    free(s);
  }
  /* Keeps buf live (its first byte counts the target regions that
   * incremented it, modulo 256); the runner reads only the JSON lines. */
  printf("checksum %d\n", buf[0]);
  return 0;
}
