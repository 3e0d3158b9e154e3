/* Thread binding per OpenMP 5.2 "Controlling OpenMP Thread Affinity":
 * primary, close and spread with OMP_PLACES=threads, nested partitions,
 * the initial thread's place, and no binding when bind-var is false. Each
 * policy runs in a child process; the child checks the rules and that each
 * thread's real affinity mask is its place.
 * kite-test-threads: 1
 * kite-test-timeout: 120 */
#include "env_child.h"

#define MAXT 64
struct seen {
  int place, part_n, part_first, part_last, mask_ok;
};
static struct seen s[MAXT];

/* Does the calling thread's affinity mask equal the processors of place? */
static int mask_is_place(int place) {
  cpu_set_t set;
  if (sched_getaffinity(0, sizeof set, &set) != 0) return 0;
  if (place < 0) return 1;
  int ids[1024], n = omp_get_place_num_procs(place);
  omp_get_place_proc_ids(place, ids);
  if (CPU_COUNT(&set) != n) return 0;
  for (int i = 0; i < n; ++i)
    if (!CPU_ISSET(ids[i], &set)) return 0;
  return 1;
}

static void record(void) {
  int t = omp_get_thread_num();
  if (t >= MAXT) return;
  int nums[1024];
  s[t].place = omp_get_place_num();
  s[t].part_n = omp_get_partition_num_places();
  omp_get_partition_place_nums(nums);
  s[t].part_first = s[t].part_n > 0 ? nums[0] : -1;
  s[t].part_last = s[t].part_n > 0 ? nums[s[t].part_n - 1] : -1;
  s[t].mask_ok = mask_is_place(s[t].place);
  /* Partition numbers are consecutive. */
  for (int i = 1; i < s[t].part_n; ++i)
    if (nums[i] != nums[0] + i) s[t].mask_ok = 0;
}

static void run_team(int T) {
  memset(s, 0, sizeof s);
#pragma omp parallel num_threads(T)
  record();
}

static void check_common(int T, int P) {
  for (int i = 0; i < T; ++i) {
    CHECK(s[i].place >= 0 && s[i].place < P);
    CHECK(s[i].mask_ok);
    CHECK(s[i].place >= s[i].part_first && s[i].place <= s[i].part_last);
  }
  CHECK_EQ_LONG(s[0].place, 0); /* the primary stays on its place */
}

