/* Target regions on the host device: map clauses, firstprivate data kept
 * private, and the fresh initial task a target region starts.
 * kite-test-threads: 1 2 4
 */
#include "kite_test.h"

#include <stdlib.h>

/* clang without offload targets (no -fopenmp-targets) compiles a target
 * region as plain host code that never calls the runtime: the region is no
 * new initial task there, so only the data-environment checks apply. */
#ifdef __clang__
#define TARGET_IS_RUNTIME_REGION 0
#else
#define TARGET_IS_RUNTIME_REGION 1
#endif

struct Big {
  double v[16];
  int tag;
};

static int env_threads(void) {
  const char* s = getenv("OMP_NUM_THREADS");
  return s ? atoi(s) : omp_get_num_procs();
}

int main(void) {
  KITE_TEST_BEGIN();
  int n = env_threads();

  /* map(to/from/tofrom) on the host share the host variables. */
  int in = 7, out = 0, both = 1;
  int arr[64];
  for (int i = 0; i < 64; ++i) arr[i] = i;
#pragma omp target map(to : in) map(from : out) map(tofrom : both, arr)
  {
    out = in * 2;
    both += 10;
    for (int i = 0; i < 64; ++i) arr[i] *= 3;
  }
  CHECK_EQ_LONG(out, 14);
  CHECK_EQ_LONG(both, 11);
  for (int i = 0; i < 64; ++i) CHECK_EQ_LONG(arr[i], 3 * i);

  /* firstprivate scalars (passed by value) and aggregates (copied by the
   * runtime): writes inside the region must not reach the originals. */
  int fp_int = 5;
  double fp_dbl = 1.5;
  struct Big big;
  for (int i = 0; i < 16; ++i) big.v[i] = i;
  big.tag = 42;
  int seen_int = 0, seen_tag = 0;
  double seen_dbl = 0, seen_v3 = 0;
#pragma omp target firstprivate(fp_int, fp_dbl, big) map(from : seen_int, seen_dbl, seen_tag, seen_v3)
  {
    seen_int = fp_int;
    seen_dbl = fp_dbl;
    seen_tag = big.tag;
    seen_v3 = big.v[3];
    fp_int += 100;
    fp_dbl += 100;
    big.tag = -1;
    for (int i = 0; i < 16; ++i) big.v[i] = -1;
  }
  CHECK_EQ_LONG(seen_int, 5);
  CHECK(seen_dbl == 1.5);
  CHECK_EQ_LONG(seen_tag, 42);
  CHECK(seen_v3 == 3.0);
  CHECK_EQ_LONG(fp_int, 5);
  CHECK(fp_dbl == 1.5);
  CHECK_EQ_LONG(big.tag, 42);
  CHECK(big.v[15] == 15.0);

  /* The region is a new initial task on the host device. */
  omp_set_num_threads(1);
  int level = -1, initial = -1, nthreads = -1, tid = -1, inpar = -1, maxthr = -1, devnum = -1;
#pragma omp target map(from : level, initial, nthreads, tid, inpar, maxthr, devnum)
  {
    level = omp_get_level();
    initial = omp_is_initial_device();
    nthreads = omp_get_num_threads();
    tid = omp_get_thread_num();
    inpar = omp_in_parallel();
    maxthr = omp_get_max_threads(); /* device initial nthreads-var */
    devnum = omp_get_device_num();
  }
  CHECK_EQ_LONG(level, 0);
  CHECK_EQ_LONG(initial, 1);
  CHECK_EQ_LONG(nthreads, 1);
  CHECK_EQ_LONG(tid, 0);
  CHECK_EQ_LONG(inpar, 0);
  if (TARGET_IS_RUNTIME_REGION) CHECK_EQ_LONG(maxthr, n);
  CHECK_EQ_LONG(devnum, omp_get_initial_device());
  /* The encountering task's ICVs are untouched by the region. */
  CHECK_EQ_LONG(omp_get_max_threads(), 1);
  omp_set_num_threads(n);

  /* A parallel region inside a target region forms its own team. */
  int team_size = 0, hits = 0;
#pragma omp target map(tofrom : team_size, hits)
  {
#pragma omp parallel num_threads(2)
    {
#pragma omp atomic
      hits++;
      if (omp_get_thread_num() == 0) team_size = omp_get_num_threads();
      CHECK_EQ_LONG(omp_get_level(), 1);
    }
  }
  CHECK_EQ_LONG(hits, team_size);
  CHECK(team_size >= 1 && team_size <= 2);

  /* Target regions encountered by every thread of a parallel region: each
   * runs on its own thread as a level-0 initial task, then the thread's
   * team state comes back. */
  int bad = 0, total = 0;
#pragma omp parallel reduction(+ : bad, total)
  {
    int me = omp_get_thread_num(), lvl = -1, sum = 0;
#pragma omp target map(from : lvl) map(tofrom : sum) firstprivate(me)
    {
      lvl = omp_get_level();
      for (int i = 0; i <= me; ++i) sum += i;
      me = -5;
    }
    if (lvl != (TARGET_IS_RUNTIME_REGION ? 0 : 1)) bad++;
    if (sum != me * (me + 1) / 2) bad++;
    if (omp_get_thread_num() != me || omp_get_level() != 1) bad++;
    total++;
  }
  CHECK_EQ_LONG(bad, 0);
  CHECK_EQ_LONG(total, n);

  /* thread_limit on a target teams construct limits the region's threads. */
  int limit = 0, par = 0;
#pragma omp target teams num_teams(1) thread_limit(2) map(from : limit, par)
#pragma omp parallel num_threads(4)
  if (omp_get_thread_num() == 0) {
    par = omp_get_num_threads();
    limit = omp_get_thread_limit();
  }
  CHECK_EQ_LONG(limit, 2);
  CHECK(par >= 1 && par <= 2);

  /* device(host) and if(false) take the host too. */
  int where = 0;
#pragma omp target device(omp_get_initial_device()) map(tofrom : where)
  where += omp_is_initial_device();
#pragma omp target if (0) map(tofrom : where)
  where += omp_is_initial_device();
  CHECK_EQ_LONG(where, 2);
  KITE_TEST_END();
}
