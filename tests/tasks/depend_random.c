// kite-test-threads: 1 2 4 8
/* A randomized graph of a few thousand tasks with in, out, inout,
 * mutexinoutset and depobj dependences on a small set of variables. Every
 * order-sensitive update is a non-commutative mix, so the final values and
 * every reader's snapshot match a sequential run only if each dependence
 * was honoured. Mutexinoutset updates are commutative but done as a slow
 * non-atomic read-modify-write: concurrent execution would lose updates. */
#include "kite_test.h"

#define NVARS 12
#define NTASKS 3000

static unsigned vars[NVARS], ref_vars[NVARS];
static unsigned seen[NTASKS], ref_seen[NTASKS];
static int shape[NTASKS], va[NTASKS], vb[NTASKS];

static unsigned mix(unsigned x, unsigned y) {
  x ^= y + 0x9e3779b9u + (x << 6) + (x >> 2);
  return x * 2654435761u;
}

static void slow_add(unsigned* p, unsigned d) {
  unsigned t = *(volatile unsigned*)p;
  for (volatile int k = 0; k < 50; ++k) {
  }
  *(volatile unsigned*)p = t + d;
}

/* What task i does, given the variables it may touch. */
static void body(int i, unsigned* v, unsigned* out) {
  int a = va[i], b = vb[i];
  switch (shape[i]) {
    case 0: v[b] = mix(v[a], (unsigned)i); break;             /* in a, out b */
    case 1: v[a] = mix(v[a], (unsigned)i); break;             /* inout a */
    case 2: out[i] = mix(v[a], v[b]); break;                  /* in a, in b */
    case 3: slow_add(&v[a], (unsigned)i * 7u + 1u); break;    /* mutexinoutset a */
    case 4: v[a] = mix(v[a], v[b] + (unsigned)i); break;      /* inout a, in b */
    case 5: v[a] = mix(v[a], 3u * (unsigned)i); break;        /* depobj inout a */
    case 6: out[i] = v[a]; break;                             /* depobj in a */
  }
}

int main(void) {
  KITE_TEST_BEGIN();
  unsigned seed = 12345;
  for (int i = 0; i < NTASKS; ++i) {
    seed = seed * 1103515245u + 12345u;
    shape[i] = (int)((seed >> 16) % 7);
    seed = seed * 1103515245u + 12345u;
    va[i] = (int)((seed >> 16) % NVARS);
    seed = seed * 1103515245u + 12345u;
    vb[i] = (int)((seed >> 16) % NVARS);
    if (vb[i] == va[i]) vb[i] = (va[i] + 1) % NVARS;
  }
  for (int k = 0; k < NVARS; ++k) vars[k] = ref_vars[k] = (unsigned)k * 31u;
  for (int i = 0; i < NTASKS; ++i) body(i, ref_vars, ref_seen);

  for (int rep = 0; rep < 3; ++rep) {
    for (int k = 0; k < NVARS; ++k) vars[k] = (unsigned)k * 31u;
    for (int i = 0; i < NTASKS; ++i) seen[i] = 0;
#pragma omp parallel
#pragma omp single
    for (int i = 0; i < NTASKS; ++i) {
      int a = va[i], b = vb[i];
      switch (shape[i]) {
        case 0:
#pragma omp task depend(in: vars[a]) depend(out: vars[b])
          body(i, vars, seen);
          break;
        case 1:
#pragma omp task depend(inout: vars[a])
          body(i, vars, seen);
          break;
        case 2:
#pragma omp task depend(in: vars[a], vars[b])
          body(i, vars, seen);
          break;
        case 3:
#pragma omp task depend(mutexinoutset: vars[a])
          body(i, vars, seen);
          break;
        case 4:
#pragma omp task depend(inout: vars[a]) depend(in: vars[b])
          body(i, vars, seen);
          break;
        case 5: {
          omp_depend_t o;
#pragma omp depobj(o) depend(inout: vars[a])
#pragma omp task depend(depobj: o)
          body(i, vars, seen);
#pragma omp depobj(o) destroy
          break;
        }
        case 6: {
          omp_depend_t o;
#pragma omp depobj(o) depend(in: vars[a])
#pragma omp task depend(depobj: o)
          body(i, vars, seen);
#pragma omp depobj(o) destroy
          break;
        }
      }
    }
    for (int k = 0; k < NVARS; ++k) CHECK_EQ_LONG(vars[k], ref_vars[k]);
    int bad = 0;
    for (int i = 0; i < NTASKS; ++i) bad += seen[i] != ref_seen[i];
    CHECK_EQ_LONG(bad, 0);
  }
  KITE_TEST_END();
}
