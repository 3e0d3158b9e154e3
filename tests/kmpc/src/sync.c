// critical (unnamed, named, with hint), single (with and without nowait),
// master, masked, barrier, flush, atomic, copyprivate.
#include <omp.h>

#include "kite_test.h"

int main(void) {
  KITE_TEST_BEGIN();
  int nt = omp_get_max_threads();
  long c1 = 0, c2 = 0, c3 = 0;
  int singles = 0, singles_nowait = 0, masters = 0, masked = 0, master_tid = -1;
  int phase_errors = 0, arrived = 0;
#pragma omp parallel
  {
    for (int i = 0; i < 500; i++) {
#pragma omp critical
      c1++;
#pragma omp critical(second)
      c2 += 2;
#pragma omp critical(third) hint(omp_sync_hint_contended)
      c3 += 3;
    }
#pragma omp single
    singles++;
#pragma omp single nowait
    singles_nowait++;
#pragma omp master
    {
      masters++;
      master_tid = omp_get_thread_num();
    }
#pragma omp masked filter(1)
    masked++;
    // Barrier: nobody passes before everybody arrived.
#pragma omp atomic
    arrived++;
#pragma omp barrier
    int seen;
#pragma omp atomic read
    seen = arrived;
    if (seen != omp_get_num_threads()) {
#pragma omp atomic
      phase_errors++;
    }
#pragma omp flush
  }
  CHECK_EQ_LONG(c1, 500L * nt);
  CHECK_EQ_LONG(c2, 1000L * nt);
  CHECK_EQ_LONG(c3, 1500L * nt);
  CHECK_EQ_LONG(singles, 1);
  CHECK_EQ_LONG(singles_nowait, 1);
  CHECK_EQ_LONG(masters, 1);
  CHECK_EQ_LONG(master_tid, 0);
  CHECK_EQ_LONG(masked, nt > 1 ? 1 : 0);
  CHECK_EQ_LONG(phase_errors, 0);

  // copyprivate: every thread gets the single thread's values.
  int bad = 0;
  for (int round = 0; round < 50; round++) {
#pragma omp parallel
    {
      int x = -1;
      double y = 0;
      long arr[3] = {0, 0, 0};
#pragma omp single copyprivate(x, y, arr)
      {
        x = round * 10 + omp_get_thread_num() * 0;
        y = round + 0.5;
        arr[0] = round;
        arr[1] = round + 1;
        arr[2] = round + 2;
      }
      if (x != round * 10 || y != round + 0.5 || arr[0] != round || arr[2] != round + 2) {
#pragma omp atomic
        bad++;
      }
    }
  }
  CHECK_EQ_LONG(bad, 0);

  // Many nowait singles in a row: threads may run ahead.
  int count = 0;
#pragma omp parallel
  {
    for (int i = 0; i < 100; i++) {
#pragma omp single nowait
      {
#pragma omp atomic
        count++;
      }
    }
  }
  CHECK_EQ_LONG(count, 100);

  // sections (clang lowers them to a static loop): each runs once.
  int sec[5] = {0, 0, 0, 0, 0}, lastsec = -1;
#pragma omp parallel
  {
#pragma omp sections lastprivate(lastsec)
    {
#pragma omp section
      { __atomic_add_fetch(&sec[0], 1, __ATOMIC_RELAXED); lastsec = 0; }
#pragma omp section
      { __atomic_add_fetch(&sec[1], 1, __ATOMIC_RELAXED); lastsec = 1; }
#pragma omp section
      { __atomic_add_fetch(&sec[2], 1, __ATOMIC_RELAXED); lastsec = 2; }
#pragma omp section
      { __atomic_add_fetch(&sec[3], 1, __ATOMIC_RELAXED); lastsec = 3; }
#pragma omp section
      { __atomic_add_fetch(&sec[4], 1, __ATOMIC_RELAXED); lastsec = 4; }
    }
  }
  for (int i = 0; i < 5; i++) CHECK_EQ_LONG(sec[i], 1);
  CHECK_EQ_LONG(lastsec, 4);

  // Lock routines with clang's omp_lock_t / omp_nest_lock_t layout.
  omp_lock_t l;
  omp_nest_lock_t nl;
  omp_init_lock(&l);
  omp_init_nest_lock(&nl);
  long guarded = 0, nested = 0;
#pragma omp parallel
  {
    for (int i = 0; i < 200; i++) {
      omp_set_lock(&l);
      guarded++;
      omp_unset_lock(&l);
      omp_set_nest_lock(&nl);
      omp_set_nest_lock(&nl);
      nested++;
      omp_unset_nest_lock(&nl);
      omp_unset_nest_lock(&nl);
    }
  }
  omp_destroy_lock(&l);
  omp_destroy_nest_lock(&nl);
  CHECK_EQ_LONG(guarded, 200L * nt);
  CHECK_EQ_LONG(nested, 200L * nt);
  KITE_TEST_END();
}