static int child(const char* mode) {
  int P = omp_get_num_places();
  CHECK(P >= 1);
  /* The initial thread is bound to the first place, whole list its partition. */
  CHECK_EQ_LONG(omp_get_place_num(), 0);
  CHECK_EQ_LONG(omp_get_partition_num_places(), P);
  CHECK(mask_is_place(0));
  int sizes[] = {1, 2, 3, 4, P, P + 1, 2 * P + 1};
  for (unsigned k = 0; k < sizeof sizes / sizeof sizes[0]; ++k) {
    int T = sizes[k];
    if (T > MAXT) continue;
    run_team(T);
    check_common(T, P);
    if (!strcmp(mode, "primary")) {
      for (int i = 0; i < T; ++i) {
        CHECK_EQ_LONG(s[i].place, 0);
        CHECK_EQ_LONG(s[i].part_n, P);
      }
    } else if (!strcmp(mode, "close")) {
      for (int i = 0; i < T; ++i) CHECK_EQ_LONG(s[i].part_n, P);
      if (T <= P) {
        for (int i = 0; i < T; ++i) CHECK_EQ_LONG(s[i].place, i);
      } else {
        /* Consecutive threads share places; each place holds floor or
         * ceil(T/P) of them. */
        int count[1024] = {0};
        for (int i = 0; i < T; ++i) {
          count[s[i].place]++;
          if (i) CHECK(s[i].place >= s[i - 1].place);
        }
        for (int p = 0; p < P; ++p) CHECK(count[p] == T / P || count[p] == (T + P - 1) / P);
      }
    } else if (!strcmp(mode, "spread")) {
      if (T <= P) {
        /* Disjoint subpartitions of floor or ceil(P/T) places, in order;
         * each thread on the first place of its own. */
        int covered = 0;
        for (int i = 0; i < T; ++i) {
          CHECK(s[i].part_n == P / T || s[i].part_n == (P + T - 1) / T);
          CHECK_EQ_LONG(s[i].part_first, covered);
          CHECK_EQ_LONG(s[i].place, s[i].part_first);
          covered += s[i].part_n;
        }
        CHECK_EQ_LONG(covered, P);
      } else {
        int count[1024] = {0};
        for (int i = 0; i < T; ++i) {
          CHECK_EQ_LONG(s[i].part_n, 1);
          CHECK_EQ_LONG(s[i].part_first, s[i].place);
          count[s[i].place]++;
          if (i) CHECK(s[i].place >= s[i - 1].place);
        }
        for (int p = 0; p < P; ++p) CHECK(count[p] == T / P || count[p] == (T + P - 1) / P);
      }
    }
  }
  if (!strcmp(mode, "spread")) {
    /* OMP_PROC_BIND=spread,close: inner close teams stay inside the outer
     * thread's subpartition. */
    int bad = 0, ran = 0;
#pragma omp parallel num_threads(2) reduction(+ : bad, ran)
    {
      int lo = omp_get_partition_num_places() > 0 ? omp_get_place_num() : -1;
      int n = omp_get_partition_num_places();
      if (omp_get_proc_bind() != omp_proc_bind_close) bad++;
#pragma omp parallel num_threads(3) reduction(+ : bad, ran)
      {
        int p = omp_get_place_num();
        ran++;
        if (p < lo || p >= lo + n) bad++;
        if (!mask_is_place(p)) bad++;
      }
    }
    CHECK_EQ_LONG(ran, 6);
    CHECK_EQ_LONG(bad, 0);
  }
  /* The outermost level's bind-var after the region is unchanged. */
  KITE_TEST_END();
}

/* bind-var false: a proc_bind clause binds nothing. */
static int child_unbound(void) {
  int bad = 0;
  CHECK_EQ_LONG(omp_get_proc_bind(), omp_proc_bind_false);
  CHECK_EQ_LONG(omp_get_place_num(), -1);
#pragma omp parallel num_threads(2) proc_bind(close) reduction(+ : bad)
  if (omp_get_place_num() != -1) bad++;
  CHECK_EQ_LONG(bad, 0);
  KITE_TEST_END();
}

int main(int argc, char** argv) {
  KITE_TEST_BEGIN();
  if (is_child(argc, argv))
    return !strcmp(argv[2], "unbound") ? child_unbound() : child(argv[2]);
  static struct child_result r;
  const char* primary[] = {"OMP_PLACES=threads", "OMP_PROC_BIND=primary", NULL};
  const char* close[] = {"OMP_PLACES=threads", "OMP_PROC_BIND=close", NULL};
  const char* spread[] = {"OMP_PLACES=threads", "OMP_PROC_BIND=spread,close",
                          "OMP_MAX_ACTIVE_LEVELS=2", NULL};
  const char* implied[] = {"OMP_PROC_BIND=true", NULL}; /* places default to threads */
  const char* off1[] = {"OMP_PLACES=threads", "OMP_PROC_BIND=false", NULL};
  const char* off2[] = {NULL};
  struct { const char* mode; const char** env; } runs[] = {
      {"primary", primary}, {"close", close}, {"spread", spread},
      {"close", implied},   {"unbound", off1}, {"unbound", off2}};
  for (unsigned i = 0; i < sizeof runs / sizeof runs[0]; ++i) {
    fprintf(stderr, "run %s\n", runs[i].mode);
    run_child(&r, runs[i].mode, runs[i].env);
    CHECK_CHILD(r.status == 0, &r);
    CHECK_CHILD(strstr(r.err, "kite: warning") == NULL, &r);
  }
  KITE_TEST_END();
}
