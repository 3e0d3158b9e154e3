/* A loop or sections construct cancelled by one thread: every other thread
 * of the team that reaches the construct's closing barrier afterwards,
 * without having met a cancellation point, detects the cancellation there
 * (cancel with ompt_cancel_loop / ompt_cancel_sections | detected, the
 * barrier's codeptr_ra); the cancelling thread reports it activated, once.
 * The other threads wait in the construct until the tool has heard the
 * activation, so they arrive after it.
 * kite-test-threads: 1 2 4
 * kite-test-env: OMP_CANCELLATION=true */
#include "kite_test.h"

#include <omp-tools.h>
#include <sched.h>
#include <time.h>

#define MAXT 64
static int activated[MAXT], detected[MAXT], other[MAXT];
static const void* detect_ra[MAXT];
static volatile int cancel_heard;
static volatile int section2_tid = -1;

static void on_cancel(ompt_data_t* task, int flags, const void* ra) {
  (void)task;
  int t = omp_get_thread_num();
  if (t < 0 || t >= MAXT) return;
  int kind = flags & (ompt_cancel_loop | ompt_cancel_sections);
  if (!kind || (flags & ompt_cancel_parallel)) {
    other[t]++;
  } else if (flags & ompt_cancel_activated) {
    activated[t] = kind;
    __atomic_store_n(&cancel_heard, 1, __ATOMIC_RELEASE);
  } else if (flags & ompt_cancel_detected) {
    detected[t] = kind;
    detect_ra[t] = ra;
  } else {
    other[t]++;
  }
}

static void small_tool_register(ompt_function_lookup_t lookup, ompt_set_callback_t set) {
  (void)lookup;
  set(ompt_callback_cancel, (ompt_callback_t)on_cancel);
}
#include "support/small_tool.h"

/* Until the cancel is heard (at most ~5 s): then the caller arrives late. */
static void wait_for_cancel(void) {
  for (int i = 0; i < 5000 && !__atomic_load_n(&cancel_heard, __ATOMIC_ACQUIRE); ++i) {
    struct timespec ts = {0, 1000000};
    nanosleep(&ts, NULL);
  }
}

static void reset(void) {
  memset(activated, 0, sizeof activated);
  memset(detected, 0, sizeof detected);
  memset(other, 0, sizeof other);
  memset(detect_ra, 0, sizeof detect_ra);
  cancel_heard = 0;
  section2_tid = -1;
}

static int team;

/* The returns land in these functions: the closing barrier's call. */
__attribute__((noinline)) void cancelled_loop(void) {
#pragma omp for schedule(static, 1)
  for (int i = 0; i < 64; ++i) {
    if (i == 0) {
#pragma omp cancel for
    }
    if (i < team && i != 0) wait_for_cancel();
  }
  __asm__ volatile("" ::: "memory");
}

__attribute__((noinline)) void cancelled_sections(void) {
#pragma omp sections
  {
#pragma omp section
    {
#pragma omp cancel sections
    }
#pragma omp section
    {
      section2_tid = omp_get_thread_num();
      wait_for_cancel();
    }
  }
  __asm__ volatile("" ::: "memory");
}

static int returns_into(const void* ra, void* fn) {
  Dl_info a, b;
  return ra && dladdr(ra, &a) && dladdr(fn, &b) && a.dli_saddr == b.dli_saddr;
}

static void check(int kind, void* fn, const char* what) {
  int act = 0, det = 0;
  for (int t = 0; t < team; ++t) {
    CHECK_EQ_LONG(other[t], 0);
    if (activated[t]) {
      ++act;
      CHECK_EQ_LONG(activated[t], kind);
      CHECK_EQ_LONG(detected[t], 0); /* reported once */
    }
    if (detected[t]) {
      ++det;
      CHECK_EQ_LONG(detected[t], kind);
      CHECK(returns_into(detect_ra[t], fn));
    }
  }
  CHECK_EQ_LONG(act, 1);
  if (kind == ompt_cancel_loop) {
    /* Every other thread had an iteration that waited for the cancel. */
    CHECK_EQ_LONG(det, team - 1);
  } else {
    /* The thread of the waiting section arrives after the cancel (unless
     * it is the cancelling one, or the section never ran); threads with
     * no section may arrive before or after it. */
    CHECK(det <= team - 1);
    int s2 = section2_tid;
    if (s2 >= 0 && s2 < team && !activated[s2]) CHECK_EQ_LONG(detected[s2], kind);
  }
  if (act != 1) fprintf(stderr, "%s: %d activations\n", what, act);
}

int main(void) {
  KITE_TEST_BEGIN();
  CHECK(omp_get_cancellation());
#pragma omp parallel
#pragma omp single
  team = omp_get_num_threads();
  CHECK(team >= 1 && team <= MAXT);

  reset();
#pragma omp parallel
  cancelled_loop();
  check(ompt_cancel_loop, (void*)cancelled_loop, "loop");

  reset();
#pragma omp parallel
  cancelled_sections();
  check(ompt_cancel_sections, (void*)cancelled_sections, "sections");

  /* A later loop in the same team, not cancelled: nothing to report. */
  reset();
#pragma omp parallel
  {
#pragma omp for
    for (int i = 0; i < 8; ++i) __asm__ volatile("" ::: "memory");
  }
  for (int t = 0; t < team; ++t) CHECK(!activated[t] && !detected[t] && !other[t]);
  KITE_TEST_END();
}
