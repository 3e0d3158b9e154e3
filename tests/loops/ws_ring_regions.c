// kite-test-threads: 1 2 4 8
// kite-test-env: OMP_CANCELLATION=true
/* Many short regions in a row, each running 0 to 10 worksharing
 * constructs (loops with and without nowait, ordered, singles, sections),
 * with the team size changing now and then and a region cancelled halfway
 * through its constructs every so often: a team's next region resets only
 * the worksharing slots its last region used (all of them after a
 * cancellation), so every region's constructs must find their slots free
 * and each construct must run every iteration, single and section exactly
 * once, and ordered regions in order. */
#include "kite_test.h"

#define NITER 24
#define MAXCONS 10

static int loop_hits[MAXCONS][NITER];
static int single_hits[MAXCONS];
static int section_hits[MAXCONS][2];
static int ordered_next[MAXCONS];
static int ordered_bad[MAXCONS];  /* ordered regions out of turn */

static void construct(int c) {
  switch (c % 5) {
    case 0:
#pragma omp for schedule(static, 1) nowait
      for (int i = 0; i < NITER; ++i) __atomic_add_fetch(&loop_hits[c][i], 1, __ATOMIC_RELAXED);
      break;
    case 1:
#pragma omp single nowait
      __atomic_add_fetch(&single_hits[c], 1, __ATOMIC_RELAXED);
      break;
    case 2:
#pragma omp for schedule(dynamic, 2) ordered
      for (int i = 0; i < NITER; ++i) {
        __atomic_add_fetch(&loop_hits[c][i], 1, __ATOMIC_RELAXED);
#pragma omp ordered
        {
          if (ordered_next[c] != i) ordered_bad[c]++;
          ordered_next[c] = i + 1;
        }
      }
      break;
    case 3:
#pragma omp sections nowait
      {
#pragma omp section
        __atomic_add_fetch(&section_hits[c][0], 1, __ATOMIC_RELAXED);
#pragma omp section
        __atomic_add_fetch(&section_hits[c][1], 1, __ATOMIC_RELAXED);
      }
      break;
    default:
#pragma omp for schedule(guided)
      for (int i = 0; i < NITER; ++i) __atomic_add_fetch(&loop_hits[c][i], 1, __ATOMIC_RELAXED);
      break;
  }
}

static void clear(void) {
  memset(loop_hits, 0, sizeof loop_hits);
  memset(single_hits, 0, sizeof single_hits);
  memset(section_hits, 0, sizeof section_hits);
  memset(ordered_next, 0, sizeof ordered_next);
  memset(ordered_bad, 0, sizeof ordered_bad);
}

/* Constructs 0..ncons-1 each ran completely, exactly once. */
static void check_all(int ncons) {
  for (int c = 0; c < ncons; ++c) {
    switch (c % 5) {
      case 1:
        CHECK_EQ_LONG(single_hits[c], 1);
        break;
      case 3:
        CHECK_EQ_LONG(section_hits[c][0], 1);
        CHECK_EQ_LONG(section_hits[c][1], 1);
        break;
      default:
        for (int i = 0; i < NITER; ++i) CHECK_EQ_LONG(loop_hits[c][i], 1);
        if (c % 5 == 2) {
          CHECK_EQ_LONG(ordered_next[c], NITER);
          CHECK_EQ_LONG(ordered_bad[c], 0);
        }
        break;
    }
  }
}

int main(void) {
  KITE_TEST_BEGIN();
  CHECK(omp_get_cancellation());
  const int maxt = omp_get_max_threads();
  int cancelled_regions = 0;
  for (int rep = 0; rep < 400; ++rep) {
    const int ncons = rep % (MAXCONS + 1);
    /* Mostly the same team again (the hot team's partial reset); every
     * 13th region one thread fewer, when there is one to drop. */
    const int nt = (rep % 13 == 12 && maxt > 1) ? maxt - 1 : maxt;
    clear();
    if (rep % 17 == 16) {
      /* Cancelled after its first constructs by thread 0 alone: the others
       * run on into later constructs until a cancellation point (a
       * construct's barrier), so the threads leave having entered different
       * numbers of constructs, and the next region needs the whole ring. */
      int done = 0;
#pragma omp parallel num_threads(nt)
      {
        for (int c = 0; c < 3; ++c) construct(c);
#pragma omp barrier
        if (omp_get_thread_num() == 0) {
          done = 1;
#pragma omp cancel parallel
        }
        for (int c = 3; c < MAXCONS; ++c) construct(c);
      }
      CHECK_EQ_LONG(done, 1);
      check_all(3);
      ++cancelled_regions;
      continue;
    }
#pragma omp parallel num_threads(nt)
    for (int c = 0; c < ncons; ++c) construct(c);
    check_all(ncons);
  }
  CHECK(cancelled_regions > 20);
  KITE_TEST_END();
}
