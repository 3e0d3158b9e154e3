/* The collector of the ORA paper's overhead study, rebuilt for Kite's
 * bench/: a preloaded library that finds __omp_collector_api with dlsym,
 * starts a session from its constructor and registers FORK, JOIN and the
 * implicit barrier's begin and end. Each event takes a timestamp; JOIN also
 * takes the call stack (glibc backtrace, 16 frames), as a collector
 * attributing regions to their callers does. Records go to a per-thread
 * ring in memory (nothing is written out: the study measures the cost of
 * being called and of recording, not of storage).
 *
 * ORA_COLLECTOR_QUIET=1 keeps the closing summary off stderr.
 * ORA_COLLECTOR_MODE splits the cost: "start" (START only: the runtime's
 * state keeping, no event), "nostack" (the events and timestamps, no call
 * stack), anything else or unset: the paper's collector. */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <execinfo.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "../../include/omp_collector_api.h"

enum { kRing = 4096, kFrames = 16 };

struct rec {
  uint64_t ns;
  int event;
  int depth;
  void* stack[kFrames];
};

struct ring {
  uint64_t count;
  struct rec rec[kRing];
};

static __thread struct ring* t_ring;
static int g_stacks = 1;
enum { kMaxRings = 256 };
static struct ring* g_rings[kMaxRings];
static int g_nrings;

static uint64_t now_ns(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

static void on_event(OMP_COLLECTORAPI_EVENT ev) {
  struct ring* r = t_ring;
  if (!r) {
    /* First event of this thread: its ring (the study's steady state has
     * every thread's ring made long before). */
    r = t_ring = calloc(1, sizeof *r);
    if (!r) return;
    int i = __atomic_fetch_add(&g_nrings, 1, __ATOMIC_RELAXED);
    if (i < kMaxRings) g_rings[i] = r;
  }
  struct rec* x = &r->rec[r->count++ % kRing];
  x->ns = now_ns();
  x->event = ev;
  x->depth = 0;
  if (ev == OMP_EVENT_JOIN && g_stacks) x->depth = backtrace(x->stack, kFrames);
}

static char* entry(char* p, int request, int data) {
  int size = 16 + data;
  memset(p, 0, size);
  memcpy(p, &size, 4);
  memcpy(p + 4, &request, 4);
  return p + size;
}

__attribute__((constructor)) static void start(void) {
  int (*api)(void*) = (int (*)(void*))dlsym(RTLD_DEFAULT, OMP_COLLECTOR_API);
  if (!api) {
    fprintf(stderr, "ora paper collector: no %s in this process\n", OMP_COLLECTOR_API);
    return;
  }
  /* backtrace loads its unwinder on first use: not inside a region. */
  void* warm[2];
  backtrace(warm, 2);
  static const int events[] = {OMP_EVENT_FORK, OMP_EVENT_JOIN, OMP_EVENT_THR_BEGIN_IBAR,
                               OMP_EVENT_THR_END_IBAR};
  const char* mode = getenv("ORA_COLLECTOR_MODE");
  int nevents = mode && strcmp(mode, "start") == 0 ? 0 : 4;
  g_stacks = !(mode && strcmp(mode, "nostack") == 0);
  char msg[16 + 4 * 28 + 4];
  char* p = entry(msg, OMP_REQ_START, 0);
  for (int i = 0; i < nevents; ++i) {
    char* d = p + 16;
    p = entry(p, OMP_REQ_REGISTER, 12);
    void (*cb)(OMP_COLLECTORAPI_EVENT) = on_event;
    memcpy(d, &events[i], 4);
    memcpy(d + 4, &cb, 8);
  }
  memset(p, 0, 4);
  int rc = api(msg);
  int ok = rc == 0;
  for (int i = 0; i <= nevents && ok; ++i) {
    int ec;
    memcpy(&ec, msg + (i == 0 ? 0 : 16 + 28 * (i - 1)) + 8, 4);
    ok = ec == OMP_ERRCODE_OK;
  }
  if (!ok) fprintf(stderr, "ora paper collector: START/REGISTER refused\n");
}

__attribute__((destructor)) static void summary(void) {
  const char* q = getenv("ORA_COLLECTOR_QUIET");
  if (q && q[0] == '1') return;
  unsigned long long events = 0, stacks = 0;
  int n = g_nrings < kMaxRings ? g_nrings : kMaxRings;
  for (int i = 0; i < n; ++i) {
    struct ring* r = g_rings[i];
    events += r->count;
    uint64_t kept = r->count < kRing ? r->count : kRing;
    for (uint64_t k = 0; k < kept; ++k) stacks += r->rec[k].depth > 0;
  }
  fprintf(stderr, "ora paper collector: %llu events on %d threads, %llu call stacks in the last %d per thread\n",
          events, n, stacks, (int)kRing);
}
