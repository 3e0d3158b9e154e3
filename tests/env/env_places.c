/* OMP_PLACES: abstract names and explicit lists give the places and
 * processors they describe, restricted to the processors this process may
 * use; a usable list switches binding on. Adapts to the machine's size.
 * kite-test-threads: 1
 * kite-test-timeout: 120 */
#include "env_child.h"

/* The child prints its place list: "n=2 {0}{1}". */
static int child(void) {
  char line[4096];
  size_t len = 0;
  int n = omp_get_num_places();
  len += snprintf(line + len, sizeof line - len, "n=%d bind=%d ", n, (int)omp_get_proc_bind());
  for (int p = 0; p < n && len < sizeof line - 64; ++p) {
    int k = omp_get_place_num_procs(p);
    int ids[1024];
    omp_get_place_proc_ids(p, ids);
    len += snprintf(line + len, sizeof line - len, "{");
    for (int i = 0; i < k && i < 1024 && len < sizeof line - 32; ++i)
      len += snprintf(line + len, sizeof line - len, i ? ",%d" : "%d", ids[i]);
    len += snprintf(line + len, sizeof line - len, "}");
  }
  /* Out-of-range places have no processors. */
  if (omp_get_place_num_procs(-1) != 0 || omp_get_place_num_procs(n) != 0) return 5;
  printf("%s\n", line);
  omp_display_env(0);
  return 0;
}

static int cpus[1024];
static int ncpu;

/* Runs the child with OMP_PLACES=value; expect_list may be NULL (then only
 * the counts are checked: places in [min_places, max_places], every allowed
 * processor in exactly one place). */
static void check_places(const char* value, const char* expect_list, int min_places,
                         int max_places, int warnings) {
  char assign[256];
  snprintf(assign, sizeof assign, "OMP_PLACES=%s", value);
  const char* env[] = {assign, NULL};
  static struct child_result r;
  run_child(&r, "places", env);
  fprintf(stderr, "case OMP_PLACES='%s'\n", value);
  CHECK_CHILD(r.status == 0, &r);
  CHECK_CHILD(count_substr(r.err, "kite: warning") == warnings, &r);
  int n = -1, bind = -1;
  CHECK_CHILD(sscanf(r.out, "n=%d bind=%d", &n, &bind) == 2, &r);
  CHECK_CHILD(n >= min_places && n <= max_places, &r);
  CHECK_CHILD(bind == (n > 0 ? 1 : 0), &r);
  if (expect_list) {
    char want[512];
    snprintf(want, sizeof want, "n=%d bind=1 %s\n", n, expect_list);
    CHECK_CHILD(strcmp(r.out, want) == 0, &r);
    return;
  }
  /* Every allowed processor appears exactly once (in whole lists). */
  if (n == 0 || strchr(value, '(')) return;
  for (int i = 0; i < ncpu; ++i) {
    char tok[3][32];
    snprintf(tok[0], 32, "{%d,", cpus[i]);
    snprintf(tok[1], 32, ",%d,", cpus[i]);
    snprintf(tok[2], 32, ",%d}", cpus[i]);
    char single[32];
    snprintf(single, 32, "{%d}", cpus[i]);
    int seen = count_substr(r.out, tok[0]) + count_substr(r.out, tok[1]) +
               count_substr(r.out, tok[2]) + count_substr(r.out, single);
    CHECK_CHILD(seen == 1, &r);
  }
}

int main(int argc, char** argv) {
  KITE_TEST_BEGIN();
  if (is_child(argc, argv)) return child();
  ncpu = allowed_cpus(cpus, 1024);
  CHECK(ncpu >= 1);
  CHECK_EQ_LONG(omp_get_num_procs(), ncpu);
  int c0 = cpus[0];
  char list[512], value[256];

  /* threads: one place per processor, in order. */
  size_t len = 0;
  for (int i = 0; i < ncpu && len < sizeof list - 16; ++i)
    len += snprintf(list + len, sizeof list - len, "{%d}", cpus[i]);
  if (ncpu <= 32) check_places("threads", list, ncpu, ncpu, 0);
  check_places(" THREADS ", NULL, ncpu, ncpu, 0);
  check_places("cores", NULL, 1, ncpu, 0);
  check_places("sockets", NULL, 1, ncpu, 0);
  check_places("ll_caches", NULL, 1, ncpu, 0);
  check_places("numa_domains", NULL, 1, ncpu, 0);
  /* abstract_name(n): the first n places. */
  snprintf(list, sizeof list, "{%d}", c0);
  check_places("threads(1)", list, 1, 1, 0);
  check_places("cores( 1 )", NULL, 1, 1, 0);
  /* More places than exist: all of them, with a warning. */
  check_places("threads(100000)", NULL, ncpu, ncpu, 1);

  /* Explicit lists. */
  snprintf(value, sizeof value, "{%d}", c0);
  check_places(value, list, 1, 1, 0);
  snprintf(value, sizeof value, " %d ", c0);
  check_places(value, list, 1, 1, 0);
  /* A processor this process may not use is dropped, with a warning. */
  snprintf(value, sizeof value, "{%d},{100000}", c0);
  check_places(value, list, 1, 1, 1);
  snprintf(value, sizeof value, "{100000}");
  check_places(value, NULL, 0, 0, 1);

  if (ncpu >= 2 && cpus[1] == c0 + 1) {
    int c1 = c0 + 1;
    snprintf(list, sizeof list, "{%d}{%d}", c0, c1);
    snprintf(value, sizeof value, "{%d},{%d}", c0, c1);
    check_places(value, list, 2, 2, 0);
    snprintf(value, sizeof value, " { %d } , { %d } ", c0, c1);
    check_places(value, list, 2, 2, 0);
    /* Place interval: {c0} twice, shifted by one processor. */
    snprintf(value, sizeof value, "{%d}:2:1", c0);
    check_places(value, list, 2, 2, 0);
    snprintf(value, sizeof value, "{%d}:2", c0);
    check_places(value, list, 2, 2, 0);
    /* Resource interval: both in one place. */
    snprintf(list, sizeof list, "{%d,%d}", c0, c1);
    snprintf(value, sizeof value, "{%d:2}", c0);
    check_places(value, list, 1, 1, 0);
    snprintf(value, sizeof value, "{%d,%d}", c1, c0);
    check_places(value, list, 1, 1, 0);
    /* Exclusions: a resource inside a place, a whole place. */
    snprintf(list, sizeof list, "{%d}", c0);
    snprintf(value, sizeof value, "{%d:2,!%d}", c0, c1);
    check_places(value, list, 1, 1, 0);
    snprintf(value, sizeof value, "{%d},{%d},!{%d}", c0, c1, c1);
    check_places(value, list, 1, 1, 0);
    /* A resource interval with a stride, and the display of ranges. */
    snprintf(list, sizeof list, "{%d}", c0);
    snprintf(value, sizeof value, "{%d:2:2}", c0);
    if (ncpu == 2 || cpus[2] != c0 + 2) check_places(value, list, 1, 1, 1);

    snprintf(value, sizeof value, "OMP_PLACES={%d:2},{%d}", c0, c1);
    const char* env[] = {value, NULL};
    static struct child_result r;
    run_child(&r, "places", env);
    char want[128];
    snprintf(want, sizeof want, "  OMP_PLACES = '{%d:2},{%d}'\n", c0, c1);
    CHECK_CHILD(strstr(r.err, want) != NULL, &r);
  }
  KITE_TEST_END();
}
